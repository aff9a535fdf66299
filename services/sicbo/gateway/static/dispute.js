// /tables/{t}/rounds/{n}: the dispute view, the replay report of one round (from the log only):
// its history, and every wager's result as recorded next to the recomputation.

import { api, clock, el, hiddenText, money, notice, tableId, throttled, watch } from "/static/common.js";
import { diceFaces } from "/static/layout.js";
import { markLater, renderReplay } from "/static/dispute-replay.js";
import { languageSwitch, t } from "/static/i18n.js";

const table = tableId();
const enc = encodeURIComponent(table || "");
const $ = (id) => document.getElementById(id);
const match = location.pathname.match(/\/rounds\/(\d+)\/?$/);
const round = match ? Number(match[1]) : null;

const STATUS_CLASS = {
  MATCH: "match", MISMATCH: "mismatch", "NOT SETTLED": "not-settled", "NOT STARTED": "not-started",
};

languageSwitch();
$("link-board").href = `/tables/${enc}/board`;
$("link-layout").href = `/tables/${enc}/layout`;
if (table) {
  $("title").textContent = `${t("dispute.title")} · ${table} · ${t("play.round-n", { n: round ?? "?" })}`;
  document.title = `Sic Bo — ${table} — round ${round ?? "?"} dispute`;
}

// ---- navigation -----------------------------------------------------------------------------

const roundUrl = (n) => `/tables/${enc}/rounds/${n}`;
if (round) {
  $("round-input").value = String(round);
  $("prev-round").hidden = round <= 1;
  $("prev-round").href = roundUrl(Math.max(1, round - 1));
  $("next-round").href = roundUrl(round + 1);
} else {
  $("prev-round").hidden = true;
  $("next-round").hidden = true;
}
$("round-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const n = Number($("round-input").value);
  if (!Number.isInteger(n) || n < 1) {
    notice("A round is a whole number from 1", "error");
    return;
  }
  location.assign(roundUrl(n));
});

// ---- the report -----------------------------------------------------------------------------

const sum = (dice) => (dice || []).reduce((a, b) => a + b, 0);

/** The table's time to the millisecond, with the date: the order of events matters in a dispute. */
const when = (text) => clock(text, undefined, { date: true, milliseconds: true });

/** The event's own time, when it differs from when the server stored it by a second or more. */
function eventTime(h) {
  if (!h.at) return null;
  const gap = Math.abs(Date.parse(h.at) - Date.parse(h.time));
  return Number.isNaN(gap) || gap >= 1000 ? el("span", { class: "vs" }, `event time ${when(h.at)}`) : null;
}

function setStatus(text, cls, sub = "") {
  const box = $("report-status");
  box.textContent = text;
  box.className = cls;
  $("report-sub").textContent = sub;
}

function diceCell(dice) {
  return dice ? el("span", { class: "dice-total" }, diceFaces(dice), ` = ${sum(dice)}`) : "—";
}

function renderSummary(r) {
  const list = el("dl", { class: "facts" });
  const add = (k, v, cls = null) => {
    if (v === null || v === undefined || v === "") return;
    list.append(el("dt", {}, k), el("dd", { class: cls }, v));
  };
  const changed = r.final_dice && r.dice && r.final_dice.join() !== r.dice.join();
  add("Table", r.table);
  add("Round", String(r.round));
  add("Basis", r.basis ? r.basis.replaceAll("-", " ") : "—");
  add("Paytable", r.paytable || "—");
  add("Dice (settled)", diceCell(r.dice));
  if (r.final_dice) add("Final dice", el("span", {}, diceCell(r.final_dice), changed ? " (corrected)" : ""));
  add("Staked", money(r.staked));
  const differs = r.returned !== r.recomputed_returned;
  add("Returned (recorded)", money(r.returned), differs ? "diff" : null);
  add("Returned (recomputed)", money(r.recomputed_returned), differs ? "diff" : null);
  add("House result", money(r.house_result));
  if (r.pending_corrections && r.pending_corrections.length) {
    add("Corrections not yet settled", r.pending_corrections.map((s) => `#${s}`).join(", "), "diff");
  }
  if (r.voided_by) add("Cancelled after the result", `by event #${r.voided_by}: every wager refunded`);
  add("Replayed up to", `log sequence ${r.as_of}`);
  $("summary").replaceChildren(list);

  const problems = r.problems || [];
  $("problems").replaceChildren(...problems.map((p) => el("li", {}, p)));
  $("no-problems").hidden = problems.length > 0;
}

/** An event type ("round.betting-opened.v1") that a narrow column may break after its dots. */
function dotted(type) {
  return String(type).split(".").flatMap((part, i) => (i ? [el("wbr", {}), `.${part}`] : [part]));
}

function renderHistory(rows) {
  const body = $("history").tBodies[0];
  body.replaceChildren(...(rows || []).map((h) => el("tr", { "data-seq": h.seq },
    el("td", { class: "num" }, String(h.seq)),
    el("td", { class: "nowrap" }, when(h.time), eventTime(h)),
    el("td", {}, ...dotted(h.type)),
    el("td", {}, h.actor))));
  if (!rows || !rows.length) body.append(el("tr", {}, el("td", { colspan: "4", class: "muted" }, "No event recorded.")));
}

function renderWagers(rows, hidden) {
  const body = $("wagers").tBodies[0];
  $("hidden-wagers").textContent = hiddenText(hidden);
  $("hidden-wagers").hidden = !hiddenText(hidden);
  $("no-wagers").hidden = Boolean(rows && rows.length) || Boolean(hiddenText(hidden));
  // No row to show: no empty table's headings above the words that say why.
  $("wagers").parentElement.hidden = !(rows && rows.length);
  body.replaceChildren(...(rows || []).map((w) => {
    const bad = w.status !== "MATCH";
    const outDiff = w.outcome !== w.recomputed_outcome;
    const retDiff = w.recorded !== w.recomputed;
    const returned = el("td", { class: `num${retDiff ? " diff" : ""}` },
      `${money(w.recorded)} / ${money(w.recomputed)}`,
      w.adjusted ? el("span", { class: "vs" }, `settled ${money(w.settled)}, adjusted ${w.adjusted > 0 ? "+" : ""}${money(w.adjusted)}`) : null);
    return el("tr", { class: bad ? "mismatch" : null, "data-slip": w.slip_id, "data-index": w.index },
      el("td", { class: "slip-id" }, `${w.slip_id}#${w.index}`),
      el("td", { class: "nowrap" }, w.player),
      el("td", {}, w.bet, w.medium && w.medium !== "chips" ? el("span", { class: "vs" }, w.medium) : null),
      el("td", { class: "num" }, money(w.stake)),
      el("td", { class: outDiff ? "diff nowrap" : "nowrap" }, `${w.outcome || "—"} / ${w.recomputed_outcome || "—"}`),
      returned,
      el("td", {}, el("span", { class: `st ${w.status}` }, w.status)));
  }));
}

/** A round the table has not played (yet): said plainly, with the ways on. */
function notStarted() {
  setStatus(t("dispute.not-played", { n: round }), "not-started");
  $("report-sub").replaceChildren(
    el("a", { id: "not-played-board", href: `/tables/${enc}/board` }, t("dispute.board-link")),
    " · ",
    el("a", { id: "not-played-floor", href: "/" }, t("notfound.back")));
  $("report-body").hidden = true;
}

let loadedAt = 0;
let settled = false; // MATCH or MISMATCH: only a late correction or cancellation changes it

async function refresh() {
  loadedAt = Date.now();
  try {
    const r = await api("GET", `/api/tables/${enc}/rounds/${round}`);
    notice("");
    if (r.status === "NOT STARTED") {
      notStarted();
      return;
    }
    const sub = r.status === "NOT SETTLED"
      ? "the round has no settlement in the log yet"
      : r.status === "MISMATCH"
        ? "the recorded settlement differs from the replay of the log"
        : "the recorded settlement agrees with the replay of the log";
    settled = r.status === "MATCH" || r.status === "MISMATCH";
    setStatus(r.status, STATUS_CLASS[r.status] || "", sub);
    renderSummary(r);
    renderHistory(r.history);
    renderReplay(r, $);
    markLater(r, $("history").tBodies[0]);
    renderWagers(r.wagers, r.hidden);
    $("report-body").hidden = false;
  } catch (err) {
    if (err.status === 404) notStarted();
    else notice(`Report: ${err.message}`, "error");
  }
}

if (!table || !round) {
  setStatus("no such round", "not-started");
  notice("The address names no table and round", "error");
} else {
  const soon = throttled(refresh, 1500);
  refresh();
  // Only this round's events change its report (a correction or a cancellation may come late).
  const mine = new RegExp(`\\.${round}\\.`);
  const ofThisRound = (change) => (change.round !== undefined && change.round !== null
    ? Number(change.round) === round
    : !change.subject || mine.test(change.subject));
  watch(table, (change) => {
    if (change) {
      if (ofThisRound(change)) soon();
      return;
    }
    // A (re)connect or the periodic re-sync: a replay reads the log, so a settled report is
    // re-read at most every 30 s; one still being played, every time.
    if (Date.now() - loadedAt > (settled ? 30000 : 2000)) soon();
  });
}
