// /tables/{t}/display: the results board at a land table, for players to read from metres
// away: the last result largest, then the 19 before it, newest first, each marked big or
// small, odd or even, or triple as the table's rules count it (the board service classifies
// each by its round's paytable). Past results only (GLI-19 §4.18.2(b)).
import { api, el, errorText, notice, tableId, throttled, watch } from "/static/common.js";
import { diceFaces } from "/static/layout.js";
import { tablePhaseWords } from "/static/phases.js";
import { languageSwitch, t } from "/static/i18n.js";

const SHOWN = 20;
languageSwitch(document.querySelector("header.display-head"));
const table = tableId();
const enc = encodeURIComponent(table || "");
const $ = (id) => document.getElementById(id);

$("link-layout").href = `/tables/${enc}/layout`;
$("link-board").href = `/tables/${enc}/board`;
if (table) {
  $("title").textContent = `${t("profile.cca-1992")} · ${table}`;
  document.title = `${t("profile.cca-1992")} — ${table} — ${t("display.results")}`;
}

/** The result's marks, as the board counts them: triple, big or small, odd or even. */
function marks(r) {
  const words = [];
  if (r.triple) words.push(["triple", t("display.triple")]);
  if (r.big) words.push(["big", t("bet.big").toUpperCase()]);
  if (r.small) words.push(["small", t("bet.small").toUpperCase()]);
  if (r.odd) words.push(["odd", t("bet.odd").toUpperCase()]);
  if (r.even) words.push(["even", t("bet.even").toUpperCase()]);
  const box = el("span", { class: "marks" });
  words.forEach(([cls, word], i) => {
    if (i) box.append(" ");
    box.append(el("span", { class: `mark ${cls}` }, word));
  });
  return box;
}

function kindOf(r) {
  return r.triple ? "triple" : r.big ? "big" : r.small ? "small" : "other";
}

function showLatest(r) {
  const box = $("latest");
  if (!r) {
    delete box.dataset.round;
    box.replaceChildren(el("p", { class: "empty" }, t("play.road.empty")));
    return;
  }
  box.dataset.round = r.round;
  box.className = `latest ${kindOf(r)}`;
  box.replaceChildren(
    el("p", { class: "latest-round" }, t("play.round-n", { n: r.round })),
    diceFaces(r.dice, "latest-dice"),
    el("p", { class: "total" }, String(r.total)),
    marks(r),
    ...(r.corrected ? [el("p", { class: "corrected" }, t("display.corrected"))] : []));
}

function showHistory(results) {
  $("results-list").replaceChildren(...results.map((r) => el("li", {
    class: `result ${kindOf(r)}`, dataset: { round: r.round },
    title: `${t("play.round-n", { n: r.round })}: ${r.dice.join(" ")} = ${r.total}${r.corrected ? ` (${t("display.corrected-short")})` : ""}`,
  },
  el("span", { class: "round" }, `#${r.round}`),
  diceFaces(r.dice),
  el("span", { class: "total" }, String(r.total)),
  marks(r))));
}

function showCounts(results) {
  const n = results.length;
  if (!n) { $("display-counts").textContent = ""; return; }
  const count = (key) => results.filter((r) => r[key]).length;
  $("display-counts").textContent = t("display.counts", { n, big: count("big"), small: count("small"),
    odd: count("odd"), even: count("even"), triples: count("triple") });
}

async function refresh() {
  try {
    const [board, view] = await Promise.all([
      api("GET", `/api/tables/${enc}/board`),
      api("GET", `/api/tables/${enc}`),
    ]);
    const results = ((board.stats && board.stats.results) || []).slice(-SHOWN).reverse();
    showLatest(results[0] || null);
    showHistory(results.slice(1));
    showCounts(results);
    const phase = view.round ? view.round.phase : "none";
    $("phase-call").dataset.phase = phase;
    $("phase-call").textContent = tablePhaseWords(phase);
    notice("");
  } catch (err) {
    notice(err.status === 404 ? t("display.not-open", { table }) : t("display.unreadable", { reason: errorText(err) }), "error");
  }
}

if (!table) notice(t("layout-page.no-table"), "error");
else {
  refresh();
  watch(table, throttled(refresh, 300));
}
