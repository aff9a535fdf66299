// Money of a player's account as people read it: integer minor units in, the currency's own
// format out (common.js formatMoney: "€12.50", "MOP 12.50", "¥1,250"), and back from what a
// cashier types. Shared by the player page's wallet (play-wallet.js) and the cashier page.

import { formatMoney, minorDigits } from "/static/common.js";
import { t } from "/static/i18n.js";

export { formatMoney, minorDigits };

/** What a round did to the balance, from a statement's round: {net, text}. */
export function roundOutcome(round, currency) {
  const net = round.returned + round.refunded + round.adjusted - round.staked;
  if (net > 0) return { net, text: t("wallet.won", { amount: formatMoney(net, currency) }) };
  if (net < 0) return { net, text: t("wallet.lost", { amount: formatMoney(-net, currency) }) };
  return { net, text: t("wallet.even") };
}

/**
 * What a cashier typed ("50", "50.5", "-5", "12.50") in minor units, or null when it is no
 * number with at most the currency's minor digits. Negative numbers are passed on: the
 * gateway's refusal names the field, and that is what the page shows.
 */
export function parseAmount(text, currency) {
  const digits = minorDigits(currency);
  const m = String(text).trim().match(/^(-?)(\d+)(?:\.(\d+))?$/);
  if (!m || (m[3] || "").length > digits) return null;
  const minor = Number(m[2]) * 10 ** digits + Number((m[3] || "").padEnd(digits, "0") || 0);
  return m[1] ? -minor : minor;
}
