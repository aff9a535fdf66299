// Drawing the terminal from its state: the status bar, the round's line, and the desk's buttons
// on or off; the countdown and the idle lock's clock.
import { clock, el, secondsLeft } from "/static/common.js";
import { kindLinesText, limitsText, when } from "/static/signs.js";
import { t } from "/static/i18n.js";
import { faultText } from "/static/layout.js";
import { equipmentWords, phaseWords } from "/static/phases.js";
import { settleControl, showControl, waitingFor } from "/static/terminal-control.js";
import { prefill } from "/static/terminal-forms.js";
import { showStartWays } from "/static/terminal-round.js";
import { settleEntry, showEntry } from "/static/terminal-keypad.js";
import { lockIfIdle } from "/static/terminal-session.js";
import { showSlips } from "/static/terminal-slips.js";
import { showSupervisor } from "/static/terminal-supervisor.js";
import { $, byOf, demoPlays, desk, diceOf, setText, showWhy, state, table } from "/static/terminal-state.js";

function diceNodes(dice) {
  const nodes = [];
  dice.forEach((d, i) => {
    if (i) nodes.push(" ");
    nodes.push(el("span", { class: "die-chip" }, d));
  });
  nodes.push(" ", el("span", { class: "dice-total" }, `(${dice.reduce((a, b) => a + b, 0)})`));
  return nodes;
}

function showSuspended(view) {
  // The suspended banner is in the DOM only while the table is suspended.
  let banner = $("suspended");
  if (view && view.suspended) {
    const s = view.suspended;
    const text = [t("term.suspended"), s.since ? t("floor.since", { at: clock(s.since) }) : "",
      equipmentWords(s.equipment) ? `— ${equipmentWords(s.equipment)}` : "", s.round ? `— ${t("term.round-n", { n: s.round })}` : "",
      `— ${t("term.no-play")}`]
      .filter(Boolean).join(" ");
    if (!banner) {
      banner = el("div", { id: "suspended", class: "suspended banner", role: "alert" });
      $("status-bar").append(banner);
    }
    setText(banner, text);
    banner.title = `000 §7.7${s.policy ? ` · policy ${s.policy}` : ""}`;
  } else if (banner) {
    banner.remove();
  }
}

/** The round's line: what the status bar has no place for. */
function roundInfo(view, r, result) {
  const info = [];
  if (state.viewError) info.push(state.viewError);
  if (view && view.status && view.status !== "open") info.push(view.status === "closed" ? t("term.table-closed") : t("term.table-status", { status: view.status }));
  if (r) {
    info.push(t("term.tumbles-n", { n: r.tumbles }));
    const entered = diceOf(r.entered);
    if (entered && !result) info.push(byOf(r) ? t("term.entered-by", { dice: entered.join(" "), by: byOf(r) }) : t("term.entered", { dice: entered.join(" ") }));
    if (r.held) info.push(t("term.held"));
    if (r.ended_by && r.ended_by !== "result-confirmed") info.push(t("term.ended", { how: phaseWords(r.ended_by) }));
    if (r.corrections) info.push(t(r.corrections === 1 ? "term.correction-one" : "term.correction-many", { n: r.corrections }));
  }
  if (view && view.last_result && (!r || view.last_result.round !== r.number)) {
    info.push(t("term.last", { n: view.last_result.round, dice: view.last_result.dice.join(" "), total: view.last_result.total }));
  }
  if (view && view.fault) info.push(t("floor.fault", { what: faultText(view) }));
  if (view && view.closing_notice) {
    const cn = view.closing_notice;
    info.push(t("floor.closing", { at: when(typeof cn === "string" ? cn : cn.close_at) }));
  }
  for (const n of (view && view.limits_notices) || []) info.push(t("sign.new-limits", { limits: limitsText(n.limits), at: when(n.effective_at) }));
  if (view && view.second_person_confirmation) info.push(t("floor.second-person"));
  return info.join(" · ");
}

export function update() {
  const { view } = state;
  const r = view ? view.round : null;
  setText($("table-name"), table || "?");
  setText($("round-no"), r ? r.number : "—");
  setText($("phase"), phaseWords(r ? r.phase : "none"));
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
  for (const g of desk.gates) {
    if (state.busy) { g.button.disabled = true; continue; } // a moment: the reasons stay as they were
    const why = whyOff(g);
    g.button.disabled = why !== "";
    showWhy(g.button, why);
  }
  showEntry(r, result);
  showSlips();
  showStartWays();
  showSupervisor(r);
  showControl();
  prefill($("desk"));
}

/** Why a gated button is off now, in words; "" when it is on. */
function whyOff({ enabled, why, play }) {
  if (!state.view) return t("term.why.unread");
  if (play && demoPlays()) return t("term.why.waits", { what: waitingFor() });
  let on = false;
  try { on = !!enabled(); } catch { on = false; }
  if (on) return "";
  let text = "";
  try { text = why ? why() : ""; } catch { text = ""; }
  return text || t("term.why.not-now");
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
