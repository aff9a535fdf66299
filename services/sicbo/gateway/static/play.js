// /tables/{t}/play: the online player table (004). Launched by the operator (/launch), or on the
// demo floor signed in with a player id; pick a chip, tap
// spots to build a bet slip, confirm it; the wagers service is the judge of every slip (the
// countdown shown here is only a guide: a late slip gets the service's refusal).
// The slip, the history and the round's view are drawn by play-slip.js, play-history.js and
// play-view.js; this file signs in, reads the table and sends the slip.

import {
  api, clockSkew, money, newCommandId, notice, tableId, throttled, watch,
} from "/static/common.js";
import { renderLayout } from "/static/layout.js";
import { renderHistory } from "/static/play-history.js";
import { addToSlip, clearSlip, renderMarkers, renderSlip, slip, slipTotal } from "/static/play-slip.js";
import { showLit, showView, tick } from "/static/play-view.js";
import { startWallet, stopWallet, walletView } from "/static/play-wallet.js";

const table = tableId();
const enc = encodeURIComponent(table || "");
const $ = (id) => document.getElementById(id);

const box = $("layout");
const noticeBox = $("notice");
const main = document.querySelector("main.play");
const confirmBtn = $("confirm-slip");
const clearBtn = $("clear-slip");

/** What the page knows, in one place (the slip is play-slip.js's). */
const state = {
  player: null,
  view: null,
  skew: 0,
  layoutPaytable: null,
  chip: 100,
  sending: false,
  pending: null, // {key, id}: a slip whose answer never came, retried with the same id
  watching: null,
  loadedAt: 0, // of the last table read: the first connect's re-read is skipped
  historyAt: 0,
  noticeTimer: null,
};

$("link-layout").href = `/tables/${enc}/layout`;
$("link-board").href = `/tables/${enc}/board`;

function say(text, kind = "info", ms = 0) {
  clearTimeout(state.noticeTimer);
  notice(text, kind);
  if (ms) state.noticeTimer = setTimeout(() => notice(""), ms);
}

// ---- sign-in --------------------------------------------------------------------------------

function showSignedOut() {
  state.player = null;
  $("who-box").hidden = true;
  $("table-box").hidden = true;
  $("signin-box").hidden = false;
  main.insertBefore(noticeBox, $("signin-box"));
  clearSlip();
  stopWallet();
  $("player-id").focus();
}

function showSignedIn(id, currency = null) {
  state.player = id;
  $("player-who").textContent = id;
  $("player-currency").textContent = currency || "";
  $("who-box").hidden = false;
  $("signin-box").hidden = true;
  $("table-box").hidden = false;
  $("controls").append(noticeBox);
  startTable();
  startWallet(table);
}

$("signin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const id = $("player-id").value.trim();
  if (!id) {
    say("Enter your player id", "error");
    return;
  }
  const button = $("player-signin");
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/player", { player: id });
    say("");
    showSignedIn(answer.player || id);
  } catch (err) {
    say(err.message, "error");
  } finally {
    button.disabled = false;
  }
});

$("player-signout").addEventListener("click", async () => {
  try {
    await api("DELETE", "/api/player");
  } catch (err) {
    if (err.status !== 401) {
      say(err.message, "error");
      return;
    }
  }
  say("Signed out", "info", 4000);
  showSignedOut();
});

/** A 401 from any call: the session is gone (expired, or signed out in another tab). */
function lostSession(err) {
  if (err && err.status === 401) {
    if (!state.player) return true; // already signed out: a late answer
    showSignedOut();
    say(err.message || "Signed out: sign in again", "error");
    return true;
  }
  return false;
}

// ---- the table --------------------------------------------------------------------------

async function loadLayout() {
  const layout = await api("GET", `/api/tables/${enc}/layout`);
  state.layoutPaytable = layout.paytable || null;
  renderLayout(box, layout, { onSpot: addChip });
  const title = layout.title || `Sic Bo — ${table}`;
  $("title").textContent = title;
  document.title = `${title} — play`;
  // A bet the new paytable no longer offers stays on the slip: the service will say why.
  renderMarkers();
  showLit(state.view);
}

async function refreshView() {
  if (!state.player) return;
  state.loadedAt = Date.now();
  try {
    const answer = await api("GET", `/api/tables/${enc}`);
    if (answer.server_time) state.skew = clockSkew(answer.server_time);
    state.view = answer;
    if (!state.layoutPaytable || (answer.paytable && answer.paytable !== state.layoutPaytable)) await loadLayout();
    showView(state.view, state.skew, state.player);
    walletView(state.view);
  } catch (err) {
    if (!lostSession(err)) say(err.status === 404 ? `Table ${table} is not open` : err.message, "error");
  }
}

// ---- chips and the slip -----------------------------------------------------------------

for (const button of document.querySelectorAll("button[data-chip]")) {
  button.textContent = money(Number(button.dataset.chip));
  button.setAttribute("aria-label", `chip ${money(Number(button.dataset.chip))}`);
  button.addEventListener("click", () => selectChip(Number(button.dataset.chip)));
}

function selectChip(value) {
  state.chip = value;
  for (const button of document.querySelectorAll("button[data-chip]")) {
    button.setAttribute("aria-pressed", String(Number(button.dataset.chip) === value));
  }
}

function addChip(bet) {
  if (!state.player) return;
  addToSlip(bet, state.chip);
}

clearBtn.addEventListener("click", clearSlip);

confirmBtn.addEventListener("click", async () => {
  const { view } = state;
  if (!slip.size || state.sending) return;
  const round = view && view.round ? view.round.number : view ? view.next_round : null;
  const wagers = [...slip].map(([bet, stake]) => ({ bet, stake }));
  const key = JSON.stringify([round, wagers]);
  // A slip whose answer was lost is retried with the same id: never placed twice.
  const id = state.pending && state.pending.key === key ? state.pending.id : newCommandId("slip");
  state.pending = { key, id };
  state.sending = true;
  confirmBtn.setAttribute("aria-busy", "true");
  const total = slipTotal();
  try {
    await api("POST", `/api/tables/${enc}/slips`, { command_id: id, round, wagers });
    state.pending = null;
    clearSlip();
    const n = wagers.length;
    say(`Slip accepted: ${n} bet${n === 1 ? "" : "s"}, ${money(total)} on round ${round}`, "ok", 8000);
    refreshHistory();
  } catch (err) {
    // Only an unanswered call (no gateway, no service) may have been placed after all.
    if (err.status !== 0 && err.status !== 503) state.pending = null;
    if (!lostSession(err)) say(err.message, "error");
  } finally {
    state.sending = false;
    confirmBtn.removeAttribute("aria-busy");
  }
});

// ---- history ----------------------------------------------------------------------------

async function refreshHistory() {
  if (!state.player) return;
  state.historyAt = Date.now();
  try {
    const history = await api("GET", `/api/tables/${enc}/history`);
    if (state.player) renderHistory(history);
  } catch (err) {
    if (!lostSession(err)) say(`History: ${err.message}`, "error");
  }
}

// ---- start ------------------------------------------------------------------------------

const viewSoon = throttled(refreshView, 250);
const historySoon = throttled(refreshHistory, 1000);

function startTable() {
  refreshView().then(refreshHistory);
  if (!state.watching) {
    state.watching = watch(table, (change) => {
      if (!state.player) return;
      if (!change && Date.now() - state.loadedAt < 2000) return; // the first connect: just loaded
      viewSoon();
      // A change: at most once a second (bets, settlements, corrections all show there); the
      // periodic re-sync (null) re-reads the history only when it is 10 s old.
      if (change || Date.now() - state.historyAt > 10000) historySoon();
    });
  }
}

// The sticky controls grow with a notice: the sticky slip beside the layout stays below them.
new ResizeObserver(([entry]) => {
  main.style.setProperty("--controls-h", `${Math.ceil(entry.target.getBoundingClientRect().height)}px`);
}).observe($("controls"));

async function start() {
  if (table) $("title").textContent = `Sic Bo — ${table}`;
  if (!table) {
    say("No table in the address", "error");
    return;
  }
  selectChip(state.chip);
  renderSlip();
  setInterval(() => tick(state.view, state.skew), 250);
  try {
    const me = await api("GET", "/api/player");
    showSignedIn(me.player, me.currency);
  } catch (err) {
    showSignedOut();
    if (err.status !== 401) say(err.message, "error");
  }
}

start();
