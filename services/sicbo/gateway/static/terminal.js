// The dealer terminal of one table: sign-in, the round's buttons in the order of play, the dice
// keypad (000 §2.6, §5.3-5.4), "no result", supervisor and inspector actions, and the idle lock
// (GLI-19 §C.6.5). The gateway stamps every command's table and actor; the page never does.
// This file wires the terminal-*.js modules together; terminal-state.js holds what they share.
import * as common from "/static/common.js";
import { buildControl, loadControl } from "/static/terminal-control.js";
import { loadView } from "/static/terminal-gateway.js";
import { buildKeypad, onKey } from "/static/terminal-keypad.js";
import { MANUAL_TAGS, buildManual } from "/static/terminal-manual.js";
import { PLAY_TAGS, ROUND_BUTTONS, buildMalfunction, buildNoResult, buildRoundButtons } from "/static/terminal-round.js";
import { loadSession, noteInput, signIn, signOut, unlock } from "/static/terminal-session.js";
import { SLIP_TAG, buildSlips } from "/static/terminal-slips.js";
import { languageSwitch, t } from "/static/i18n.js";
import { $, desk, deskKey, flash, page, state, table } from "/static/terminal-state.js";
import { SUPERVISOR_TAGS, buildInspector, buildSupervisor } from "/static/terminal-supervisor.js";
import { tick, update } from "/static/terminal-view.js";

const { el, notice, watch } = common;
/** Timer-based coalescing where common.js has it (it also runs in a background tab). */
const coalesce = common.throttled ? (fn) => common.throttled(fn, 150) : common.debounced;

const base = table ? `/tables/${encodeURIComponent(table)}` : "";

/** The desk for the session's actions: only the parts the role may use. */
function buildDesk() {
  const { actions } = state;
  desk.builtFor = deskKey(actions);
  desk.gates.length = 0;
  for (const k of Object.keys(desk.ui)) delete desk.ui[k];
  const parts = [];
  if (PLAY_TAGS.some((tag) => actions.has(tag))) parts.push(buildControl());
  if (ROUND_BUTTONS.some((b) => actions.has(b.tag))) parts.push(buildRoundButtons());
  if (actions.has("dice.enter.v1") || actions.has("dice.confirm.v1")) parts.push(buildKeypad());
  if (actions.has(SLIP_TAG)) parts.push(buildSlips());
  if (actions.has("round.declare-no-result.v1")) parts.push(buildNoResult());
  if (actions.has("table.report-malfunction.v1")) parts.push(buildMalfunction());
  if (SUPERVISOR_TAGS.some((tag) => actions.has(tag))) parts.push(buildSupervisor());
  if (MANUAL_TAGS.some((tag) => actions.has(tag))) parts.push(buildManual());
  if (actions.has("table.clear-fault.v1")) parts.push(buildInspector());
  if (!parts.length) parts.push(el("p", { class: "muted" }, t("term.no-actions")));
  $("desk").replaceChildren(...parts);
}

page.update = update;
page.signedIn = () => {
  if (desk.builtFor !== deskKey(state.actions)) buildDesk();
  $("desk").hidden = false;
  update();
  loadControl();
};

function start() {
  if (table) {
    document.title = t("term.doc-title", { table });
    $("table-links").append(
      el("a", { href: `${base}/layout` }, t("common.layout")),
      el("a", { href: `${base}/board` }, t("common.board")),
      el("a", { href: `${base}/display` }, t("layout-page.display")));
  } else {
    flash(t("term.no-table"), "error");
  }
  $("notice").addEventListener("click", () => notice(""));
  $("notice").title = t("term.dismiss");
  languageSwitch();
  $("signin-form").addEventListener("submit", signIn);
  $("signout").addEventListener("click", signOut);
  $("unlock-form").addEventListener("submit", unlock);
  $("lock-signout").addEventListener("click", signOut);
  for (const type of ["pointerdown", "pointermove", "touchstart", "wheel"]) {
    document.addEventListener(type, noteInput, { capture: true, passive: true });
  }
  document.addEventListener("keydown", onKey, { capture: false });
  update();
  loadSession();
  if (table) {
    loadView();
    watch(table, coalesce(loadView));
  }
  setInterval(tick, 250);
}

start();
