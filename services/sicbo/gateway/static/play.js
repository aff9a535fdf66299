// /tables/{t}/play: the online player table (004). Sign in with a player id, pick a chip, tap
// spots to build a bet slip, confirm it; the wagers service is the judge of every slip (the
// countdown shown here is only a guide: a late slip gets the service's refusal).

import {
  api, clockSkew, el, money, newCommandId, notice, secondsLeft, tableId, throttled, watch,
} from "/static/common.js";
import { betName, diceFaces, lightSpots, renderLayout } from "/static/layout.js";

const table = tableId();
const enc = encodeURIComponent(table || "");
const $ = (id) => document.getElementById(id);

const box = $("layout");
const noticeBox = $("notice");
const main = document.querySelector("main.play");
const confirmBtn = $("confirm-slip");
const clearBtn = $("clear-slip");

let player = null;
let view = null;
let skew = 0;
let layoutPaytable = null;
let chip = 100;
const slip = new Map(); // bet id -> stake (minor units), in the order first tapped
let sending = false;
let pending = null; // {key, id}: a slip whose answer never came, retried with the same id
let watching = null;
let noticeTimer = null;

$("link-layout").href = `/tables/${enc}/layout`;
$("link-board").href = `/tables/${enc}/board`;

function say(text, kind = "info", ms = 0) {
  clearTimeout(noticeTimer);
  notice(text, kind);
  if (ms) noticeTimer = setTimeout(() => notice(""), ms);
}

// ---- sign-in --------------------------------------------------------------------------------

function showSignedOut() {
  player = null;
  $("who-box").hidden = true;
  $("table-box").hidden = true;
  $("signin-box").hidden = false;
  main.insertBefore(noticeBox, $("signin-box"));
  slip.clear();
  renderSlip();
  $("player-id").focus();
}

function showSignedIn(id) {
  player = id;
  $("player-who").textContent = id;
  $("who-box").hidden = false;
  $("signin-box").hidden = true;
  $("table-box").hidden = false;
  $("controls").append(noticeBox);
  startTable();
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
    if (!player) return true; // already signed out: a late answer
    showSignedOut();
    say(err.message || "Signed out: sign in again", "error");
    return true;
  }
  return false;
}

// ---- the table --------------------------------------------------------------------------

async function loadLayout() {
  const layout = await api("GET", `/api/tables/${enc}/layout`);
  layoutPaytable = layout.paytable || null;
  renderLayout(box, layout, { onSpot: addChip });
  const title = layout.title || `Sic Bo — ${table}`;
  $("title").textContent = title;
  document.title = `${title} — play`;
  // A bet the new paytable no longer offers stays on the slip: the service will say why.
  renderMarkers();
  showLit();
}

let loadedAt = 0;

async function refreshView() {
  if (!player) return;
  loadedAt = Date.now();
  try {
    const answer = await api("GET", `/api/tables/${enc}`);
    if (answer.server_time) skew = clockSkew(answer.server_time);
    view = answer;
    if (!layoutPaytable || (view.paytable && view.paytable !== layoutPaytable)) await loadLayout();
    showView();
  } catch (err) {
    if (!lostSession(err)) say(err.status === 404 ? `Table ${table} is not open` : err.message, "error");
  }
}

function phaseOpen() {
  return Boolean(view && view.round && view.round.phase === "betting-open");
}

function showView() {
  const round = view.round;
  $("round-no").textContent = round ? String(round.number) : `${view.next_round ?? "—"} (next)`;
  const phase = $("phase");
  let text = round ? round.phase : "waiting for the next round";
  if (view.suspended) text += " · table suspended";
  if (round && round.held) text += " · held";
  phase.textContent = text;
  phase.classList.toggle("open", phaseOpen());
  phase.classList.toggle("closed", !phaseOpen());
  const last = view.last_result;
  const lr = $("last-result");
  lr.replaceChildren();
  if (last && last.dice) {
    lr.append(`Last result: round ${last.round}`, diceFaces(last.dice), el("strong", {}, `= ${last.total}`));
  }
  showLit();
  tick();
}

/** Light the winning spots once the current round has its result (off while betting). */
function showLit() {
  const lit = view && view.lit;
  const current = view && view.round ? view.round.number : null;
  lightSpots(box, lit && lit.round === current ? lit.spots : []);
}

function tick() {
  const out = $("countdown");
  if (!view) return;
  if (!phaseOpen()) {
    out.textContent = "betting closed";
    out.className = "countdown closed";
    return;
  }
  const left = secondsLeft(view.round.closes_at, skew);
  out.className = "countdown";
  if (left === null) {
    out.textContent = "bets open";
    return;
  }
  out.textContent = `${left} s`;
  out.classList.toggle("urgent", left <= 5);
}

// ---- chips and the slip -----------------------------------------------------------------

for (const button of document.querySelectorAll("button[data-chip]")) {
  button.textContent = money(Number(button.dataset.chip));
  button.setAttribute("aria-label", `chip ${money(Number(button.dataset.chip))}`);
  button.addEventListener("click", () => selectChip(Number(button.dataset.chip)));
}

function selectChip(value) {
  chip = value;
  for (const button of document.querySelectorAll("button[data-chip]")) {
    button.setAttribute("aria-pressed", String(Number(button.dataset.chip) === value));
  }
}

function addChip(bet) {
  if (!player) return;
  slip.set(bet, (slip.get(bet) || 0) + chip);
  renderSlip();
}

function removeBet(bet) {
  slip.delete(bet);
  renderSlip();
}

function slipTotal() {
  let total = 0;
  for (const stake of slip.values()) total += stake;
  return total;
}

function renderMarkers() {
  for (const old of box.querySelectorAll(".chip-marker")) old.remove();
  for (const spot of box.querySelectorAll(".spot.has-chip")) spot.classList.remove("has-chip");
  for (const spot of box.querySelectorAll(".spot")) {
    const stake = slip.get(spot.dataset.bet);
    if (!stake) continue;
    spot.classList.add("has-chip");
    spot.append(el("span", { class: "chip-marker", "aria-label": `on the slip: ${money(stake)}` }, money(stake)));
  }
}

function renderSlip() {
  const list = $("slip");
  list.replaceChildren();
  for (const [bet, stake] of slip) {
    const label = betName(bet);
    list.append(el("li", { "data-bet": bet },
      el("span", { class: "bet-name" }, label, el("span", { class: "bet-id muted" }, bet)),
      el("span", { class: "stake" }, money(stake)),
      el("button", { type: "button", class: "remove", title: `remove ${label}`, "aria-label": `remove ${label}`,
        onclick: () => removeBet(bet) }, "✕"),
    ));
  }
  $("slip-empty").hidden = slip.size > 0;
  $("slip-total").textContent = money(slipTotal());
  // The service judges the slip: confirm stays enabled whenever there is something on it.
  confirmBtn.disabled = slip.size === 0;
  clearBtn.disabled = slip.size === 0;
  renderMarkers();
}

clearBtn.addEventListener("click", () => {
  slip.clear();
  renderSlip();
});

confirmBtn.addEventListener("click", async () => {
  if (!slip.size || sending) return;
  const round = view && view.round ? view.round.number : view ? view.next_round : null;
  const wagers = [...slip].map(([bet, stake]) => ({ bet, stake }));
  const key = JSON.stringify([round, wagers]);
  // A slip whose answer was lost is retried with the same id: never placed twice.
  const id = pending && pending.key === key ? pending.id : newCommandId("slip");
  pending = { key, id };
  sending = true;
  confirmBtn.setAttribute("aria-busy", "true");
  const total = slipTotal();
  try {
    await api("POST", `/api/tables/${enc}/slips`, { command_id: id, round, wagers });
    pending = null;
    slip.clear();
    renderSlip();
    const n = wagers.length;
    say(`Slip accepted: ${n} bet${n === 1 ? "" : "s"}, ${money(total)} on round ${round}`, "ok", 8000);
    refreshHistory();
  } catch (err) {
    // Only an unanswered call (no gateway, no service) may have been placed after all.
    if (err.status !== 0 && err.status !== 503) pending = null;
    if (!lostSession(err)) say(err.message, "error");
  } finally {
    sending = false;
    confirmBtn.removeAttribute("aria-busy");
  }
});

// ---- history ----------------------------------------------------------------------------

/** How wager `index` of the slip settled: the last settlement of it, after adjustments. */
function settled(record, index) {
  let out = null;
  for (const s of record.settlements || []) {
    for (const r of s.results || []) {
      if (r.index === index) out = { outcome: r.outcome, returned: r.returned, round: s.round };
    }
    for (const a of s.adjustments || []) {
      if (a.index === index && a.after) {
        out = { outcome: a.after.outcome, returned: a.after.returned, round: s.round, adjusted: true };
      }
    }
  }
  return out;
}

function placedAt(text) {
  const t = new Date(text);
  return Number.isNaN(t.getTime()) ? text || "" : t.toLocaleTimeString();
}

function renderHistory(history) {
  const tableEl = $("history");
  for (const body of tableEl.querySelectorAll("tbody")) body.remove();
  const slips = history.slips || [];
  $("history-empty").hidden = slips.length > 0;
  for (const record of slips) {
    const gone = record.status !== "active";
    const wagers = record.wagers && record.wagers.length ? record.wagers : record.placed || [];
    const body = el("tbody", { class: "slip-rows", "data-slip": record.slip_id });
    const rounds = record.rounds && record.rounds.length > 1 ? ` → ${record.rounds.slice(1).join(", ")}` : "";
    const last = (record.settlements || []).filter((s) => s.dice).at(-1);
    wagers.forEach((w, i) => {
      const tr = el("tr", {});
      if (i === 0) {
        const span = String(wagers.length);
        tr.append(
          el("td", { rowspan: span },
            el("strong", {}, `${record.round}${rounds}`),
            last ? el("div", {}, diceFaces(last.dice)) : null,
            gone ? el("div", {}, el("span", { class: `status ${record.status}` }, record.status)) : null),
          el("td", { rowspan: span }, placedAt(record.placed_at),
            record.changes ? el("div", {}, el("small", {}, `changed ${record.changes}×`)) : null),
        );
      }
      const result = gone ? null : settled(record, i);
      tr.append(
        el("td", {}, betName(w.bet), el("div", {}, el("small", {}, w.bet))),
        el("td", { class: "num" }, money(w.stake)),
      );
      if (gone) {
        tr.append(el("td", { class: "muted" }, record.status), el("td", { class: "num muted" }, "—"));
      } else if (result) {
        tr.append(
          el("td", { class: `outcome-${result.outcome}` }, result.outcome,
            result.adjusted ? el("small", {}, " (corrected)") : null),
          el("td", { class: "num" }, money(result.returned)),
        );
      } else {
        tr.append(el("td", { class: "muted" }, "pending"), el("td", { class: "num muted" }, "—"));
      }
      body.append(tr);
    });
    tableEl.append(body);
  }
}

let historyAt = 0;

async function refreshHistory() {
  if (!player) return;
  historyAt = Date.now();
  try {
    const history = await api("GET", `/api/tables/${enc}/history`);
    if (player) renderHistory(history);
  } catch (err) {
    if (!lostSession(err)) say(`History: ${err.message}`, "error");
  }
}

// ---- start ------------------------------------------------------------------------------

const viewSoon = throttled(refreshView, 250);
const historySoon = throttled(refreshHistory, 1000);

function startTable() {
  refreshView().then(refreshHistory);
  if (!watching) {
    watching = watch(table, (change) => {
      if (!player) return;
      if (!change && Date.now() - loadedAt < 2000) return; // the first connect: just loaded
      viewSoon();
      // A change: at most once a second (bets, settlements, corrections all show there); the
      // periodic re-sync (null) re-reads the history only when it is 10 s old.
      if (change || Date.now() - historyAt > 10000) historySoon();
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
  selectChip(chip);
  renderSlip();
  setInterval(tick, 250);
  try {
    const me = await api("GET", "/api/player");
    showSignedIn(me.player);
  } catch (err) {
    showSignedOut();
    if (err.status !== 401) say(err.message, "error");
  }
}

start();
