// /tables/{t}/play: the online player table (004). Launched by the operator (/launch), or on the
// demo floor signed in with a player id; pick a chip, tap spots to build a bet slip, confirm it
// within the countdown; the wagers service is the judge of every slip (the countdown shown here
// is only a guide: a late slip gets the service's refusal). The result is held on screen with
// what the player's own wagers returned until the next round opens betting.
// The betting (chips, slip buttons, ring and lock) is play-bet.js's; the bets on the layout
// play-slip.js's; the round play-view.js's, the result play-result.js's, the road beside the
// layout play-road.js's and the history play-history.js's. This file signs in and reads the table.

import { languageSwitch, t } from "/static/i18n.js";
import { api, clockSkew, errorText, notice, tableId, throttled, watch } from "/static/common.js";
import { renderLayout } from "/static/layout.js";
import { groupTabs } from "/static/layout-tabs.js";
import { startBetting } from "/static/play-bet.js";
import { renderHistory } from "/static/play-history.js";
import { showResult } from "/static/play-result.js";
import { refreshRoad } from "/static/play-road.js";
import { forgetBets, renderMarkers, syncConfirmed } from "/static/play-slip.js";
import { showView } from "/static/play-view.js";
import { plainly } from "/static/play-words.js";
import { startWallet, stopWallet, walletView } from "/static/play-wallet.js";

const table = tableId();
const enc = encodeURIComponent(table || "");
const $ = (id) => document.getElementById(id);

const box = $("layout");
const noticeBox = $("notice");
const main = document.querySelector("main.play");

/** What the page knows, in one place (the slip is play-slip.js's). */
const state = {
  player: null,
  view: null,
  history: null,
  skew: 0,
  layoutPaytable: null,
  watching: null,
  loadedAt: 0, // of the last table read: the first connect's re-read is skipped
  historyAt: 0,
  noticeTimer: null,
};

$("link-layout").href = `/tables/${enc}/layout`;
$("link-board").href = `/tables/${enc}/board`;
languageSwitch();

/** A message in the notice line; `detail` (the service's own words) on its tooltip. */
function say(text, kind = "info", ms = 0, detail = "") {
  clearTimeout(state.noticeTimer);
  notice(text, kind);
  if (detail) noticeBox.title = detail;
  else noticeBox.removeAttribute("title");
  if (ms) state.noticeTimer = setTimeout(() => notice(""), ms);
}

// ---- sign-in --------------------------------------------------------------------------------

function showSignedOut() {
  state.player = null;
  $("who-box").hidden = true;
  $("table-box").hidden = true;
  $("signin-box").hidden = false;
  main.insertBefore(noticeBox, $("signin-box"));
  state.history = null;
  forgetBets();
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
  if (currency) startWallet(table); // a bare id (demo) has no account: no wallet to show
}

$("signin-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const id = $("player-id").value.trim();
  if (!id) {
    say(t("play.enter-id"), "error");
    return;
  }
  const button = $("player-signin");
  button.disabled = true;
  try {
    const answer = await api("POST", "/api/player", { player: id });
    say("");
    showSignedIn(answer.player || id);
  } catch (err) {
    say(err.words ? errorText(err) : plainly(err.message), "error", 0, err.message);
  } finally {
    button.disabled = false;
  }
});

$("player-signout").addEventListener("click", async () => {
  try {
    await api("DELETE", "/api/player");
  } catch (err) {
    if (err.status !== 401) {
      say(errorText(err), "error", 0, err.message);
      return;
    }
  }
  say(t("play.signed-out"), "info", 4000);
  showSignedOut();
});

/** A 401 from any call: the session is gone (expired, or signed out in another tab). */
function lostSession(err) {
  if (err && err.status === 401) {
    if (!state.player) return true; // already signed out: a late answer
    showSignedOut();
    say(t("play.signed-out-again"), "error", 0, err.message); // the gateway's English: the tooltip
    return true;
  }
  return false;
}

// ---- the table --------------------------------------------------------------------------

const betting = startBetting({
  enc,
  view: () => state.view,
  skew: () => state.skew,
  say,
  lostSession,
  placed: () => refreshHistory(),
});

async function loadLayout() {
  const layout = await api("GET", `/api/tables/${enc}/layout`);
  state.layoutPaytable = layout.paytable || null;
  renderLayout(box, layout, { onSpot: (bet) => { if (state.player) betting.addChip(bet); } });
  groupTabs(box, $("layout-tabs"));
  const title = t(`profile.${layout.profile}`);
  $("title").textContent = title;
  document.title = `${title} — ${t("play.title")}`;
  // A bet the new paytable no longer offers stays on the slip: the service will say why.
  renderMarkers();
}

function showTable() {
  if (!state.view) return;
  showView(state.view, state.player);
  showResult(state.view, state.history);
  betting.tick();
}

async function refreshView() {
  if (!state.player) return;
  state.loadedAt = Date.now();
  try {
    const answer = await api("GET", `/api/tables/${enc}`);
    if (answer.server_time) state.skew = clockSkew(answer.server_time);
    const before = state.view && state.view.last_result;
    state.view = answer;
    if (!state.layoutPaytable || (answer.paytable && answer.paytable !== state.layoutPaytable)) await loadLayout();
    const last = answer.last_result;
    // A new result: the player's returns in it come with the history.
    if (last && (!before || before.round !== last.round)) historySoon();
    refreshRoad(table, last ? last.round : null);
    showTable();
    walletView(state.view);
  } catch (err) {
    if (lostSession(err)) return;
    if (err.status === 404) say(t("play.not-open"), "error");
    else say(t("play.unreadable"), "error", 6000, err.message);
  }
}

// ---- history ----------------------------------------------------------------------------

async function refreshHistory() {
  if (!state.player) return;
  state.historyAt = Date.now();
  try {
    const history = await api("GET", `/api/tables/${enc}/history`);
    if (!state.player) return;
    state.history = history;
    renderHistory(history);
    syncConfirmed(history);
    showTable();
  } catch (err) {
    if (!lostSession(err)) say(t("play.history-unreadable"), "error", 6000, err.message);
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
  if (table) $("title").textContent = t("play.title-table", { table });
  if (!table) {
    say(t("play.no-table"), "error");
    return;
  }
  try {
    const me = await api("GET", "/api/player");
    showSignedIn(me.player, me.currency);
  } catch (err) {
    showSignedOut();
    if (err.status !== 401) say(errorText(err), "error", 0, err.message);
  }
}

start();
