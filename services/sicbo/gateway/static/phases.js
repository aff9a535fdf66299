// A round's phase in words for dealers and the table's displays: the API's ids (betting-open,
// ...) stay in data attributes for programs, never on screen.

/** The words a terminal shows for each phase: what the dealer is doing. */
const DEALER_WORDS = {
  none: "No round",
  started: "Dice tumbled",
  "betting-open": "Place your bets",
  "betting-closed": "No more bets",
  uncovered: "Dice uncovered",
  "result-confirmed": "Result confirmed",
  "no-result": "No result",
  invalidated: "Round invalidated",
  cancelled: "Round cancelled",
  completed: "Round settled",
};

/** What a display at the table calls out to the players. */
const TABLE_WORDS = {
  none: "Waiting for the next round",
  started: "Dice tumbled: bets open shortly",
  "betting-open": "Place your bets",
  "betting-closed": "No more bets",
  uncovered: "No more bets: the result",
  "result-confirmed": "Result",
  "no-result": "No result",
  invalidated: "Round invalidated",
  cancelled: "Round cancelled",
  completed: "Waiting for the next round",
};

export function phaseWords(phase) {
  return DEALER_WORDS[phase || "none"] || String(phase);
}

export function tablePhaseWords(phase) {
  return TABLE_WORDS[phase || "none"] || String(phase);
}
