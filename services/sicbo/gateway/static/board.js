// /tables/{t}/board: the statistics board of the last 50 results (004) and the recall of the
// last 10 rounds (AGCO 13.1, board-recall.js), from GET /api/tables/{t}/board. Past results
// only. In the table's language (i18n.js), with the switch.

import { api, el, errorText, notice, offerPlay, tableId, throttled, watch } from "/static/common.js";
import { languageSwitch, t } from "/static/i18n.js";
import { diceFaces } from "/static/layout.js";
import { basisWords, reasonWords, renderRecall } from "/static/board-recall.js";

const table = tableId();
const enc = encodeURIComponent(table || "");
const $ = (id) => document.getElementById(id);

let shown = { stats: null, recall: null }; // the as_of of what is on screen

$("link-layout").href = `/tables/${enc}/layout`;
offerPlay($("link-play"), table);
$("link-display").href = `/tables/${enc}/display`;
if (table) {
  $("title").textContent = t("board.title-table", { table });
  document.title = t("board.title-table", { table });
}
languageSwitch();

const pct = (n, of) => (of ? `${Math.round((100 * n) / of)}%` : "—");
/** A dict keyed by number (JSON keys are strings): its value for n, 0 when absent. */
function at(map, n) {
  if (!map) return 0;
  return Number(map[n] ?? map[String(n)] ?? 0);
}

/** The marks of a result: flag, its word (a tooltip) and its letter ("board.mark.<flag>"). */
const MARKS = [["big", "bet.big"], ["small", "bet.small"], ["triple", "board.triple"], ["odd", "bet.odd"],
  ["even", "bet.even"], ["corrected", "display.corrected"]];

// ---- the road -------------------------------------------------------------------------------

function renderRoad(stats) {
  const road = $("results");
  const results = stats.results || [];
  $("results-count").textContent = results.length
    ? t(results.length === 1 ? "board.count-one" : "board.count-many", { n: results.length, limit: stats.limit })
    : "";
  road.replaceChildren();
  if (!results.length) {
    road.append(el("p", { class: "muted" }, t("board.no-result-yet")));
    return;
  }
  results.forEach((r, i) => {
    const kind = r.triple ? "triple" : r.big ? "big" : r.small ? "small" : "other";
    const flags = MARKS.filter(([flag]) => r[flag]);
    const marks = flags.map(([flag, key]) => el("span", { class: `mk ${flag}`, title: t(key) }, t(`board.mark.${flag}`)));
    road.append(el("div", {
      class: `bead ${kind}${r.corrected ? " corrected" : ""}${i === results.length - 1 ? " latest" : ""}`,
      role: "listitem",
      "data-round": r.round,
      title: `${t("term.round-n", { n: r.round })}: ${(r.dice || []).join(" ")} = ${r.total}`
        + `${flags.length ? ` · ${flags.map(([, key]) => t(key)).join(", ")}` : ""}`,
    },
    el("span", { class: "bead-round" }, `#${r.round}`),
    diceFaces(r.dice),
    el("span", { class: "bead-total" }, String(r.total)),
    el("span", { class: "bead-marks" }, marks)));
  });
  // Newest at the end: keep it in view when the road scrolls sideways.
  const scroller = road.parentElement;
  scroller.scrollLeft = scroller.scrollWidth;
}

// ---- statistics ------------------------------------------------------------------------------

function bar(label, value, of, cls = "") {
  const width = of ? Math.max(0, Math.min(100, (100 * value) / of)) : 0;
  return el("div", { class: `hbar ${cls}`.trim(), "data-key": cls || null },
    el("span", { class: "hbar-label" }, label),
    el("span", { class: "hbar-track" }, el("span", { class: "hbar-fill", style: `width:${width}%` })),
    el("span", { class: "hbar-value" }, String(value), el("small", {}, ` ${pct(value, of)}`)));
}

function renderStats(stats) {
  const box = $("stats");
  const n = (stats.results || []).length;
  box.replaceChildren();
  box.append(el("p", { class: "muted stats-over" },
    n ? t(n === 1 ? "board.over-one" : "board.over-many", { n }) : t("board.none-yet")));

  box.append(el("div", { class: "counts", id: "stats-counts" },
    bar(t("bet.big"), stats.big, n, "big"),
    bar(t("bet.small"), stats.small, n, "small"),
    bar(t("bet.odd"), stats.odd, n, "odd"),
    bar(t("bet.even"), stats.even, n, "even"),
    bar(t("board.triples"), stats.triples, n, "triple")));

  const totals = [];
  for (let total = 3; total <= 18; total++) totals.push([total, at(stats.totals, total)]);
  const most = Math.max(1, ...totals.map(([, c]) => c));
  box.append(el("h3", {}, t("board.totals")), el("div", { class: "histogram", id: "stats-totals", role: "list" },
    totals.map(([total, c]) => el("div", { class: "col", role: "listitem", "data-total": total,
      title: `${t("bet.total", { n: total })}: ${c}` },
      el("span", { class: "col-count" }, String(c)),
      el("span", { class: "col-bar", style: `height:${(100 * c) / most}%` }),
      el("span", { class: "col-label" }, String(total))))));

  const dice = n * 3;
  const faces = [];
  for (let f = 1; f <= 6; f++) faces.push([f, at(stats.faces, f)]);
  box.append(el("h3", {}, t("board.faces")), el("div", { class: "faces", id: "stats-faces" },
    faces.map(([f, c]) => {
      const row = bar("", c, dice, `face-${f}`);
      row.querySelector(".hbar-label").append(diceFaces([f]));
      return row;
    })));

  const voids = stats.voids || [];
  box.append(el("h3", {}, `${t("board.voids")} `, el("small", { class: "muted" }, t("board.voids-apart"))));
  box.append(voids.length
    ? el("ul", { class: "voids", id: "voids" }, voids.map((v) => el("li", { "data-round": v.round },
      el("a", { href: `/tables/${enc}/rounds/${v.round}` }, t("board.round-n", { n: v.round })),
      ` — ${basisWords(v.basis)}: ${reasonWords(v.reason)}`)))
    : el("p", { class: "muted", id: "voids" }, t("board.none")));
}

// ---- live -----------------------------------------------------------------------------------

let loadedAt = 0;

async function refresh() {
  loadedAt = Date.now();
  try {
    const board = await api("GET", `/api/tables/${enc}/board`);
    notice("");
    if (board.stats && board.stats.as_of !== shown.stats) {
      renderRoad(board.stats);
      renderStats(board.stats);
      shown.stats = board.stats.as_of;
    }
    if (board.recall && board.recall.as_of !== shown.recall) {
      renderRecall($("recall"), board.recall, enc);
      shown.recall = board.recall.as_of;
    }
  } catch (err) {
    notice(err.status === 404 ? t("display.not-open", { table }) : t("board.unreadable", { message: errorText(err) }), "error");
  }
}

if (!table) {
  notice(t("board.no-table"), "error");
} else {
  const soon = throttled(refresh, 1000);
  refresh();
  watch(table, (change) => {
    if (!change && Date.now() - loadedAt < 2000) return; // the first connect: just loaded
    soon();
  });
}
