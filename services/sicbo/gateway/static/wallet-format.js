// Money of a player's account as people read it: integer minor units in, the currency's own
// format out (Intl.NumberFormat: "€12.50", "MOP 12.50", "¥1,250"), and back from what a
// cashier types. Shared by the player page's wallet (play-wallet.js) and the cashier page.

const formats = new Map();

function formatOf(currency) {
  if (!formats.has(currency)) {
    formats.set(currency, new Intl.NumberFormat(undefined, { style: "currency", currency }));
  }
  return formats.get(currency);
}

/** The currency's minor digits: EUR 2, JPY 0 (ISO 4217, as the browser knows it). */
export function minorDigits(currency) {
  return formatOf(currency).resolvedOptions().maximumFractionDigits;
}

/** 12345 EUR -> "€123.45". */
export function formatMoney(minor, currency) {
  if (!currency) return String(minor);
  return formatOf(currency).format(minor / 10 ** minorDigits(currency));
}

/** What a round did to the balance, from a statement's round: {net, text}. */
export function roundOutcome(round, currency) {
  const net = round.returned + round.refunded + round.adjusted - round.staked;
  if (net > 0) return { net, text: `won ${formatMoney(net, currency)}` };
  if (net < 0) return { net, text: `lost ${formatMoney(-net, currency)}` };
  return { net, text: "no win, no loss" };
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
