// The play page's round: its number and phase, the countdown, the last result, the winning
// spots lit and the table's manual mode (GLI-19 §C.6.8(o)), from the TableView.
import { clock, el, secondsLeft } from "/static/common.js";
import { diceFaces, lightSpots } from "/static/layout.js";
import { renderSigns } from "/static/signs.js";

const $ = (id) => document.getElementById(id);

function phaseOpen(view) {
  return Boolean(view && view.round && view.round.phase === "betting-open");
}

export function showView(view, skew, player = null) {
  const round = view.round;
  $("round-no").textContent = round ? String(round.number) : `${view.next_round ?? "—"} (next)`;
  const phase = $("phase");
  let text = round ? round.phase : "waiting for the next round";
  if (view.suspended) text += " · table suspended";
  if (round && round.held) text += " · held";
  phase.textContent = text;
  phase.classList.toggle("open", phaseOpen(view));
  phase.classList.toggle("closed", !phaseOpen(view));
  const last = view.last_result;
  const lr = $("last-result");
  lr.replaceChildren();
  if (last && last.dice) {
    lr.append(`Last result: round ${last.round}`, diceFaces(last.dice), el("strong", {}, `= ${last.total}`));
  }
  renderSigns($("signs"), view, player);
  showManualMode(view);
  showLit(view);
  tick(view, skew);
}

/** GLI-19 §C.6.8(o): while a supervisor enters a correction by hand, the players see it. */
export function showManualMode(view) {
  const box = $("manual-mode");
  const manual = view && view.manual_mode;
  box.hidden = !manual;
  if (!manual) return;
  const waiting = (view.proposals || []).map((p) => `round ${p.round}`).join(", ");
  box.replaceChildren(
    el("strong", {}, "Manual mode"),
    ` since ${clock(manual.since)}: a supervisor is correcting a result by hand (${manual.reason}).`,
    waiting ? ` Waiting for a second supervisor: ${waiting}.` : "",
  );
}

/** Light the winning spots once the current round has its result (off while betting). */
export function showLit(view) {
  const lit = view && view.lit;
  const current = view && view.round ? view.round.number : null;
  lightSpots($("layout"), lit && lit.round === current ? lit.spots : []);
}

export function tick(view, skew) {
  const out = $("countdown");
  if (!view) return;
  if (!phaseOpen(view)) {
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
