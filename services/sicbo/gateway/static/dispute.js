// /tables/{t}/rounds/{n}: the dispute view, the replay report of one round (from the log only):
// its history, and every wager's result as recorded next to the recomputation.

import { api, clock, el, errorText, hiddenText, money, notice, tableId, throttled, watch } from "/static/common.js";
import { betName, diceFaces } from "/static/layout.js";
import { markLater, renderReplay } from "/static/dispute-replay.js";
import { has, languageSwitch, t } from "/static/i18n.js";

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
  document.title = t("dispute.doc-title", { table, n: round ?? "?" });
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
    notice(t("dispute.whole-round"), "error");
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
  return Number.isNaN(gap) || gap >= 1000 ? el("span", { class: "vs" }, t("dispute.event-time", { at: when(h.at) })) : null;
}

/** A report's or a wager's status in words ("dispute.status.<status>"); its id else. */
const statusWords = (status) => {
  const key = `dispute.status.${String(status).toLowerCase().replaceAll(" ", "-")}`;
  return has(key) ? t(key) : String(status);
};
/** A wager's outcome in words ("play.outcome.<outcome>"), "—" for none. */
const outcomeWords = (outcome) => (!outcome ? "—" : has(`play.outcome.${outcome}`) ? t(`play.outcome.${outcome}`) : outcome);

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
  const basis = r.basis && has(`dispute.basis.${r.basis}`) ? t(`dispute.basis.${r.basis}`) : r.basis;
  add(t("dispute.f.table"), r.table);
  add(t("dispute.f.round"), String(r.round));
  add(t("dispute.f.basis"), basis || "—");
  add(t("dispute.f.paytable"), r.paytable || "—");
  add(t("dispute.f.dice"), diceCell(r.dice));
  if (r.final_dice) add(t("dispute.f.final-dice"), el("span", {}, diceCell(r.final_dice), changed ? ` ${t("dispute.f.corrected")}` : ""));
  add(t("dispute.f.staked"), money(r.staked));
  const differs = r.returned !== r.recomputed_returned;
  add(t("dispute.f.returned-recorded"), money(r.returned), differs ? "diff" : null);
  add(t("dispute.f.returned-recomputed"), money(r.recomputed_returned), differs ? "diff" : null);
  add(t("dispute.f.house"), money(r.house_result));
  if (r.pending_corrections && r.pending_corrections.length) {
    add(t("dispute.f.pending"), r.pending_corrections.map((s) => `#${s}`).join(", "), "diff");
  }
  if (r.voided_by) add(t("dispute.f.voided"), t("dispute.f.voided-by", { seq: r.voided_by }));
  add(t("dispute.f.as-of"), t("dispute.f.as-of-seq", { seq: r.as_of }));
  $("summary").replaceChildren(list);

  const problems = r.problems || [];
  $("problems").replaceChildren(...problems.map((p) => el("li", {}, p)));
  $("no-problems").hidden = problems.length > 0;
}

/** "dealer-1 (dealer)" in words: the role by name ("term.role.<role>", "dispute.role.<role>"),
 * the gateway's "another player" (a player hidden from this reader) too; the id as it is. */
function actorWords(actor) {
  const m = /^(.*) \(([\w-]+)\)$/.exec(String(actor));
  if (!m) return String(actor);
  const [, id, role] = m;
  const roleKey = has(`term.role.${role}`) ? `term.role.${role}` : `dispute.role.${role}`;
  const who = id === "another player" ? t("dispute.another-player") : id; // redaction.py ANOTHER_PLAYER
  return `${who} (${has(roleKey) ? t(roleKey) : role})`;
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
    el("td", { title: h.actor }, actorWords(h.actor)))));
  if (!rows || !rows.length) body.append(el("tr", {}, el("td", { colspan: "4", class: "muted" }, t("dispute.no-events"))));
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
      w.adjusted ? el("span", { class: "vs" }, t("dispute.settled-adjusted", { settled: money(w.settled),
        adjusted: `${w.adjusted > 0 ? "+" : ""}${money(w.adjusted)}` })) : null);
    return el("tr", { class: bad ? "mismatch" : null, "data-slip": w.slip_id, "data-index": w.index },
      el("td", { class: "slip-id" }, `${w.slip_id}#${w.index}`),
      el("td", { class: "nowrap" }, w.player),
      el("td", { title: w.bet }, betName(w.bet), w.medium && w.medium !== "chips"
        ? el("span", { class: "vs" }, has(`dispute.medium.${w.medium}`) ? t(`dispute.medium.${w.medium}`) : w.medium) : null),
      el("td", { class: "num" }, money(w.stake)),
      el("td", { class: outDiff ? "diff nowrap" : "nowrap" }, `${outcomeWords(w.outcome)} / ${outcomeWords(w.recomputed_outcome)}`),
      returned,
      el("td", {}, el("span", { class: `st ${w.status}` }, statusWords(w.status))));
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
    const sub = r.status === "NOT SETTLED" ? t("dispute.sub.not-settled")
      : r.status === "MISMATCH" ? t("dispute.sub.mismatch") : t("dispute.sub.match");
    settled = r.status === "MATCH" || r.status === "MISMATCH";
    setStatus(statusWords(r.status), STATUS_CLASS[r.status] || "", sub);
    $("report-status").dataset.status = r.status; // the report's own term, for programs
    renderSummary(r);
    renderHistory(r.history);
    renderReplay(r, $);
    markLater(r, $("history").tBodies[0]);
    renderWagers(r.wagers, r.hidden);
    $("report-body").hidden = false;
  } catch (err) {
    if (err.status === 404) notStarted();
    else notice(t("dispute.report-error", { message: errorText(err) }), "error");
  }
}

if (!table || !round) {
  setStatus(t("dispute.no-such"), "not-started");
  notice(t("dispute.bad-address"), "error");
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
