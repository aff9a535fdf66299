// /tables/{t}/board: the statistics board of the last 50 results (004) and the recall of the
// last 10 rounds (AGCO 13.1), from GET /api/tables/{t}/board. Past results only.

import { api, el, hiddenText, money, notice, offerPlay, tableId, throttled, watch } from "/static/common.js";
import { diceFaces } from "/static/layout.js";

const table = tableId();
const enc = encodeURIComponent(table || "");
const $ = (id) => document.getElementById(id);

let shown = { stats: null, recall: null }; // the as_of of what is on screen

$("link-layout").href = `/tables/${enc}/layout`;
offerPlay($("link-play"), table);
$("link-display").href = `/tables/${enc}/display`;
if (table) {
  $("title").textContent = `Sic Bo — ${table} · board`;
  document.title = `Sic Bo — ${table} — board`;
}

const sum = (dice) => (dice || []).reduce((a, b) => a + b, 0);
const pct = (n, of) => (of ? `${Math.round((100 * n) / of)}%` : "—");
// The log's own terms (no-result, dice-not-flat, ...): the words a dispute will quote.
const words = (s) => String(s ?? "");

function when(text) {
  if (!text) return "";
  const t = new Date(text);
  return Number.isNaN(t.getTime()) ? String(text) : t.toLocaleString();
}

function actorText(actor) {
  if (!actor) return "";
  return typeof actor === "string" ? actor : `${actor.id}${actor.role ? ` (${actor.role})` : ""}`;
}

/** A dict keyed by number (JSON keys are strings): its value for n, 0 when absent. */
function at(map, n) {
  if (!map) return 0;
  return Number(map[n] ?? map[String(n)] ?? 0);
}

// ---- the road -------------------------------------------------------------------------------

function renderRoad(stats) {
  const road = $("results");
  const results = stats.results || [];
  $("results-count").textContent = results.length
    ? `${results.length} result${results.length === 1 ? "" : "s"} (of the last ${stats.limit}), oldest first`
    : "";
  road.replaceChildren();
  if (!results.length) {
    road.append(el("p", { class: "muted" }, "No result yet at this table."));
    return;
  }
  results.forEach((r, i) => {
    const kind = r.triple ? "triple" : r.big ? "big" : r.small ? "small" : "other";
    const marks = [];
    if (r.big) marks.push(el("span", { class: "mk big", title: "big" }, "B"));
    if (r.small) marks.push(el("span", { class: "mk small", title: "small" }, "S"));
    if (r.triple) marks.push(el("span", { class: "mk triple", title: "triple" }, "T"));
    if (r.odd) marks.push(el("span", { class: "mk odd", title: "odd" }, "O"));
    if (r.even) marks.push(el("span", { class: "mk even", title: "even" }, "E"));
    if (r.corrected) marks.push(el("span", { class: "mk corrected", title: "corrected by a supervisor" }, "✎"));
    const flags = [r.big && "big", r.small && "small", r.triple && "triple", r.odd && "odd", r.even && "even",
      r.corrected && "corrected"].filter(Boolean);
    road.append(el("div", {
      class: `bead ${kind}${r.corrected ? " corrected" : ""}${i === results.length - 1 ? " latest" : ""}`,
      role: "listitem",
      "data-round": r.round,
      title: `round ${r.round}: ${(r.dice || []).join(" ")} = ${r.total}${flags.length ? ` · ${flags.join(", ")}` : ""}`,
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
    n ? `Counted over the last ${n} result${n === 1 ? "" : "s"}; void rounds are not counted.` : "No result yet."));

  box.append(el("div", { class: "counts", id: "stats-counts" },
    bar("Big", stats.big, n, "big"),
    bar("Small", stats.small, n, "small"),
    bar("Odd", stats.odd, n, "odd"),
    bar("Even", stats.even, n, "even"),
    bar("Triples", stats.triples, n, "triple")));

  const totals = [];
  for (let t = 3; t <= 18; t++) totals.push([t, at(stats.totals, t)]);
  const most = Math.max(1, ...totals.map(([, c]) => c));
  box.append(el("h3", {}, "Totals"), el("div", { class: "histogram", id: "stats-totals", role: "list" },
    totals.map(([t, c]) => el("div", { class: "col", role: "listitem", "data-total": t, title: `total ${t}: ${c}` },
      el("span", { class: "col-count" }, String(c)),
      el("span", { class: "col-bar", style: `height:${(100 * c) / most}%` }),
      el("span", { class: "col-label" }, String(t))))));

  const dice = n * 3;
  const faces = [];
  for (let f = 1; f <= 6; f++) faces.push([f, at(stats.faces, f)]);
  box.append(el("h3", {}, "Faces"), el("div", { class: "faces", id: "stats-faces" },
    faces.map(([f, c]) => {
      const row = bar("", c, dice, `face-${f}`);
      row.querySelector(".hbar-label").append(diceFaces([f]));
      return row;
    })));

  const voids = stats.voids || [];
  box.append(el("h3", {}, "Void rounds ", el("small", { class: "muted" }, "(listed apart, not counted)")));
  box.append(voids.length
    ? el("ul", { class: "voids", id: "voids" }, voids.map((v) => el("li", { "data-round": v.round },
      el("a", { href: `/tables/${enc}/rounds/${v.round}` }, `Round ${v.round}`),
      ` — ${words(v.basis)}: ${words(v.reason)}`)))
    : el("p", { class: "muted", id: "voids" }, "None."));
}

// ---- recall ---------------------------------------------------------------------------------

function outcomeCell(recorded, final) {
  if (!recorded && !final) return el("td", { class: "muted" }, "not settled");
  if (final && recorded && final !== recorded) {
    return el("td", { class: `outcome-${final}` }, `${recorded} → ${final}`);
  }
  return el("td", { class: `outcome-${final || recorded}` }, final || recorded);
}

function moneyCell(recorded, final) {
  if (recorded === null || recorded === undefined) {
    return el("td", { class: "num muted" }, final === null || final === undefined ? "—" : money(final));
  }
  if (final !== null && final !== undefined && final !== recorded) {
    return el("td", { class: "num" }, `${money(recorded)} → ${money(final)}`);
  }
  return el("td", { class: "num" }, money(recorded));
}

function dl(pairs) {
  const list = el("dl", { class: "facts" });
  for (const [k, v] of pairs) {
    if (v === null || v === undefined || v === "") continue;
    list.append(el("dt", {}, k), el("dd", {}, v));
  }
  return list;
}

function diceWithTotal(dice) {
  return dice ? el("span", { class: "dice-total" }, diceFaces(dice), ` = ${sum(dice)}`) : null;
}

function renderRound(r) {
  const dispute = `/tables/${enc}/rounds/${r.round}`;
  const changed = r.final_dice && r.dice && r.final_dice.join() !== r.dice.join();
  const summary = el("summary", {},
    el("span", { class: "r-no" }, `Round ${r.round}`),
    el("span", { class: `basis basis-${r.basis}` }, words(r.basis)),
    r.final_dice || r.dice ? diceWithTotal(r.final_dice || r.dice) : null,
    changed ? el("span", { class: "mk corrected", title: "corrected" }, "✎") : null,
    r.staked !== null && r.staked !== undefined
      ? el("span", { class: "r-money muted" }, `staked ${money(r.staked)} · returned ${money(r.returned ?? 0)}`)
      : el("span", { class: "r-money muted" }, "not settled"),
    el("a", { class: "dispute-link", href: dispute }, "dispute view →"));

  const body = el("div", { class: "round-body" });
  body.append(dl([
    ["Basis", words(r.basis)],
    ["Paytable", r.paytable],
    ["Started", when(r.started_at)],
    ["Dice", diceWithTotal(r.dice)],
    ["Confirmed", when(r.confirmed_at)],
    ["Final dice", r.final_dice ? el("span", {}, diceWithTotal(r.final_dice), changed ? " (corrected)" : "") : null],
    ["Staked", r.staked === null || r.staked === undefined ? null : money(r.staked)],
    ["Returned", r.returned === null || r.returned === undefined ? null : money(r.returned)],
    ["House result", r.house_result === null || r.house_result === undefined ? null : money(r.house_result)],
    ["Settled", r.settled ? "yes" : "no"],
    ["Completed", r.completed ? "yes (every winner paid)" : "no"],
  ]));

  if (r.void) {
    const v = r.void;
    body.append(el("h4", {}, "Void"), dl([
      ["Basis", words(v.basis)],
      ["Reason", words(v.reason)],
      ["Detail", v.detail],
      ["Consequence", v.consequence ? words(v.consequence) : null],
      ["Forfeits", v.forfeits && v.forfeits.length ? v.forfeits.join(", ") : null],
      ["By", actorText(v.actor)],
      ["At", when(v.at)],
    ]));
  }

  if (r.corrections && r.corrections.length) {
    body.append(el("h4", {}, "Corrections"), el("ul", { class: "plain" }, r.corrections.map((c) =>
      el("li", {}, `#${c.seq}: `, diceFaces(c.before), " → ", diceFaces(c.after),
        ` — ${c.reason} · ${actorText(c.actor)} · ${when(c.at)}`))));
  }
  if (r.adjustments && r.adjustments.length) {
    body.append(el("h4", {}, "Settlement adjustments"), el("ul", { class: "plain" }, r.adjustments.map((a) =>
      el("li", {}, `correction #${a.correction_seq}: ${(a.before || []).join(" ")} → ${(a.after || []).join(" ")},`
        + ` ${a.wagers ? a.wagers.length : 0} wager(s), change ${money(a.delta)}`))));
  }
  if (r.refund) {
    body.append(el("h4", {}, "Refund"), el("p", {},
      `Cancelled after the result (#${r.refund.cancel_seq}): ${r.refund.reason}; ${r.refund.wagers ? r.refund.wagers.length : 0}`
      + ` wager(s) refunded, change ${money(r.refund.delta)}`));
  }

  const wagers = r.wagers || [];
  const hidden = hiddenText(r.hidden);
  body.append(el("h4", {}, `Wagers (${wagers.length + (r.hidden ? r.hidden.wagers : 0)})`));
  if (wagers.length) {
    body.append(el("div", { class: "scroll-x" }, el("table", { class: "data wagers" },
      el("thead", {}, el("tr", {}, el("th", {}, "Player"), el("th", {}, "Bet"), el("th", { class: "num" }, "Stake"),
        el("th", {}, "Outcome"), el("th", { class: "num" }, "Returned"), el("th", {}, "Slip"))),
      el("tbody", {}, wagers.map((w) => el("tr", {},
        el("td", {}, w.player),
        el("td", {}, w.bet, w.medium && w.medium !== "chips" ? el("small", { class: "muted" }, ` ${w.medium}`) : null,
          w.carried_in ? el("small", { class: "muted" }, " carried in") : null),
        el("td", { class: "num" }, money(w.stake)),
        outcomeCell(w.outcome, w.final_outcome),
        moneyCell(w.returned, w.final_returned),
        el("td", { class: "muted slip-id" }, `${w.slip_id}#${w.index}`)))))));
  } else if (!hidden) {
    body.append(el("p", { class: "muted" }, "No wager stood in this round."));
  }
  if (hidden) body.append(el("p", { class: "muted hidden-wagers" }, hidden));
  return el("details", { class: "round", "data-round": r.round }, summary, body);
}

function renderRecall(recall) {
  const box = $("recall");
  const open = new Set([...box.querySelectorAll("details[open]")].map((d) => d.dataset.round));
  const rounds = [...(recall.rounds || [])].reverse(); // newest first
  box.replaceChildren();
  if (!rounds.length) {
    box.append(el("p", { class: "muted" }, "No round has finished yet."));
    return;
  }
  box.append(el("p", { class: "muted" }, `The last ${rounds.length} round${rounds.length === 1 ? "" : "s"} with an outcome, newest first.`));
  for (const r of rounds) {
    const node = renderRound(r);
    if (open.has(String(r.round))) node.open = true;
    box.append(node);
  }
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
      renderRecall(board.recall);
      shown.recall = board.recall.as_of;
    }
  } catch (err) {
    notice(err.status === 404 ? `Table ${table} is not open` : `Board: ${err.message}`, "error");
  }
}

if (!table) {
  notice("No table in the address", "error");
} else {
  const soon = throttled(refresh, 1000);
  refresh();
  watch(table, (change) => {
    if (!change && Date.now() - loadedAt < 2000) return; // the first connect: just loaded
    soon();
  });
}
