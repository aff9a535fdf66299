// The play page's result moment: the last round's dice, its winning spots lit and what the
// player's own wagers in it returned ("You won 12.00" or "No win"), held on screen until the
// next round's betting opens.
import { t } from "/static/i18n.js";
import { el, money } from "/static/common.js";
import { diceFaces, lightSpots } from "/static/layout.js";

const $ = (id) => document.getElementById(id);

/** Whether the last result is still the moment to show: no later round has opened betting. */
export function resultHeld(view) {
  const last = view && view.last_result;
  if (!last) return false;
  const round = view.round;
  return !(round && round.number > last.round && round.phase === "betting-open");
}

/** What the player's wagers in round `n` returned, from the history; null if they had none. */
export function returnsIn(history, n) {
  let had = false;
  let settled = false;
  let won = 0;
  let returned = 0;
  for (const record of (history && history.slips) || []) {
    const rounds = record.rounds && record.rounds.length ? record.rounds : [record.round];
    if (!rounds.includes(n) || record.status === "withdrawn") continue;
    had = true;
    const byIndex = new Map(); // the wager's last word in round n: its result, then adjustments
    for (const s of record.settlements || []) {
      if (s.round !== n) continue;
      settled = true;
      for (const r of s.results || []) byIndex.set(r.index, r);
      for (const a of s.adjustments || []) if (a.after) byIndex.set(a.index, a.after);
    }
    for (const r of byIndex.values()) {
      returned += r.returned || 0;
      if (r.outcome === "win") won += r.returned || 0;
    }
  }
  return had ? { settled, won, returned } : null;
}

/** The win line for round `n`: "You won X", "No win", or nothing (no bets in it). */
function winLine(mine) {
  if (!mine) return el("p", { class: "win-line none", id: "win-line" }, t("play.win.none"));
  if (!mine.settled) return el("p", { class: "win-line settling", id: "win-line" }, t("play.win.settling"));
  if (mine.won > 0) {
    return el("p", { class: "win-line won", id: "win-line", "data-amount": mine.won },
      t("play.win.won"), " ", el("strong", { id: "win-amount" }, money(mine.won)));
  }
  const back = mine.returned > 0 ? ` · ${t("play.win.returned", { amount: money(mine.returned) })}` : "";
  return el("p", { class: "win-line lost", id: "win-line", "data-amount": 0 }, `${t("play.win.no")}${back}`);
}

/** Show (or put away) the result moment; lights its winning spots on the layout while held. */
export function showResult(view, history) {
  const box = $("result");
  const held = resultHeld(view);
  box.hidden = !held;
  $("last-result").hidden = held; // the same result, once is enough
  const layout = $("layout");
  if (!held) {
    lightSpots(layout, []);
    return;
  }
  const last = view.last_result;
  const lamps = view.lit && view.lit.round === last.round ? view.lit.spots : [];
  lightSpots(layout, view.last_winning && view.last_winning.length ? view.last_winning : lamps);
  box.dataset.round = String(last.round);
  box.replaceChildren(
    el("div", { class: "result-head" }, el("span", { class: "muted" }, t("play.round-n", { n: last.round }))),
    el("div", { class: "result-dice" }, diceFaces(last.dice), el("strong", { class: "result-total" }, String(last.total))),
    winLine(returnsIn(history, last.round)),
  );
}
