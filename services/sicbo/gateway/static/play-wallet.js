// The play page's wallet: the signed-in player's balance, live; after a round of this table
// settles, what the player won or lost on it; and per round the balance before and after.
// Everything comes from the player's own statement (GET /api/account/statement: the log's
// account entries folded by replay's statement), re-read when the gateway says an entry was
// appended to this player's account (GET /api/account/events) and when the table moves on.
// play.js calls startWallet(table) once signed in, stopWallet() once signed out, and
// walletView(view) with each read of the table.

import { t } from "/static/i18n.js";
import { api, el, throttled } from "/static/common.js";
import { formatMoney, roundOutcome } from "/static/wallet-format.js";

const $ = (id) => document.getElementById(id);

/** Phases after which a round's money is all in: paid, or given back. */
const SETTLED = new Set(["completed", "cancelled", "invalidated"]);

const wallet = { table: null, source: null, statement: null, view: null, asked: 0 };

const refreshSoon = throttled(refresh, 300);

export function startWallet(table) {
  wallet.table = table;
  if (!wallet.source) {
    wallet.source = new EventSource("/api/account/events");
    wallet.source.addEventListener("open", refreshSoon); // caught up after each reconnect
    wallet.source.addEventListener("balance", refreshSoon);
  }
  refreshSoon();
}

export function stopWallet() {
  if (wallet.source) wallet.source.close();
  Object.assign(wallet, { source: null, statement: null, view: null });
  wallet.asked += 1; // an answer still on its way is not shown
  for (const id of ["wallet", "wallet-result", "wallet-rounds"]) {
    const node = $(id);
    if (node) node.hidden = true;
  }
}

/** The table as play.js last read it: a round settling shows its outcome. */
export function walletView(view) {
  const before = wallet.view;
  wallet.view = view;
  const moved = !before || !view || before.next_round !== view.next_round
    || (before.round && before.round.phase) !== (view.round && view.round.phase);
  if (moved && wallet.source) refreshSoon();
  else draw();
}

async function refresh() {
  if (!wallet.source) return;
  const asked = ++wallet.asked;
  try {
    const statement = await api("GET", "/api/account/statement");
    if (asked !== wallet.asked) return;
    wallet.statement = statement;
  } catch (err) {
    if (asked !== wallet.asked || err.status === 401) return; // play.js handles the sign-out
    const box = $("wallet");
    if (box) box.replaceChildren(el("span", { class: "muted", title: err.message }, t("wallet.balance-unreadable")));
    return;
  }
  draw();
}

function draw() {
  const { statement } = wallet;
  if (!statement) return;
  drawBalance(statement);
  const rounds = statement.open
    ? statement.rounds.filter((r) => r.table === wallet.table) : [];
  drawResult(rounds, statement.currency);
  drawRounds(rounds, statement.currency);
}

function drawBalance(statement) {
  const box = $("wallet");
  if (!box) return;
  box.hidden = false;
  if (!statement.open) {
    box.replaceChildren(el("span", { class: "muted" }, t("wallet.no-account")));
    return;
  }
  box.dataset.minor = String(statement.balance);
  box.replaceChildren(
    el("span", { class: "muted" }, `${t("wallet.balance")} `),
    el("strong", { id: "wallet-balance" }, formatMoney(statement.balance, statement.currency)),
  );
}

/** Whether round `n` of the table is over as the last view of the table has it. */
function settled(n) {
  const { view } = wallet;
  if (!view) return false;
  if (view.round && view.round.number === n) return SETTLED.has(view.round.phase);
  return view.next_round > n || Boolean(view.round && view.round.number > n);
}

function drawResult(rounds, currency) {
  const box = $("wallet-result");
  if (!box) return;
  const last = rounds.find((r) => r.staked > 0 && settled(r.round)); // newest first
  if (!last) {
    box.hidden = true;
    return;
  }
  const { net, text } = roundOutcome(last, currency);
  box.className = `wallet-result ${net > 0 ? "won" : net < 0 ? "lost" : "even"}`;
  box.dataset.round = String(last.round);
  box.dataset.net = String(net);
  box.textContent = t("wallet.round-result", { n: last.round, text,
    staked: formatMoney(last.staked, currency), returned: formatMoney(last.returned + last.refunded, currency),
    before: formatMoney(last.before, currency), after: formatMoney(last.after, currency) });
  box.hidden = false;
}

function drawRounds(rounds, currency) {
  const panel = $("wallet-rounds");
  if (!panel) return;
  panel.hidden = rounds.length === 0;
  const m = (minor) => formatMoney(minor, currency);
  const rows = rounds.map((r) => el("tr", { "data-round": r.round },
    el("td", {}, String(r.round)),
    el("td", { class: "num" }, m(r.before)),
    el("td", { class: "num" }, m(r.staked)),
    el("td", { class: "num" }, m(r.returned + r.refunded + r.adjusted)),
    el("td", { class: "num" }, m(r.after)),
    el("td", {}, settled(r.round) ? roundOutcome(r, currency).text : t("wallet.in-play"))));
  panel.replaceChildren(
    el("h2", {}, t("wallet.rounds")),
    el("div", { class: "scroll-x" }, el("table", { class: "data", id: "wallet-round-table" },
      el("thead", {}, el("tr", {},
        el("th", {}, t("play.col.round")), el("th", { class: "num" }, t("wallet.col.before")),
        el("th", { class: "num" }, t("wallet.col.staked")), el("th", { class: "num" }, t("play.col.returned")),
        el("th", { class: "num" }, t("wallet.col.after")), el("th", {}, t("play.col.outcome")))),
      el("tbody", {}, rows))),
  );
}
