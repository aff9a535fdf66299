// /cashier: the operator's cashier (issue 14 item 5). An operator signs in with id and PIN (the
// terminals' session), opens players' accounts, takes deposits, pays withdrawals and reads a
// player's statement. Each press carries a command id, kept for a retry of the same press, so
// an answer lost on the way never moves the money twice (the service says "duplicate").
// Refusals are shown at the field they name. On the demo floor it also launches a player.
import { ApiError, api, errorText, newCommandId, notice } from "/static/common.js";
import { renderStatement } from "/static/cashier-statement.js";
import { formatMoney, parseAmount } from "/static/wallet-format.js";
import { languageSwitch, t } from "/static/i18n.js";

const $ = (id) => document.getElementById(id);
const state = { statement: null, pending: null };
languageSwitch();

/** Where a refusal's field is shown, per form. */
const FIELD_BOXES = {
  open: { "$.currency": "open-currency-error", "$.player": "player-error" },
  money: {
    "$.amount": "money-amount-error", "$.currency": "money-currency-error",
    "$.reference": "money-reference-error", "$.player": "player-error",
  },
  launch: { "$.player": "player-error", "$.table": "demo-launch-error" },
};

function clearErrors() {
  for (const box of document.querySelectorAll(".field-error")) box.textContent = "";
}

function showError(form, err) {
  const box = err.field && FIELD_BOXES[form][err.field];
  if (box) $(box).textContent = errorText(err);
  notice(errorText(err), "error");
  if (err.status === 401) signedOut();
}

function player() {
  return $("player").value.trim();
}

// ---- session ------------------------------------------------------------------------------

function signedIn(session) {
  $("cashier-who").textContent = `${session.operator} (${session.role})`;
  $("who-box").hidden = false;
  $("signin-box").hidden = true;
  $("cashier-box").hidden = false;
  if (session.role !== "operator") notice(t("cashier.not-cashier", { role: session.role }), "error");
  api("GET", "/api/cashier/demo-launch").then((demo) => {
    $("demo-operator").textContent = demo.operator;
    $("demo-launch-box").hidden = false;
  }, () => { $("demo-launch-box").hidden = true; });
}

function signedOut() {
  $("who-box").hidden = true;
  $("cashier-box").hidden = true;
  $("signin-box").hidden = false;
}

$("signin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  try {
    const session = await api("POST", "/api/session", { operator: $("signin-operator").value.trim(), pin: $("signin-pin").value });
    $("signin-pin").value = "";
    notice("");
    signedIn(session);
  } catch (err) {
    notice(errorText(err), "error");
  }
});

$("cashier-signout").addEventListener("click", async () => {
  try { await api("DELETE", "/api/session"); } catch { /* signed out either way */ }
  signedOut();
});

// ---- the statement ------------------------------------------------------------------------

async function showStatement() {
  const who = player();
  const statement = await api("GET", `/api/cashier/accounts/${encodeURIComponent(who)}`);
  state.statement = statement;
  renderStatement($("statement"), statement);
  return statement;
}

$("player-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors();
  try { await showStatement(); } catch (err) { showError("money", err); }
});

// ---- commands -----------------------------------------------------------------------------

/** Send a cashier command; the same press again (same what) reuses its command id. */
async function send(path, what, body) {
  const key = JSON.stringify([path, what]);
  const id = state.pending && state.pending.key === key ? state.pending.id : newCommandId("cash");
  state.pending = { key, id };
  try {
    const reply = await api("POST", path, { command_id: id, ...body });
    state.pending = null;
    return reply;
  } catch (err) {
    if (err.status !== 0 && err.status !== 503) state.pending = null; // only a lost answer retries
    throw err;
  }
}

$("open-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors();
  const currency = $("open-currency").value.trim().toUpperCase();
  try {
    const reply = await send("/api/cashier/accounts", [player(), currency], { player: player(), currency });
    notice(reply.duplicate ? t("cashier.already") : t("cashier.opened", { player: player(), currency }), "ok");
    await showStatement();
  } catch (err) {
    showError("open", err);
  }
});

$("money-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors();
  const path = event.submitter && event.submitter.value === "withdrawals" ? "withdrawals" : "deposits";
  try {
    const account = state.statement && state.statement.player === player() ? state.statement : await showStatement();
    if (!account.open) throw new ApiError(409, { code: "refused", reason: t("cashier.no-account", { player: player() }), field: "$.player" });
    const amount = parseAmount($("money-amount").value, account.currency);
    if (amount === null) {
      throw new ApiError(400, { code: "invalid", reason: t("cashier.bad-amount", { currency: account.currency }), field: "$.amount" });
    }
    const reference = $("money-reference").value.trim();
    const body = { amount, currency: account.currency, ...(reference ? { reference } : {}) };
    const url = `/api/cashier/accounts/${encodeURIComponent(player())}/${path}`;
    const reply = await send(url, [player(), body], body);
    const done = path === "deposits" ? "cashier.deposited" : "cashier.paid-out";
    notice(reply.duplicate ? t("cashier.already") : t(done, { amount: formatMoney(amount, account.currency) }), "ok");
    $("money-amount").value = "";
    await showStatement();
  } catch (err) {
    showError("money", err);
  }
});

$("demo-launch-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  clearErrors();
  const table = $("demo-table").value.trim();
  try {
    const link = await api("POST", "/api/cashier/demo-launch", { player: player(), ...(table ? { table } : {}) });
    const a = document.createElement("a");
    a.href = link.url;
    a.target = "_blank";
    a.rel = "noopener noreferrer";
    a.id = "demo-launch-open";
    a.textContent = t("cashier.play-as", { player: link.player });
    $("demo-launch-link").replaceChildren(a);
    $("demo-launch-link").hidden = false;
  } catch (err) {
    showError("launch", err);
  }
});

async function start() {
  try {
    signedIn(await api("GET", "/api/session"));
  } catch (err) {
    signedOut();
    if (err.status !== 401) notice(errorText(err), "error");
  }
}

start();
