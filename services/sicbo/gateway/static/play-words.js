// The player page's words: the round's phase and the service's refusals in plain language.
// A refusal as the service wrote it names the field, the rule and the bet ids (what a dispute
// quotes): the page shows a sentence for a person and keeps the original on the tooltip.
import { t } from "/static/i18n.js";
import { money, reasonText } from "/static/common.js";
import { betName } from "/static/layout.js";

const PHASES = new Set(["started", "betting-open", "betting-closed", "uncovered", "result-entered",
  "result-confirmed", "completed", "no-result", "cancelled", "invalidated"]);

/** The phase of `view` as a player reads it. */
export function phaseWords(view) {
  const round = view && view.round;
  if (!round) return t("phase.waiting");
  let text = PHASES.has(round.phase) ? t(`phase.${round.phase}`) : t("phase.other");
  if (view.suspended) text = t("phase.suspended");
  else if (round.held) text += ` · ${t("phase.held")}`;
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
  [/takes no remote players/, () => t("refusal.land")],
  [/betting is closed|countdown ended/, () => t("refusal.closed")],
  [/betting is not open/, () => t("refusal.not-open")],
  [/is suspended/, () => t("refusal.suspended")],
  [/is not open: no wager/, () => t("refusal.table-closed")],
  [/\.stake: (\d+) is below the .* (\d+) \(/, (m, bet) => t("refusal.below", { bet: bet || t("refusal.a-stake"), amount: amount(m[2]) })],
  [/\.stake: (\d+) is above the .* (\d+) \(/, (m, bet) => t("refusal.above", { bet: bet || t("refusal.a-stake"), amount: amount(m[2]) })],
  [/\.stake: (\d+) is not the .* (\d+) plus whole units of (\d+)/,
    (m, bet) => t("refusal.steps", { bet: bet || t("refusal.a-stake"), amount: amount(m[3]) })],
  [/maximum payout per round/, () => t("refusal.max-payout")],
  [/over\s+the balance/, () => t("refusal.balance")],
  [/plays in \w+; the account/, () => t("refusal.currency")],
  [/\.bet: .*not offered/, (m, bet) => t("refusal.not-offered", { bet: bet || t("refusal.that-bet") })],
  [/may not act for|bets as themselves/, () => t("refusal.yourself")],
  [/at least one wager/, () => t("refusal.empty")],
  [/signed-out|sign in/i, () => t("refusal.signed-out")],
];

/**
 * A refusal (an ApiError) of the slip `wagers` for the player: {text, detail}; detail is the
 * service's own words, for the tooltip.
 */
export function plainRefusal(err, wagers = []) {
  const reason = String((err && err.message) || "");
  if (err && (err.status === 0 || err.status === 503)) {
    return { text: t("refusal.unreachable"), detail: reason };
  }
  const keyed = err && err.words && keyedRefusal(err.words, wagers);
  if (keyed) return { text: keyed, detail: reason };
  const said = err && err.words ? reasonText(err.words) : ""; // a key the catalogues have
  if (said) return { text: t("refusal.other", { reason: said }), detail: reason };
  for (const [pattern, sentence] of PLAIN) {
    const m = pattern.exec(reason);
    if (m) return { text: sentence(m, betOf(reason, wagers)), detail: reason };
  }
  return { text: t("refusal.other", { reason: plainly(reason) }), detail: reason };
}

/** The service's own words for a slip's refusals (Rejected.reason_key) -> the player's. */
const KEYED = {
  "wager.closed": "refusal.closed",
  "wager.not-open": "refusal.not-open",
  "wager.suspended": "refusal.suspended",
  "wager.table-closed": "refusal.table-closed",
  "wager.below": "refusal.below",
  "wager.above": "refusal.above",
  "wager.steps": "refusal.steps",
  "wager.max-payout": "refusal.max-payout",
  "wager.balance": "refusal.balance",
  "wager.no-account": "refusal.no-account",
  "wager.currency": "refusal.currency",
  "wager.not-offered": "refusal.not-offered",
  "wager.not-yours": "refusal.yourself",
  "wager.empty": "refusal.empty",
};

/** A keyed refusal as a sentence for the player, its bet by name; null for a key not known. */
function keyedRefusal(words, wagers) {
  const key = KEYED[words.key];
  if (!key) return null;
  const params = words.params || {};
  const bet = betOf(String(params.where || ""), wagers)
    || (params.bet ? betName(params.bet) : t(key === "refusal.not-offered" ? "refusal.that-bet" : "refusal.a-stake"));
  return t(key, { bet, amount: params.amount !== undefined ? amount(params.amount) : "" });
}

/** A reason without its field path, its citations and bet ids: what is left of the sentence. */
export function plainly(reason) {
  const text = String(reason)
    .replace(/^[\w$.[\]-]+:\s*/, "") // "wagers[2].bet: " or "round: "
    .replace(/\s*\((?:[^()]*(?:§|RULES\.md|config\.|\b00\d\b)[^()]*)\)/g, "") // "(000 §3.9)"
    .replace(/'([a-z-]+(?::[\d-]+)?)'/g, (_, bet) => betName(bet))
    .trim();
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : t("refusal.refused");
}
