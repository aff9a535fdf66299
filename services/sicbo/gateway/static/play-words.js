// The player page's words: the round's phase and the service's refusals in plain language.
// A refusal as the service wrote it names the field, the rule and the bet ids (what a dispute
// quotes): the page shows a sentence for a person and keeps the original on the tooltip.
import { money } from "/static/common.js";
import { betName } from "/static/layout.js";

const PHASES = {
  started: "Next round starting",
  "betting-open": "Place your bets",
  "betting-closed": "No more bets",
  uncovered: "Reading the dice",
  "result-entered": "Reading the dice",
  "result-confirmed": "Result",
  completed: "Result",
  "no-result": "No result: the dice are shaken again",
  cancelled: "Round cancelled: stakes refunded",
  invalidated: "Round declared void",
};

/** The phase of `view` as a player reads it. */
export function phaseWords(view) {
  const round = view && view.round;
  if (!round) return "Waiting for the next round";
  let text = PHASES[round.phase] || "Round in play";
  if (view.suspended) text = "Table paused: play resumes once it is fixed";
  else if (round.held) text += " · round on hold";
  return text;
}

/** The bet a refusal's `wagers[n]` points at, by name; null if it names none. */
function betOf(reason, wagers) {
  const m = /wagers\[(\d+)\]/.exec(reason);
  const wager = m && wagers ? wagers[Number(m[1])] : null;
  return wager ? betName(wager.bet) : null;
}

const amount = (text) => money(Number(text));

/** [pattern, sentence(match, bet)]: the first that matches speaks for the refusal. */
const PLAIN = [
  [/takes no remote players/, () => "This table takes no remote players: its bets are placed with chips at the table."],
  [/betting is closed|countdown ended/, () => "No more bets: betting closed before your bets arrived."],
  [/betting is not open/, () => "Betting is not open: wait for “place your bets”."],
  [/is suspended/, () => "The table is paused: no bets until play resumes."],
  [/is not open: no wager/, () => "This table is closed."],
  [/\.stake: (\d+) is below the .* (\d+) \(/, (m, bet) => `${bet || "A stake"}: below the minimum of ${amount(m[2])}.`],
  [/\.stake: (\d+) is above the .* (\d+) \(/, (m, bet) => `${bet || "A stake"}: above the maximum of ${amount(m[2])}.`],
  [/\.stake: (\d+) is not the .* (\d+) plus whole units of (\d+)/,
    (m, bet) => `${bet || "A stake"}: above the minimum, stakes go up in steps of ${amount(m[3])}.`],
  [/maximum payout per round/, () => "These bets could win more than the table pays in one round: bet less."],
  [/over\s+the balance/, () => "Not enough money in your account for these bets."],
  [/plays in \w+; the account/, () => "Your account is in another currency than this table's."],
  [/\.bet: .*not offered/, (m, bet) => `${bet || "That bet"} is not offered at this table.`],
  [/may not act for|bets as themselves/, () => "You can only bet for yourself."],
  [/at least one wager/, () => "Your slip is empty: tap a spot to place a chip."],
  [/signed-out|sign in/i, () => "You are signed out: sign in again to bet."],
];

/**
 * A refusal (an ApiError) of the slip `wagers` for the player: {text, detail}; detail is the
 * service's own words, for the tooltip.
 */
export function plainRefusal(err, wagers = []) {
  const reason = String((err && err.message) || "");
  if (err && (err.status === 0 || err.status === 503)) {
    return { text: "The table cannot be reached right now: your bets may not be placed. Try again.", detail: reason };
  }
  for (const [pattern, sentence] of PLAIN) {
    const m = pattern.exec(reason);
    if (m) return { text: sentence(m, betOf(reason, wagers)), detail: reason };
  }
  return { text: `Your bets were not placed: ${plainly(reason)}`, detail: reason };
}

/** A reason without its field path, its citations and bet ids: what is left of the sentence. */
export function plainly(reason) {
  const text = String(reason)
    .replace(/^[\w$.[\]-]+:\s*/, "") // "wagers[2].bet: " or "round: "
    .replace(/\s*\((?:[^()]*(?:§|RULES\.md|config\.|\b00\d\b)[^()]*)\)/g, "") // "(000 §3.9)"
    .replace(/'([a-z-]+(?::[\d-]+)?)'/g, (_, bet) => betName(bet))
    .trim();
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : "the table refused them.";
}
