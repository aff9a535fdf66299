// Drawing the terminal from its state: the status bar, the round's line, and the desk's buttons
// on or off; the countdown and the idle lock's clock.
import { clock, el, secondsLeft } from "/static/common.js";
import { kindLinesText, limitsText, when } from "/static/signs.js";
import { settleControl, showControl } from "/static/terminal-control.js";
import { prefill } from "/static/terminal-forms.js";
import { showStartWays } from "/static/terminal-round.js";
import { settleEntry, showEntry } from "/static/terminal-keypad.js";
import { lockIfIdle } from "/static/terminal-session.js";
import { showSupervisor } from "/static/terminal-supervisor.js";
import { $, byOf, desk, diceOf, setText, state, table } from "/static/terminal-state.js";

function diceNodes(dice) {
  const nodes = [];
  dice.forEach((d, i) => {
    if (i) nodes.push(" ");
    nodes.push(el("span", { class: "die-chip" }, d));
  });
  nodes.push(" ", el("span", { class: "dice-total" }, `(${dice.reduce((a, b) => a + b, 0)})`));
  return nodes;
}


function describe(value) {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) return value.map(describe).join(", ");
  return value.detail || value.reason || (value.equipment && describe(value.equipment))
    || JSON.stringify(value);
}

function showSuspended(view) {
  // The suspended banner is in the DOM only while the table is suspended.
  let banner = $("suspended");
  if (view && view.suspended) {
    const s = view.suspended;
    const text = ["Table suspended", s.since ? `since ${clock(s.since)}` : "",
      describe(s.equipment) ? `— ${describe(s.equipment)}` : "", s.round ? `— round ${s.round}` : "",
      s.policy ? `(${s.policy})` : "", "— no further play until an inspector clears the fault (000 §7.7)"]
      .filter(Boolean).join(" ");
    if (!banner) {
      banner = el("div", { id: "suspended", class: "suspended banner", role: "alert" });
      $("status-bar").append(banner);
    }
    setText(banner, text);
  } else if (banner) {
    banner.remove();
  }
}

/** The round's line: what the status bar has no place for. */
function roundInfo(view, r, result) {
  const info = [];
  if (state.viewError) info.push(state.viewError);
  if (view && view.status && view.status !== "open") info.push(`Table ${view.status}.`);
  if (r) {
    info.push(`Tumbles ${r.tumbles}`);
    const entered = diceOf(r.entered);
    if (entered && !result) info.push(`Entered ${entered.join(" ")}${byOf(r) ? ` by ${byOf(r)}` : ""}, not confirmed`);
    if (r.held) info.push("Result HELD: reader and entry disagree — a supervisor resolves it");
    if (r.ended_by && r.ended_by !== "result-confirmed") info.push(`Ended by ${r.ended_by}`);
    if (r.corrections) info.push(`${r.corrections} correction${r.corrections === 1 ? "" : "s"}`);
  }
  if (view && view.last_result && (!r || view.last_result.round !== r.number)) {
    info.push(`Last: round ${view.last_result.round} · ${view.last_result.dice.join(" ")} (${view.last_result.total})`);
  }
  if (view && view.fault) info.push(`Fault: ${describe(view.fault)}`);
  if (view && view.closing_notice) {
    const cn = view.closing_notice;
    info.push(`Closing at ${when(typeof cn === "string" ? cn : cn.close_at)}`);
  }
  for (const n of (view && view.limits_notices) || []) info.push(`New limits ${limitsText(n.limits)} from ${when(n.effective_at)}`);
  if (view && view.second_person_confirmation) info.push("Second-person confirmation");
  return info.join(" · ");
}

export function update() {
  const { view } = state;
  const r = view ? view.round : null;
  setText($("table-name"), table || "?");
  setText($("round-no"), r ? r.number : "—");
  setText($("phase"), r ? r.phase : "no round");
  $("phase").dataset.phase = r ? r.phase : "none";

  const timed = !!view && (view.betting_seconds != null || view.profile === "online-live");
  $("countdown-box").hidden = !timed;
  tick();

  const result = diceOf(r && r.result);
  const resultKey = result ? result.join(",") : "";
  const resultBox = $("result");
  if (resultBox.dataset.key !== resultKey) {
    resultBox.dataset.key = resultKey;
    if (result) resultBox.replaceChildren(...diceNodes(result));
    else resultBox.replaceChildren("—");
  }
  setText($("limits"), view ? [limitsText(view.limits), ...kindLinesText(view)].join(" · ") : "—");
  showSuspended(view);
  setText($("round-info"), roundInfo(view, r, result));

  if (!state.session) return;
  settleControl();
  settleEntry(r);
  for (const [button, enabled] of desk.gates) {
    let on = false;
    try { on = !state.busy && !!state.view && !!enabled(); } catch { on = false; }
    button.disabled = !on;
  }
  showEntry(r, result);
  showStartWays();
  showSupervisor(r);
  showControl();
  prefill($("desk"));
}

export function tick() {
  const r = state.view && state.view.round;
  const deadline = r && r.phase === "betting-open" ? r.closes_at : null;
  const left = deadline ? secondsLeft(deadline, state.skew) : null;
  const box = $("countdown");
  setText(box, left === null ? "—" : left);
  box.classList.toggle("urgent", left !== null && left <= 3);
  lockIfIdle();
}
