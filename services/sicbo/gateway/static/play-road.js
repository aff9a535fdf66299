// Beside the play page's layout: the road of the last results and the statistics of the last
// 50, read from the board (GET /api/tables/{t}/board, the results board's own source), with
// GLI-19 §4.18.2(b)'s caution that past results do not predict future ones.
import { t } from "/static/i18n.js";
import { api, el } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const ROAD = 16; // beads shown: the newest last

const pct = (n, of) => (of ? `${Math.round((100 * n) / of)}%` : "—");

function bead(r) {
  const kind = r.triple ? "triple" : r.big ? "big" : "small";
  const mark = r.triple ? "T" : r.big ? "B" : "S";
  return el("li", {
    class: `bead ${kind}${r.corrected ? " corrected" : ""}`,
    "data-round": r.round,
    title: `round ${r.round}: ${(r.dice || []).join(" ")} = ${r.total}${r.triple ? " · triple" : ""}`,
  }, el("span", { class: "bead-total" }, String(r.total)), el("span", { class: "bead-mark" }, mark));
}

function stat(label, value, of, key) {
  const width = of ? Math.min(100, (100 * value) / of) : 0;
  return el("div", { class: "stat", "data-key": key },
    el("span", { class: "stat-label" }, label),
    el("span", { class: "stat-track" }, el("span", { class: `stat-fill ${key}`, style: `width:${width}%` })),
    el("span", { class: "stat-value" }, pct(value, of)));
}

/** Draw the board's statistics (its `stats` part) into the side panel. */
export function renderRoad(stats) {
  const results = stats.results || [];
  const n = results.length;
  const road = $("road");
  road.replaceChildren(...results.slice(-ROAD).map(bead));
  $("road-empty").hidden = n > 0;
  $("stats-over").textContent = n ? t(n === 1 ? "play.road.last-one" : "play.road.last-many", { n }) : "";
  $("road-stats").replaceChildren(...(n ? [
    stat(t("bet.big"), stats.big, n, "big"),
    stat(t("bet.small"), stats.small, n, "small"),
    stat(t("bet.odd"), stats.odd, n, "odd"),
    stat(t("bet.even"), stats.even, n, "even"),
    stat(t("play.road.triple"), stats.triples, n, "triple"),
  ] : []));
}

let shownRound = null;

/** Read the board again when the table has a result the road does not show yet. */
export async function refreshRoad(table, lastRound, force = false) {
  if (!force && lastRound === shownRound) return;
  try {
    const board = await api("GET", `/api/tables/${encodeURIComponent(table)}/board`);
    renderRoad(board.stats || {});
    const newest = (board.stats && board.stats.results || []).at(-1);
    // A board service a result behind: read it again at the next change.
    shownRound = newest && newest.round === lastRound ? lastRound : null;
  } catch {
    shownRound = null; // the road stays as it was; the next change reads it again
  }
}
