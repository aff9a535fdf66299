// The dealer terminal of one table: sign-in, the round's buttons in the order of play, the dice
// keypad (000 §2.6, §5.3-5.4), "no result", supervisor and inspector actions, and the idle lock
// (GLI-19 §C.6.5). The gateway stamps every command's table and actor; the page never does.
import * as common from "/static/common.js";
import { dieFace } from "/static/layout.js";

const { tableId, api, newCommandId, watch, clock, clockSkew, secondsLeft, money, el, notice, latestOnly } = common;
/** Timer-based coalescing where common.js has it (it also runs in a background tab). */
const coalesce = common.throttled ? (fn) => common.throttled(fn, 150) : common.debounced;

const table = tableId();
const $ = (id) => document.getElementById(id);
const base = table ? `/tables/${encodeURIComponent(table)}` : "";

// ---- what the terminal offers ------------------------------------------------------------------

/** The round's buttons, in the order of play, and the phase in which each is pressed. */
const ROUND_BUTTONS = [
  { tag: "round.start.v1", label: "Tumble", when: (r) => !r || r.phase === "completed" },
  { tag: "round.open-betting.v1", label: "Place your bets", when: (r) => r?.phase === "started" },
  { tag: "round.close-betting.v1", label: "No more bets", when: (r) => r?.phase === "betting-open" },
  { tag: "round.uncover.v1", label: "Uncover", when: (r) => r?.phase === "betting-closed" },
];
const IN_PLAY = new Set(["started", "betting-open", "betting-closed", "uncovered"]);
const ENDED = new Set(["completed", "no-result", "invalidated", "cancelled"]);
const MIN_TUMBLES = 3; // 000 §5.1

const NO_RESULT_REASONS = [
  ["dice-not-flat", "Dice not flat or stacked (000 §7.1)"],
  ["tumbler-fault", "Tumbler failed (000 §7.2)"],
  ["not-activated-properly", "Tumbler not activated properly (000 §7.3)"],
  ["dice-exposed-early", "Dice exposed before no more bets (000 §7.3)"],
  ["broken-dice", "Dice or tumbler broken (000 §7.4)"],
];
const INVALIDATION_REASONS = [
  ["civil-commotion", "Civil commotion"],
  ["fire", "Fire"],
  ["riot", "Riot"],
  ["brawl", "Brawl"],
  ["robbery", "Robbery"],
  ["act-of-god", "Act of God"],
  ["fraud", "Fraud (000 §8.4.2)"],
];
const SUPERVISOR_TAGS = [
  "round.invalidate.v1", "dice.correct.v1", "dice.resolve-held.v1", "round.cancel.v1",
  "table.change-limits.v1", "table.post-limits-notice.v1", "table.post-closing-notice.v1",
  "table.override-player-limits.v1", "table.close.v1",
];
const PLAY_TAGS = [...ROUND_BUTTONS.map((b) => b.tag), "dice.enter.v1", "dice.confirm.v1",
  "round.declare-no-result.v1"];

// ---- state --------------------------------------------------------------------------------------

let session = null; // {operator, role, actions, idle_lock_seconds}
let actions = new Set();
let builtFor = null; // the actions the desk was built for
let view = null; // the TableView
let viewError = null;
let skew = 0;
let skewKnown = false;
let busy = false;
let locked = false;
let lastInput = Date.now();
let pressed = []; // dice pressed on the keypad, in order
let pressedRound = null;
let control = null; // who plays the table, GET /control's answer {status, round, by}; null: not known yet
let noticeTimer = null;
const ui = {}; // controls of the desk, by name
const gates = []; // [button, () => enabled?] re-evaluated on every update

// ---- small helpers ------------------------------------------------------------------------------

function setText(node, text) {
  if (!node) return;
  const value = String(text);
  if (node.textContent !== value) node.textContent = value;
}

function diceOf(x) {
  if (!x) return null;
  if (Array.isArray(x)) return x;
  if (Array.isArray(x.dice)) return x.dice;
  return null;
}

function byOf(x) {
  return x && !Array.isArray(x) ? (x.by || x.entered_by || x.operator || null) : null;
}

function diceNodes(dice) {
  const nodes = [];
  dice.forEach((d, i) => {
    if (i) nodes.push(" ");
    nodes.push(el("span", { class: "die-chip" }, d));
  });
  nodes.push(" ", el("span", { class: "dice-total" }, `(${dice.reduce((a, b) => a + b, 0)})`));
  return nodes;
}

function when(iso) {
  if (!iso) return "";
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return String(iso);
  return t.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
}

function limitsText(limits) {
  if (!limits) return "—";
  const unit = limits.unit && limits.unit > 1 ? ` (steps ${money(limits.unit)})` : "";
  return `${money(limits.minimum)} – ${money(limits.maximum)}${unit}`;
}

function describe(value) {
  if (value === null || value === undefined) return "";
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) return value.map(describe).join(", ");
  return value.detail || value.reason || (value.equipment && describe(value.equipment))
    || JSON.stringify(value);
}

/** A datetime-local value (local time) for a moment minutes from now. */
function localInputValue(minutesAhead) {
  const t = new Date(Date.now() + skew + minutesAhead * 60_000);
  t.setSeconds(0, 0);
  const pad = (n) => String(n).padStart(2, "0");
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}`;
}

/** An ISO 8601 UTC time from a datetime-local value; null when empty or invalid. */
function isoFromLocal(value) {
  if (!value) return null;
  const t = new Date(value);
  return Number.isNaN(t.getTime()) ? null : t.toISOString();
}

function flash(text, kind) {
  clearTimeout(noticeTimer);
  notice(text, kind);
  if (kind === "ok") noticeTimer = setTimeout(() => notice(""), 2500);
}

function gate(button, enabled) {
  gates.push([button, enabled]);
  return button;
}

/**
 * A button of the round in play: also off while the demo dealer plays the table, or finishes
 * its round after a takeover (demoPlays). A command refused there (the round moved on under the
 * press) would stop the demo.
 */
function playGate(button, enabled) {
  return gate(button, () => !demoPlays() && enabled());
}

// ---- talking to the gateway ---------------------------------------------------------------------

function handleError(err) {
  if (err.status === 401 && err.code === "locked") {
    lock();
    flash(`${err.message} — nothing was sent; press the button again after unlocking`, "error");
  } else if (err.status === 401 && (err.code === "signed-out" || err.code === "bad-pin")) {
    signedOut(`Signed out: ${err.message}`);
  } else {
    flash(err.field ? `${err.message} (${err.field})` : err.message, "error");
  }
}

/** Send one command; resolves to the reply, or null after showing why it failed. Never retries. */
async function send(command) {
  if (busy) return null;
  const body = { ...command, command_id: newCommandId("term") };
  busy = true;
  update();
  try {
    const reply = await api("POST", `/api/tables/${encodeURIComponent(table)}/commands`, body);
    flash(reply && reply.duplicate ? "accepted (already applied)" : "accepted", "ok");
    return reply;
  } catch (err) {
    handleError(err);
    return null;
  } finally {
    busy = false;
    update();
    loadView();
  }
}

const readTable = latestOnly(() => api("GET", `/api/tables/${encodeURIComponent(table)}`));
async function loadView() {
  if (!table) return;
  loadControl(); // who plays the table, read with it
  const read = await readTable();
  if (read.error) {
    if (!read.show()) return;
    const err = read.error;
    if (err.status === 404) { view = null; viewError = `Table ${table} was never opened.`; }
    else viewError = `The table could not be read: ${err.message}`;
  } else {
    const answer = read.answer;
    // A replica that lags behind the one read before is not newer for being asked later.
    if (read.superseded() || (view && answer.as_of !== undefined && view.as_of !== undefined
      && answer.as_of < view.as_of)) return;
    read.show();
    view = answer;
    viewError = null;
    if (answer.server_time) { skew = clockSkew(answer.server_time); skewKnown = true; }
  }
  update();
  if (!skewKnown) readSkew();
}

/** TableView carries no server time: take the floor's, once, for the countdown. */
let skewAsked = false;
async function readSkew() {
  if (skewAsked) return;
  skewAsked = true;
  try {
    const floor = await api("GET", "/api/floor");
    if (!skewKnown && floor.server_time) { skew = clockSkew(floor.server_time); skewKnown = true; }
  } catch { /* the countdown then trusts the local clock */ }
}

// ---- session ------------------------------------------------------------------------------------

async function loadSession() {
  try {
    signedIn(await api("GET", "/api/session"));
  } catch (err) {
    const operator = sessionStorage.getItem("sicbo-operator");
    if (err.status === 401 && err.code === "locked" && operator) {
      session = { operator, role: sessionStorage.getItem("sicbo-role") || "", actions: [], idle_lock_seconds: 0 };
      lock();
    } else {
      signedOut(err.status === 401 ? "" : `Sign-in state unknown: ${err.message}`);
    }
  }
}

function signedIn(answer) {
  session = answer;
  actions = new Set(answer.actions || []);
  sessionStorage.setItem("sicbo-operator", answer.operator);
  sessionStorage.setItem("sicbo-role", answer.role || "");
  lastInput = Date.now();
  setText($("who"), `${answer.operator} (${answer.role})`);
  $("who").hidden = false;
  $("signout").hidden = false;
  $("signin").hidden = true;
  const key = [...actions].sort().join(" ");
  if (builtFor !== key) buildDesk();
  $("desk").hidden = false;
  unlockScreen();
  update();
  loadControl();
}

function signedOut(message) {
  session = null;
  actions = new Set();
  // control stays: signing out leaves a table taken over taken (the next operator here may
  // be the second person confirming); only "Hand back to demo" returns it.
  sessionStorage.removeItem("sicbo-operator");
  sessionStorage.removeItem("sicbo-role");
  builtFor = null;
  $("desk").replaceChildren();
  $("desk").hidden = true;
  $("who").hidden = true;
  $("signout").hidden = true;
  unlockScreen();
  $("signin").hidden = false;
  $("signin-pin").value = "";
  if (message) flash(message, "error");
  $("signin-operator").focus();
}

async function signIn(event) {
  event.preventDefault();
  const operator = $("signin-operator").value.trim();
  const pin = $("signin-pin").value;
  if (!operator || !pin) { flash("Enter your operator id and PIN.", "error"); return; }
  $("signin-submit").disabled = true;
  try {
    const answer = await api("POST", "/api/session", { operator, pin });
    notice("");
    signedIn(answer);
  } catch (err) {
    flash(err.code === "bad-pin" ? `${err.message || "wrong operator id or PIN"}` : err.message, "error");
  } finally {
    $("signin-submit").disabled = false;
    $("signin-pin").value = "";
  }
}

async function signOut() {
  try {
    await api("DELETE", "/api/session");
    signedOut("");
    flash(takenOver()
      ? "Signed out. The table stays taken over: \"Hand back to demo\" returns it to the demo dealer."
      : "Signed out.", "info");
  } catch (err) {
    flash(`Sign-out failed: ${err.message}`, "error");
  }
}

// ---- idle lock (GLI-19 §C.6.5) ------------------------------------------------------------------

function lock() {
  if (!session) return;
  locked = true;
  setText($("lock-who"), `${session.operator}${session.role ? ` (${session.role})` : ""}: enter your PIN to go on.`);
  $("unlock-error").hidden = true;
  $("unlock-pin").value = "";
  $("app").inert = true;
  $("lock-screen").hidden = false;
  $("unlock-pin").focus();
}

function unlockScreen() {
  locked = false;
  $("lock-screen").hidden = true;
  $("app").inert = false;
}

async function unlock(event) {
  event.preventDefault();
  const pin = $("unlock-pin").value;
  if (!pin || !session) return;
  $("unlock-submit").disabled = true;
  try {
    const answer = await api("POST", "/api/session", { operator: session.operator, pin });
    signedIn(answer);
  } catch (err) {
    const box = $("unlock-error");
    box.textContent = err.code === "bad-pin" ? (err.message || "Wrong PIN.") : err.message;
    box.hidden = false;
    $("unlock-pin").value = "";
    $("unlock-pin").focus();
  } finally {
    $("unlock-submit").disabled = false;
  }
}

function noteInput() {
  if (!locked) lastInput = Date.now();
}

// ---- the desk (built once per session's actions) ------------------------------------------------

function buildDesk() {
  builtFor = [...actions].sort().join(" ");
  gates.length = 0;
  for (const k of Object.keys(ui)) delete ui[k];
  const parts = [];
  if (PLAY_TAGS.some((t) => actions.has(t))) parts.push(buildControl());
  if (ROUND_BUTTONS.some((b) => actions.has(b.tag))) parts.push(buildRoundButtons());
  if (actions.has("dice.enter.v1") || actions.has("dice.confirm.v1")) parts.push(buildKeypad());
  if (actions.has("round.declare-no-result.v1")) parts.push(buildNoResult());
  if (actions.has("table.report-malfunction.v1")) parts.push(buildMalfunction());
  if (SUPERVISOR_TAGS.some((t) => actions.has(t))) parts.push(buildSupervisor());
  if (actions.has("table.clear-fault.v1")) parts.push(buildInspector());
  if (!parts.length) parts.push(el("p", { class: "muted" }, "This role has no action at a table terminal."));
  $("desk").replaceChildren(...parts);
}

function buildControl() {
  ui.controlStatus = el("span", { id: "control-status", class: "control-status", role: "status" },
    "checking who plays this table…");
  const takeover = gate(el("button", { type: "button", id: "takeover", onclick: takeOver }, "Take over from demo"),
    () => !takenOver());
  const release = gate(el("button", { type: "button", id: "release", onclick: release_ }, "Hand back to demo"),
    () => control?.status !== "demo");
  ui.control = el("section", { id: "control", class: "panel control", "aria-label": "table control" },
    takeover, release, ui.controlStatus);
  return ui.control;
}

// Who plays the table is the floor's to say (GET /control), not this page's memory: a reload, or
// a second terminal or operator, reads the same answer. It is read with the table (on load, on
// every change and every RESYNC_MS), after sign-in, and after take over / hand back.
// A read, a take over and a hand back answer in turn: the newest of the three wins.
const askControl = latestOnly((method, path) => api(method, `/api/tables/${encodeURIComponent(table)}/${path}`));
let controlError = null;

/** Take the floor's answer {status, round, by}: demo, after-round, yours or none. */
function setControl(answer) {
  if (answer.status === "released") control = { status: "demo", round: null, by: null };
  else control = { status: answer.status, round: answer.round ?? null, by: answer.by ?? null };
  controlError = null;
  settleControl();
}

async function loadControl() {
  if (!table) return;
  const read = await askControl("GET", "control");
  if (!read.show()) return; // a later read, take over or hand back answered already
  // 404: the table was never opened, which the table's read says already.
  if (read.error) controlError = read.error.status === 404 ? null : read.error.message;
  else setControl(read.answer);
  update();
}

/** POST /takeover or /release; their answer is the floor's word as of then, read again after. */
async function changeControl(path) {
  const done = await askControl("POST", path);
  if (done.error) {
    handleError(done.error);
  } else {
    const answer = done.answer;
    if (done.show()) setControl(path === "takeover" && !answer.by ? { ...answer, by: session?.operator } : answer);
    update();
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
function settleControl() {
  if (!control || control.status !== "after-round" || control.round == null) return;
  const r = view && view.round;
  if (r && (r.number > control.round || (r.number === control.round && r.phase === "completed"))) {
    control = { ...control, status: "yours" };
  }
}

/** Whether a person has taken the table over from the demo dealer. */
function takenOver() {
  return !!control && (control.status === "after-round" || control.status === "yours");
}

/**
 * Whether the round's buttons wait: the demo dealer plays the table (nobody took it over), or
 * finishes its round after a takeover, or who plays it is not known yet. A press there would
 * collide with the simulated dealer's, and a command refused would stop the demo. On a floor
 * without a demo dealer ("none") nothing waits.
 */
function demoPlays() {
  return !control || control.status === "demo" || control.status === "after-round";
}

/** Why the round's buttons wait, for the keypad's line. */
function waitingFor() {
  if (!control) return controlError ? "who plays this table is not known" : "checking who plays this table";
  if (control.status === "demo") return "the demo dealer plays this table: take it over first";
  return `the demo dealer is finishing round ${control.round ?? ""}`;
}

function showControl() {
  if (!ui.controlStatus) return;
  ui.control.hidden = control?.status === "none"; // a real floor: no demo dealer to take over from
  const mine = !control?.by || control.by === session?.operator;
  const by = control?.by ? `taken over by ${control.by}` : "";
  let text;
  if (!control) {
    text = controlError ? `who plays this table is not known: ${controlError}` : "checking who plays this table…";
  } else if (control.status === "demo") {
    text = "the demo dealer plays this table";
  } else if (control.status === "after-round") {
    text = `${by && !mine ? `${by}: ` : ""}the demo dealer is finishing round ${control.round ?? ""}:`
      + ` the round's buttons wait until it is completed, then the table is ${mine ? "yours" : "in their hands"}`;
  } else if (control.status === "yours") {
    text = mine ? (by ? `${by}: the table is yours` : "the table is yours") : by;
  } else {
    text = "";
  }
  setText(ui.controlStatus, text);
  ui.controlStatus.dataset.status = control ? control.status : "unknown";
}

function buildRoundButtons() {
  const row = el("div", { class: "round-buttons" });
  if (actions.has("round.start.v1")) {
    ui.tumbles = el("input", { id: "tumbles", type: "number", min: MIN_TUMBLES, max: 100, step: 1,
      value: MIN_TUMBLES, inputmode: "numeric", "aria-describedby": "tumbles-hint" });
    row.append(el("label", { class: "tumbles" }, "Tumbles", ui.tumbles,
      el("small", { id: "tumbles-hint", class: "muted" }, "at least 3 (000 §5.1)")));
  }
  for (const b of ROUND_BUTTONS) {
    if (!actions.has(b.tag)) continue;
    const button = el("button", { type: "button", class: "round-action", dataset: { action: b.tag },
      onclick: () => roundAction(b.tag) }, b.label);
    playGate(button, () => view.status !== "closed" && b.when(view.round));
    row.append(button);
  }
  return el("section", { id: "round-actions", class: "panel", "aria-label": "round" }, row);
}

async function roundAction(tag) {
  if (!view || demoPlays()) return;
  if (tag === "round.start.v1") {
    const tumbles = Number.parseInt(ui.tumbles ? ui.tumbles.value : MIN_TUMBLES, 10);
    if (!Number.isFinite(tumbles)) { flash("Enter how many times the dice tumbled.", "error"); return; }
    await send({ type: tag, round: view.next_round, tumbles });
  } else {
    if (!view.round) return;
    await send({ type: tag, round: view.round.number });
  }
}

function buildKeypad() {
  const section = el("section", { id: "dice-pad", class: "panel dice-pad", "aria-label": "dice entry" });
  const uncoveredFresh = () => view?.round?.phase === "uncovered" && !view.round.entered;
  if (actions.has("dice.enter.v1")) {
    const keys = el("div", { class: "dice-keys" });
    for (let n = 1; n <= 6; n += 1) {
      keys.append(playGate(el("button", { type: "button", class: "die-key", dataset: { die: n },
        "aria-label": String(n), onclick: () => press(n) }, dieFace(n), el("span", { class: "face-no" }, n)),
      () => uncoveredFresh() && pressed.length < 3));
    }
    ui.echo = el("div", { id: "dice-echo", class: "dice-echo", "aria-live": "polite" });
    ui.entryState = el("p", { id: "entry-state", class: "entry-state muted" });
    const clear = playGate(el("button", { type: "button", id: "dice-clear", onclick: clearDice }, "Clear"),
      () => uncoveredFresh() && pressed.length > 0);
    const enter = playGate(el("button", { type: "button", id: "dice-enter", class: "primary enter-key", onclick: enterDice },
      "Enter ⏎"), () => uncoveredFresh() && pressed.length === 3);
    section.append(keys, el("div", { class: "dice-side" },
      ui.echoLabel = el("span", { class: "label" }, "Pressed"), ui.echo, ui.entryState,
      el("div", { class: "dice-side-buttons" }, clear, enter)));
  }
  if (actions.has("dice.confirm.v1")) {
    ui.confirm = playGate(el("button", { type: "button", class: "primary confirm", hidden: true,
      dataset: { action: "dice.confirm.v1" }, onclick: confirmDice }, "Confirm result"),
    () => view?.round?.phase === "uncovered" && !!view.round.entered && !view.round.held);
    ui.confirmHint = el("p", { id: "confirm-hint", class: "hint", hidden: true });
    section.append(el("div", { class: "confirm-row" }, ui.confirm, ui.confirmHint));
  }
  return section;
}

function press(n) {
  const r = view && view.round;
  if (!r || r.phase !== "uncovered" || r.entered || pressed.length >= 3 || busy || demoPlays()) return;
  if (pressedRound !== r.number) { pressed = []; pressedRound = r.number; }
  pressed.push(n);
  update();
}

function clearDice() {
  pressed = [];
  update();
}

async function enterDice() {
  const r = view && view.round;
  if (!r || pressed.length !== 3 || demoPlays()) return;
  const dice = [...pressed];
  const reply = await send({ type: "dice.enter.v1", round: r.number, dice });
  if (reply) { pressed = []; ui.enteredLocal = { round: r.number, dice }; update(); }
}

async function confirmDice() {
  const r = view && view.round;
  if (!r || demoPlays()) return;
  await send({ type: "dice.confirm.v1", round: r.number });
}

function buildNoResult() {
  ui.noResultForm = el("form", { id: "no-result-form", class: "no-result-form", hidden: true, onsubmit: declareNoResult },
    el("label", {}, "Reason",
      el("select", { id: "no-result-reason", required: true },
        ...NO_RESULT_REASONS.map(([value, label]) => el("option", { value }, label)))),
    el("label", {}, "Detail (optional)",
      el("input", { id: "no-result-detail", type: "text", maxlength: 500, autocomplete: "off" })),
    playGate(el("button", { type: "submit", id: "no-result-submit", class: "danger" }, "Declare no result"),
      () => IN_PLAY.has(view?.round?.phase)));
  const toggle = playGate(el("button", { type: "button", class: "danger no-result-toggle",
    dataset: { action: "round.declare-no-result.v1" }, "aria-expanded": "false", "aria-controls": "no-result-form",
    onclick: () => {
      ui.noResultForm.hidden = !ui.noResultForm.hidden;
      toggle.setAttribute("aria-expanded", String(!ui.noResultForm.hidden));
      if (!ui.noResultForm.hidden) $("no-result-reason").focus();
    } }, "No result…"), () => IN_PLAY.has(view?.round?.phase));
  return el("section", { id: "no-result", class: "panel no-result", "aria-label": "no result" },
    el("div", { class: "no-result-head" }, toggle,
      el("span", { class: "muted" }, "All wagers are then dealt with by the table's rules (000 §7)")),
    ui.noResultForm);
}

async function declareNoResult(event) {
  event.preventDefault();
  const r = view && view.round;
  if (!r || demoPlays()) return;
  const reply = await send({ type: "round.declare-no-result.v1", round: r.number,
    reason: $("no-result-reason").value, detail: $("no-result-detail").value.trim() });
  if (reply) {
    ui.noResultForm.reset();
    ui.noResultForm.hidden = true;
    document.querySelector('[data-action="round.declare-no-result.v1"]')?.setAttribute("aria-expanded", "false");
  }
}

/** Equipment malfunction (000 §7.6-7.7): the table stops until an inspector clears it. */
function buildMalfunction() {
  const suggestions = el("datalist", { id: "malfunction-equipment-list" },
    ...["tumbler", "dice", "layout-lamps", "layout-controller", "result-display", "entry-terminal"]
      .map((value) => el("option", { value })));
  const form = actionForm({
    tag: "table.report-malfunction.v1", title: "Report malfunction", submit: "Report malfunction", danger: true,
    hint: "The table is suspended until an inspector clears the fault (000 §7.7).",
    fields: [
      field("Equipment", el("input", { id: "malfunction-equipment", type: "text", required: true, maxlength: 64,
        list: "malfunction-equipment-list", autocomplete: "off", placeholder: "e.g. layout-lamps" })),
      suggestions,
      field("What is wrong (required)", textInput("malfunction-detail", { required: true })),
    ],
    build: () => ({ equipment: $("malfunction-equipment").value.trim(), detail: $("malfunction-detail").value.trim() }),
  });
  form.classList.remove("panel");
  form.hidden = true;
  form.id = "malfunction-form";
  const toggle = el("button", { type: "button", class: "malfunction-toggle", "aria-expanded": "false",
    "aria-controls": "malfunction-form", onclick: () => {
      form.hidden = !form.hidden;
      toggle.setAttribute("aria-expanded", String(!form.hidden));
    } }, "Malfunction…");
  return el("section", { id: "malfunction", class: "panel malfunction", "aria-label": "equipment malfunction" },
    el("div", { class: "no-result-head" }, toggle,
      el("span", { class: "muted" }, "Equipment not working: lamps, tumbler, display")), form);
}

// ---- supervisor and inspector forms -------------------------------------------------------------

/** A form whose submit button carries data-action=tag; build() returns the command or null. */
function actionForm({ tag, title, hint, fields, submit, danger, enabled, build, keep }) {
  const button = gate(el("button", { type: "submit", class: danger ? "danger" : "primary", dataset: { action: tag } },
    submit), () => view.status !== "closed" && (enabled ? enabled() : true));
  const form = el("form", { class: "panel action-form", dataset: { form: tag }, autocomplete: "off" },
    el("h3", {}, title),
    hint ? el("p", { class: "hint" }, hint) : null,
    el("div", { class: "fields" }, ...fields),
    button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const command = build();
    if (!command) return;
    const reply = await send({ type: tag, ...command });
    if (reply && !keep) {
      form.reset();
      prefill(form, true);
    }
  });
  return form;
}

function field(label, input, extra) {
  return el("label", { class: "field" }, label, input, extra || null);
}

function textInput(id, { required = false, placeholder } = {}) {
  return el("input", { id, type: "text", required, maxlength: 500, placeholder, autocomplete: "off" });
}

function moneyInput(id) {
  const input = el("input", { id, type: "number", min: 1, step: 1, required: true, inputmode: "numeric",
    class: "money-input", dataset: { money: "" } });
  const echo = el("small", { class: "money-echo muted" });
  input.addEventListener("input", () => { input.dataset.touched = "1"; setText(echo, input.value ? money(Number(input.value)) : ""); });
  return [input, echo];
}

function diceInputs(prefix) {
  return el("div", { class: "dice-inputs" }, ...[1, 2, 3].map((n) =>
    el("input", { id: `${prefix}-die-${n}`, type: "number", min: 1, max: 6, step: 1, required: true,
      inputmode: "numeric", "aria-label": `die ${n}` })));
}

function readDice(prefix) {
  const dice = [1, 2, 3].map((n) => Number.parseInt($(`${prefix}-die-${n}`).value, 10));
  if (dice.some((d) => !(d >= 1 && d <= 6))) { flash("Each die is a face from 1 to 6.", "error"); return null; }
  return dice;
}

function limitsFields(prefix) {
  const [min, minEcho] = moneyInput(`${prefix}-minimum`);
  const [max, maxEcho] = moneyInput(`${prefix}-maximum`);
  const [unit, unitEcho] = moneyInput(`${prefix}-unit`);
  return [
    el("div", { class: "limits-fields" },
      field("Minimum", min, minEcho), field("Maximum", max, maxEcho), field("Unit", unit, unitEcho)),
    el("small", { class: "muted" }, "in minor units (100 = 1.00)"),
  ];
}

function readLimits(prefix) {
  const n = (name) => Number.parseInt($(`${prefix}-${name}`).value, 10);
  const limits = { minimum: n("minimum"), maximum: n("maximum"), unit: n("unit") };
  if (!(limits.minimum >= 1 && limits.maximum >= 1 && limits.unit >= 1)) {
    flash("Limits are whole amounts of minor units, at least 1.", "error");
    return null;
  }
  return limits;
}

function select(id, options) {
  return el("select", { id, required: true }, ...options.map(([value, label]) => el("option", { value }, label)));
}

function currentRound() {
  return view && view.round ? view.round.number : null;
}

function buildSupervisor() {
  const forms = [];
  if (actions.has("round.invalidate.v1")) {
    const reason = select("invalidate-reason", INVALIDATION_REASONS);
    const forfeits = textInput("invalidate-forfeits", { placeholder: "player-1, player-2" });
    const forfeitsField = field("Forfeit the wagers of (fraud only, 000 §8.5)", forfeits);
    forfeitsField.hidden = true;
    reason.addEventListener("change", () => { forfeitsField.hidden = reason.value !== "fraud"; });
    forms.push(actionForm({
      tag: "round.invalidate.v1", title: "Invalidate round", submit: "Invalidate round", danger: true,
      hint: "Wagers are refunded (000 §8.4).",
      fields: [field("Reason", reason), field("Detail (required)", textInput("invalidate-detail", { required: true })), forfeitsField],
      enabled: () => IN_PLAY.has(view.round?.phase),
      build: () => {
        const cmd = { round: currentRound(), reason: reason.value, detail: $("invalidate-detail").value.trim() };
        if (reason.value === "fraud") {
          const players = forfeits.value.split(/[\s,]+/).filter(Boolean);
          if (players.length) cmd.forfeits = players;
        }
        return cmd;
      },
    }));
  }
  if (actions.has("dice.resolve-held.v1")) {
    ui.resolveForm = actionForm({
      tag: "dice.resolve-held.v1", title: "Resolve held result", submit: "Resolve with these dice",
      hint: "The reader and the entry disagree: look at the dice and enter them.",
      fields: [field("Dice", diceInputs("resolve")), field("Reason", textInput("resolve-reason", { required: true }))],
      enabled: () => !!view.round?.held,
      build: () => { const dice = readDice("resolve"); return dice && { round: currentRound(), dice, reason: $("resolve-reason").value.trim() }; },
    });
    ui.resolveForm.hidden = true;
    ui.resolveForm.classList.add("attention");
    forms.push(ui.resolveForm);
  }
  if (actions.has("dice.correct.v1")) {
    forms.push(actionForm({
      tag: "dice.correct.v1", title: "Correct result", submit: "Correct result",
      hint: "A confirmed result of the current round (GLI-19 §4.18.4).",
      fields: [field("Dice", diceInputs("correct")), field("Reason", textInput("correct-reason", { required: true }))],
      enabled: () => !!view.round?.result,
      build: () => { const dice = readDice("correct"); return dice && { round: currentRound(), dice, reason: $("correct-reason").value.trim() }; },
    }));
  }
  if (actions.has("round.cancel.v1")) {
    forms.push(actionForm({
      tag: "round.cancel.v1", title: "Cancel round", submit: "Cancel round", danger: true,
      hint: "Every wager is refunded (004).",
      fields: [field("Reason", textInput("cancel-reason", { required: true }))],
      enabled: () => !!view.round && !ENDED.has(view.round.phase),
      build: () => ({ round: currentRound(), reason: $("cancel-reason").value.trim() }),
    }));
  }
  if (actions.has("table.change-limits.v1")) {
    forms.push(actionForm({
      tag: "table.change-limits.v1", title: "Change limits", submit: "Change limits",
      hint: "Raising the minimum needs a notice 20 minutes before (000 §4.3).",
      fields: [...limitsFields("limits"), field("Reason", textInput("limits-reason", { required: true }))],
      build: () => { const limits = readLimits("limits"); return limits && { limits, reason: $("limits-reason").value.trim() }; },
    }));
  }
  if (actions.has("table.post-limits-notice.v1")) {
    forms.push(actionForm({
      tag: "table.post-limits-notice.v1", title: "Post limits notice", submit: "Post notice",
      hint: "The sign showing the new limits and when they apply (000 §4.3).",
      fields: [...limitsFields("notice"),
        field("Effective at", el("input", { id: "notice-effective-at", type: "datetime-local", required: true, dataset: { ahead: "20" } }))],
      build: () => {
        const limits = readLimits("notice");
        const at = isoFromLocal($("notice-effective-at").value);
        if (!at) { flash("Enter when the new limits apply.", "error"); return null; }
        return limits && { limits, effective_at: at };
      },
    }));
  }
  if (actions.has("table.post-closing-notice.v1")) {
    forms.push(actionForm({
      tag: "table.post-closing-notice.v1", title: "Post closing notice", submit: "Post closing notice",
      hint: "With players present, at least 20 minutes before closing (000 §8.8).",
      fields: [field("Close at", el("input", { id: "closing-at", type: "datetime-local", required: true, dataset: { ahead: "20" } }))],
      build: () => {
        const at = isoFromLocal($("closing-at").value);
        if (!at) { flash("Enter when the table closes.", "error"); return null; }
        return { close_at: at };
      },
    }));
  }
  if (actions.has("table.override-player-limits.v1")) {
    forms.push(actionForm({
      tag: "table.override-player-limits.v1", title: "Player limits override", submit: "Allow player",
      hint: "One player over the maximum, with a sign for that player (000 §4.4).",
      fields: [field("Player", textInput("override-player", { required: true, placeholder: "player id" })),
        ...limitsFields("override"), field("Reason", textInput("override-reason", { required: true }))],
      build: () => {
        const limits = readLimits("override");
        return limits && { player: $("override-player").value.trim(), limits, reason: $("override-reason").value.trim() };
      },
    }));
  }
  if (actions.has("table.close.v1")) {
    forms.push(actionForm({
      tag: "table.close.v1", title: "Close table", submit: "Close table", danger: true,
      hint: "With players present, a closing notice must have been posted 20 minutes before (000 §8.8).",
      fields: [], build: () => ({}),
    }));
  }
  return el("section", { id: "supervisor-actions", class: "admin", "aria-label": "supervisor actions" },
    el("h2", {}, "Supervisor"), el("div", { class: "form-grid" }, ...forms));
}

function buildInspector() {
  const form = actionForm({
    tag: "table.clear-fault.v1", title: "Clear fault", submit: "Clear fault",
    hint: "The equipment is fixed: play may go on (000 §7.7).",
    fields: [field("What was fixed (required)", textInput("clear-fault-detail", { required: true }))],
    enabled: () => !!(view.suspended || view.fault),
    build: () => ({ detail: $("clear-fault-detail").value.trim() }),
  });
  return el("section", { id: "inspector-actions", class: "admin", "aria-label": "inspector actions" },
    el("h2", {}, "Inspector"), el("div", { class: "form-grid" }, form));
}

/** Fill untouched limit and time fields from the table (again after a form was sent). */
function prefill(desk, force = false) {
  if (!desk) return;
  if (view && view.limits) {
    for (const input of desk.querySelectorAll("input[data-money]")) {
      if (input.dataset.touched && !force) continue;
      if (input.value && !force) continue;
      const name = input.id.split("-").pop();
      if (view.limits[name] !== undefined) {
        input.value = view.limits[name];
        delete input.dataset.touched;
        input.dispatchEvent(new Event("input"));
        delete input.dataset.touched;
      }
    }
  }
  for (const input of desk.querySelectorAll("input[type=datetime-local]")) {
    if (!input.value || force) input.value = localInputValue(Number(input.dataset.ahead || 20));
  }
}

// ---- rendering ----------------------------------------------------------------------------------

function update() {
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
  setText($("limits"), view ? limitsText(view.limits) : "—");

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

  const info = [];
  if (viewError) info.push(viewError);
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
  setText($("round-info"), info.join(" · "));

  if (!session) return;
  settleControl();
  if (r && pressedRound !== r.number) { pressed = []; pressedRound = r.number; }
  if (!r || r.phase !== "uncovered" || r.entered || demoPlays()) pressed = [];
  if (ui.enteredLocal && (!r || r.number !== ui.enteredLocal.round || r.entered)) ui.enteredLocal = null;

  for (const [button, enabled] of gates) {
    let on = false;
    try { on = !busy && !!view && !!enabled(); } catch { on = false; }
    button.disabled = !on;
  }

  if (ui.echo) {
    const entered = diceOf(r && r.entered) || (ui.enteredLocal && ui.enteredLocal.dice);
    const shown = entered || pressed;
    const key = `${entered ? "e" : "p"}:${shown.join(",")}`;
    if (ui.echo.dataset.key !== key) {
      ui.echo.dataset.key = key;
      const nodes = [];
      for (let i = 0; i < 3; i += 1) {
        if (i) nodes.push(" ");
        nodes.push(i < shown.length ? el("span", { class: "echo-die" }, shown[i]) : el("span", { class: "echo-slot" }));
      }
      ui.echo.replaceChildren(...nodes);
      ui.echo.classList.toggle("entered", !!entered);
      setText(ui.echoLabel, entered ? "Entered" : "Pressed");
    }
    let state = "";
    if (demoPlays()) state = `The keypad waits: ${waitingFor()}.`;
    else if (!r || r.phase !== "uncovered") state = "The keypad works once the tumbler is uncovered.";
    else if (entered && !result) state = `Entered${byOf(r) ? ` by ${byOf(r)}` : ""}: check the echo against the dice, then confirm.`;
    else if (pressed.length < 3) state = `Press die ${pressed.length + 1} of 3, lowest to highest (000 §5.3).`;
    else state = `${pressed.join(" ")} — total ${pressed.reduce((a, b) => a + b, 0)}: press Enter.`;
    setText(ui.entryState, state);
  }
  if (ui.confirm) {
    const show = !!(r && r.entered && !r.result);
    ui.confirm.hidden = !show;
    let hint = "";
    if (show && r.held) hint = "The result is held: the reader and the entry disagree, a supervisor must resolve it.";
    else if (show && view.second_person_confirmation) {
      const by = byOf(r);
      hint = `Second-person confirmation: ${by ? `someone other than ${by}` : "an operator other than the one who entered the dice"}`
        + " confirms the result, signed in at their own terminal or at this one after you sign out"
        + " (signing out keeps the table taken over; \"Hand back to demo\" returns it to the demo dealer).";
    }
    setText(ui.confirmHint, hint);
    ui.confirmHint.hidden = !hint;
  }
  if (ui.resolveForm) ui.resolveForm.hidden = !(r && r.held);
  showControl();
  prefill($("desk"));
}

function tick() {
  const r = view && view.round;
  const deadline = r && r.phase === "betting-open" ? r.closes_at : null;
  const left = deadline ? secondsLeft(deadline, skew) : null;
  const box = $("countdown");
  setText(box, left === null ? "—" : left);
  box.classList.toggle("urgent", left !== null && left <= 3);
  if (session && !locked && session.idle_lock_seconds > 0
      && Date.now() - lastInput > session.idle_lock_seconds * 1000) {
    lock();
  }
}

function onKey(event) {
  noteInput();
  if (locked || !session || !ui.echo || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target;
  if (target && target.closest && target.closest("input, select, textarea")) return;
  if (/^[1-6]$/.test(event.key)) { press(Number(event.key)); event.preventDefault(); }
  else if (event.key === "Backspace" && pressed.length) { pressed.pop(); update(); event.preventDefault(); }
}

// ---- start --------------------------------------------------------------------------------------

function start() {
  if (table) {
    document.title = `${table} · terminal`;
    $("table-links").append(
      el("a", { href: `${base}/layout` }, "Layout"),
      el("a", { href: `${base}/board` }, "Board"));
  } else {
    flash("No table in this address: open /tables/{table}/terminal.", "error");
  }
  $("notice").addEventListener("click", () => notice(""));
  $("notice").title = "tap to dismiss";
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
