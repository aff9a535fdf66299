// What the dealer terminal knows, shared by its modules, and the few helpers every one of them
// uses. terminal.js wires the modules together.
import { notice, tableId } from "/static/common.js";

export const table = tableId();
export const $ = (id) => document.getElementById(id);
/** The table's API address; the gateway stamps every command's table and actor, not the page. */
export const tableApi = `/api/tables/${encodeURIComponent(table)}`;

/**
 * The page's state in one object, so that each module reads and writes the same fields and
 * the whole of what the page knows is written down in one place.
 */
export const state = {
  session: null, // {operator, role, actions, idle_lock_seconds}
  actions: new Set(), // the session's: which parts the desk has
  view: null, // the TableView
  viewError: null,
  skew: 0, // server time minus local time (ms), for the countdown
  busy: false, // a command is on its way: every button waits for its answer
  locked: false,
  lastInput: Date.now(),
  control: null, // who plays the table, GET /control's answer {status, round, by}; null: not known yet
  controlError: null,
};

/**
 * The desk: built once per session's actions. Its controls by name (ui) and its buttons with
 * the test that enables each (gates), re-evaluated on every update.
 */
export const desk = { builtFor: null, ui: {}, gates: [] };

/**
 * Steps of the whole page, which terminal.js fills in at start: they reach into every module,
 * so a module asks for them here instead of importing the modules that import it.
 */
export const page = {
  update() {}, // draw the page from the state
  signedIn() {}, // the session changed: the desk for its actions, drawn, and who plays the table
};

/** The actions the desk was built for, as one comparable key. */
export function deskKey(actions) {
  return [...actions].sort().join(" ");
}

export function setText(node, text) {
  if (!node) return;
  const value = String(text);
  if (node.textContent !== value) node.textContent = value;
}

const notices = { timer: null }; // an "ok" notice clears itself; a newer notice cancels that

export function flash(text, kind) {
  clearTimeout(notices.timer);
  notice(text, kind);
  if (kind === "ok") notices.timer = setTimeout(() => notice(""), 2500);
}

// ---- reading the TableView ----------------------------------------------------------------------

export function diceOf(x) {
  if (!x) return null;
  if (Array.isArray(x)) return x;
  if (Array.isArray(x.dice)) return x.dice;
  return null;
}

export function byOf(x) {
  return x && !Array.isArray(x) ? (x.by || x.entered_by || x.operator || null) : null;
}

// ---- who plays the table ------------------------------------------------------------------------

/** Whether a person has taken the table over from the demo dealer. */
export function takenOver() {
  const { control } = state;
  return !!control && (control.status === "after-round" || control.status === "yours");
}

/**
 * Whether the round's buttons wait: the demo dealer plays the table (nobody took it over), or
 * finishes its round after a takeover, or who plays it is not known yet. A press there would
 * collide with the simulated dealer's, and a command refused would stop the demo. On a floor
 * without a demo dealer ("none") nothing waits.
 */
export function demoPlays() {
  const { control } = state;
  return !control || control.status === "demo" || control.status === "after-round";
}

// ---- the desk's buttons -------------------------------------------------------------------------

/**
 * A button enabled while ``enabled()`` holds; ``why()`` says in words why not, shown on the
 * button (title, and a line under its label that aria-describedby names) while it is off.
 */
export function gate(button, enabled, why) {
  desk.gates.push({ button, enabled, why, play: false });
  return button;
}

/**
 * A button of the round in play: also off while the demo dealer plays the table, or finishes
 * its round after a takeover (demoPlays). A command refused there (the round moved on under the
 * press) would stop the demo.
 */
export function playGate(button, enabled, why) {
  desk.gates.push({ button, enabled, why, play: true });
  return button;
}

/** The signed-in operator's id, or null. */
export const me = () => (state.session && state.session.operator) || null;

let whyCount = 0;

/**
 * Show why ``button`` is off ("" when it is on): its title for hover, and a line inside it,
 * hidden from its accessible name (aria-hidden) but named by aria-describedby, for a tap.
 */
export function showWhy(button, text) {
  if (button.title !== text) button.title = text;
  let line = button.querySelector(":scope > .why");
  if (!line && !text) return;
  if (!line) {
    whyCount += 1;
    line = document.createElement("span");
    line.className = "why";
    line.id = `why-${whyCount}`;
    line.setAttribute("aria-hidden", "true");
    button.append(line);
  }
  setText(line, text);
  line.hidden = !text;
  if (text) { button.dataset.why = text; button.setAttribute("aria-describedby", line.id); }
  else { delete button.dataset.why; button.removeAttribute("aria-describedby"); }
}

/**
 * Why the button of ``action`` is disabled, on hover and tap; "" when nothing stands in the
 * way. Called after the gates, which decide whether it is disabled, for a reason they cannot
 * know (the proposer of what waits for approval).
 */
export function explain(action, why) {
  const button = document.querySelector(`button[data-action="${action}"]`);
  if (!button) return;
  showWhy(button, button.disabled ? why : "");
}
