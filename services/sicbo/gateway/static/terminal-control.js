// The demo take-over control: who plays the table, the demo dealer or a person, and the buttons
// that take it over and hand it back.
import { api, el, latestOnly } from "/static/common.js";
import { t } from "/static/i18n.js";
import { handleError } from "/static/terminal-session.js";
import { desk, gate, page, setText, state, table, takenOver, tableApi } from "/static/terminal-state.js";

// Who plays the table is the floor's to say (GET /control), not this page's memory: a reload, or
// a second terminal or operator, reads the same answer. It is read with the table (on load, on
// every change and every RESYNC_MS), after sign-in, and after take over / hand back. The three
// answer in turn: the newest wins.
const askControl = latestOnly((method, path) => api(method, `${tableApi}/${path}`));

export function buildControl() {
  const { ui } = desk;
  ui.controlStatus = el("span", { id: "control-status", class: "control-status", role: "status" },
    t("term.control.checking"));
  const takeover = gate(el("button", { type: "button", id: "takeover", onclick: takeOver }, t("term.control.takeover")),
    () => !takenOver());
  const release = gate(el("button", { type: "button", id: "release", onclick: release_ }, t("term.control.release")),
    () => state.control?.status !== "demo");
  ui.control = el("section", { id: "control", class: "panel control", "aria-label": t("term.control.label") },
    takeover, release, ui.controlStatus);
  return ui.control;
}

/** Take the floor's answer {status, round, by}: demo, after-round, yours or none. */
function setControl(answer) {
  if (answer.status === "released") state.control = { status: "demo", round: null, by: null };
  else state.control = { status: answer.status, round: answer.round ?? null, by: answer.by ?? null };
  state.controlError = null;
  settleControl();
}

export async function loadControl() {
  if (!table) return;
  const read = await askControl("GET", "control");
  if (!read.show()) return; // a later read, take over or hand back answered already
  // 404: the table was never opened, which the table's read says already.
  if (read.error) state.controlError = read.error.status === 404 ? null : read.error.message;
  else setControl(read.answer);
  page.update();
}

/** POST /takeover or /release; their answer is the floor's word as of then, read again after. */
async function changeControl(path) {
  const done = await askControl("POST", path);
  if (done.error) {
    handleError(done.error);
  } else {
    const { answer } = done;
    if (done.show()) setControl(path === "takeover" && !answer.by ? { ...answer, by: state.session?.operator } : answer);
    page.update();
  }
  loadControl();
}

function takeOver() {
  return changeControl("takeover");
}

function release_() {
  return changeControl("release");
}

/** After a takeover: the table is the person's once the demo dealer's round is completed. */
export function settleControl() {
  const { control, view } = state;
  if (!control || control.status !== "after-round" || control.round == null) return;
  const r = view && view.round;
  if (r && (r.number > control.round || (r.number === control.round && r.phase === "completed"))) {
    state.control = { ...control, status: "yours" };
  }
}

/** Why the round's buttons wait, for the keypad's line. */
export function waitingFor() {
  const { control } = state;
  if (!control) return state.controlError ? t("term.control.unknown") : t("term.control.checking-short");
  if (control.status === "demo") return t("term.control.demo-first");
  return t("term.control.finishing", { n: control.round ?? "" });
}

export function showControl() {
  const { ui } = desk;
  const { control, controlError } = state;
  if (!ui.controlStatus) return;
  ui.control.hidden = control?.status === "none"; // a real floor: no demo dealer to take over from
  const mine = !control?.by || control.by === state.session?.operator;
  const by = control?.by ? t("term.control.by", { by: control.by }) : "";
  let text;
  if (!control) {
    text = controlError ? t("term.control.unknown-why", { why: controlError }) : t("term.control.checking");
  } else if (control.status === "demo") {
    text = t("term.control.demo");
  } else if (control.status === "after-round") {
    const wait = t(mine ? "term.control.after-yours" : "term.control.after-theirs", { n: control.round ?? "" });
    text = by && !mine ? `${by}: ${wait}` : wait;
  } else if (control.status === "yours") {
    text = mine ? (by ? `${by}: ${t("term.control.yours")}` : t("term.control.yours")) : by;
  } else {
    text = "";
  }
  setText(ui.controlStatus, text);
  ui.controlStatus.dataset.status = control ? control.status : "unknown";
}
