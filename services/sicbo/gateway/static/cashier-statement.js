// The cashier page's statement of one player: the balance, each round (table, round, balance
// before, stakes, returns, balance after) and each entry of the account, newest first, as
// GET /api/cashier/accounts/{player} gives them (replay's statement of the log).
import { clock, el } from "/static/common.js";
import { formatMoney, roundOutcome } from "/static/wallet-format.js";
import { t } from "/static/i18n.js";

/** A line's type in the cashier's words ("Deposit" for account.funds-deposited.v1); a type
 * the page has no words for yet, as it is. */
function entryName(type) {
  const name = type.replace(/^account\./, "").replace(/\.v\d+$/, "");
  const key = `statement.entry.${name}`;
  const words = t(key);
  return words === key ? name : words;
}

/** Who made a line, by name: "omar" of "operator:omar" (the role is in its title). */
function actorCell(actor) {
  const cut = actor.indexOf(":");
  if (cut < 0) return el("td", { class: "muted" }, actor);
  return el("td", { class: "muted", title: actor.slice(0, cut) }, actor.slice(cut + 1));
}

export function renderStatement(box, statement) {
  box.hidden = false;
  if (!statement.open) {
    box.replaceChildren(el("h2", {}, t("statement.player", { player: statement.player })),
      el("p", { class: "muted", id: "statement-balance" }, t("statement.none")));
    return;
  }
  const cur = statement.currency;
  const m = (minor) => formatMoney(minor, cur);
  const rounds = statement.rounds.map((r) => el("tr", {},
    el("td", {}, r.table), el("td", { class: "num" }, String(r.round)),
    el("td", { class: "num" }, m(r.before)), el("td", { class: "num" }, m(r.staked)),
    el("td", { class: "num" }, m(r.returned + r.refunded + r.adjusted)),
    el("td", { class: "num" }, m(r.after)), el("td", {}, roundOutcome(r, cur).text)));
  const lines = statement.lines.map((line) => el("tr", {},
    el("td", {}, clock(line.at)), el("td", {}, entryName(line.type)),
    el("td", {}, line.table ? `${line.table} #${line.round}` : ""),
    el("td", { class: "num" }, line.amount ? `${line.amount > 0 ? "+" : "−"}${m(Math.abs(line.amount))}` : ""),
    el("td", { class: "num" }, m(line.after)), actorCell(line.actor)));
  const table = (id, heads, rows) => el("div", { class: "scroll-x" },
    el("table", { class: "data", id }, el("thead", {}, el("tr", {}, heads.map(([h, num]) =>
      el("th", num ? { class: "num" } : {}, h)))), el("tbody", {}, rows)));
  box.replaceChildren(
    el("h2", {}, t("statement.player-currency", { player: statement.player, currency: cur })),
    el("p", { class: "cashier-balance" }, `${t("wallet.balance")} `,
      el("strong", { id: "statement-balance", "data-minor": String(statement.balance) }, m(statement.balance))),
    el("h3", {}, t("statement.rounds")),
    rounds.length ? table("statement-rounds", [[t("statement.col.table")], [t("play.col.round"), 1], [t("wallet.col.before"), 1],
      [t("wallet.col.staked"), 1], [t("play.col.returned"), 1], [t("wallet.col.after"), 1], [t("play.col.outcome")]],
    rounds) : el("p", { class: "muted" }, t("statement.no-rounds")),
    el("h3", {}, t("statement.entries")),
    lines.length ? table("statement-lines", [[t("statement.col.time")], [t("statement.col.entry")], [t("play.col.round")],
      [t("statement.col.amount"), 1], [t("statement.col.balance"), 1], [t("statement.col.by")]], lines)
      : el("p", { class: "muted", id: "statement-no-entries" }, t("statement.no-entries")),
  );
}
