// The dice keypad (000 §5.3-5.4): the dealer presses the three dice, checks the echo and enters
// them; the result is then confirmed, by a second person where the table asks for one.
import { el } from "/static/common.js";
import { t } from "/static/i18n.js";
import { dieFace } from "/static/layout.js";
import { waitingFor } from "/static/terminal-control.js";
import { send } from "/static/terminal-gateway.js";
import { noteInput } from "/static/terminal-session.js";
import { byOf, demoPlays, desk, diceOf, me, page, playGate, setText, state } from "/static/terminal-state.js";

/**
 * The dice pressed, in order, and the round they were pressed for: they outlive a rebuilt desk,
 * not the round. (The dice entered and not yet in the table's view are the desk's, ui.enteredLocal.)
 */
const entry = { pressed: [], round: null };

export function buildKeypad() {
  const { actions } = state;
  const { ui } = desk;
  const section = el("section", { id: "dice-pad", class: "panel dice-pad", "aria-label": t("term.dice-entry") });
  const uncoveredFresh = () => state.view?.round?.phase === "uncovered" && !state.view.round.entered;
  const keypadWhy = () => {
    const r = state.view.round;
    if (!r || r.phase !== "uncovered") return t("term.keypad.after-uncover");
    if (r.entered) return t("term.keypad.entered");
    return entry.pressed.length === 3 ? t("term.keypad.three") : t("term.keypad.press-three");
  };
  if (actions.has("dice.enter.v1")) {
    const keys = el("div", { class: "dice-keys" });
    for (let n = 1; n <= 6; n += 1) {
      keys.append(playGate(el("button", { type: "button", class: "die-key", dataset: { die: n },
        "aria-label": String(n), onclick: () => press(n) }, dieFace(n), el("span", { class: "face-no" }, n)),
      () => uncoveredFresh() && entry.pressed.length < 3, keypadWhy));
    }
    ui.echo = el("div", { id: "dice-echo", class: "dice-echo", "aria-live": "polite" });
    ui.entryState = el("p", { id: "entry-state", class: "entry-state muted" });
    const clear = playGate(el("button", { type: "button", id: "dice-clear", onclick: clearDice }, t("term.clear")),
      () => uncoveredFresh() && entry.pressed.length > 0, keypadWhy);
    const enter = playGate(el("button", { type: "button", id: "dice-enter", class: "primary enter-key", onclick: enterDice },
      t("term.enter")), () => uncoveredFresh() && entry.pressed.length === 3, keypadWhy);
    section.append(keys, el("div", { class: "dice-side" },
      ui.echoLabel = el("span", { class: "label" }, t("term.pressed")), ui.echo, ui.entryState,
      el("div", { class: "dice-side-buttons" }, clear, enter)));
  }
  if (actions.has("dice.confirm.v1")) {
    ui.confirm = playGate(el("button", { type: "button", class: "primary confirm", hidden: true,
      dataset: { action: "dice.confirm.v1" }, onclick: confirmDice }, t("term.confirm")),
    () => state.view?.round?.phase === "uncovered" && !!state.view.round.entered && !state.view.round.held
      && !enteredByMe(), confirmWhy);
    ui.confirmHint = el("p", { id: "confirm-hint", class: "hint", hidden: true });
    section.append(el("div", { class: "confirm-row" }, ui.confirm, ui.confirmHint));
  }
  return section;
}

/** Under second-person confirmation (TableConfig.second_person_confirmation) the dealer who
 * entered the dice may not confirm them (000 §5.4): the dice decider refuses it. */
function enteredByMe() {
  const { view } = state;
  return !!view.second_person_confirmation && !!me() && byOf(view.round) === me();
}

function confirmWhy() {
  const r = state.view.round;
  if (r && r.held) return t("term.why.held");
  if (r && r.entered && enteredByMe()) return t("term.why.own-entry");
  return t("term.why.enter-first");
}

function press(n) {
  const r = state.view && state.view.round;
  if (!r || r.phase !== "uncovered" || r.entered || entry.pressed.length >= 3 || state.busy || demoPlays()) return;
  if (entry.round !== r.number) { entry.pressed = []; entry.round = r.number; }
  entry.pressed.push(n);
  page.update();
}

function clearDice() {
  entry.pressed = [];
  page.update();
}

async function enterDice() {
  const r = state.view && state.view.round;
  if (!r || entry.pressed.length !== 3 || demoPlays()) return;
  const dice = [...entry.pressed];
  const reply = await send({ type: "dice.enter.v1", round: r.number, dice });
  if (reply) { entry.pressed = []; desk.ui.enteredLocal = { round: r.number, dice }; page.update(); }
}

async function confirmDice() {
  const r = state.view && state.view.round;
  if (!r || demoPlays()) return;
  await send({ type: "dice.confirm.v1", round: r.number });
}

/** Forget the dice pressed, or entered, for a round that is no longer waiting for them. */
export function settleEntry(r) {
  const { ui } = desk;
  if (r && entry.round !== r.number) { entry.pressed = []; entry.round = r.number; }
  if (!r || r.phase !== "uncovered" || r.entered || demoPlays()) entry.pressed = [];
  if (ui.enteredLocal && (!r || r.number !== ui.enteredLocal.round || r.entered)) ui.enteredLocal = null;
}

/** Draw the echo of the dice, the keypad's line, and the confirm button with its hint. */
export function showEntry(r, result) {
  const { ui } = desk;
  const { pressed } = entry;
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
      setText(ui.echoLabel, entered ? t("term.entered-label") : t("term.pressed"));
    }
    let line = "";
    if (demoPlays()) line = t("term.keypad.waits", { what: waitingFor() });
    else if (!r || r.phase !== "uncovered") line = t("term.keypad.after-uncover");
    else if (entered && !result) line = byOf(r) ? t("term.keypad.check-by", { by: byOf(r) }) : t("term.keypad.check");
    else if (pressed.length < 3) line = t("term.keypad.press-n", { n: pressed.length + 1 });
    else line = t("term.keypad.press-enter", { dice: pressed.join(" "), total: pressed.reduce((a, b) => a + b, 0) });
    setText(ui.entryState, line);
  }
  if (ui.confirm) {
    const show = !!(r && r.entered && !r.result);
    ui.confirm.hidden = !show;
    let hint = "";
    if (show && r.held) hint = t("term.confirm.held");
    else if (show && state.view.second_person_confirmation) {
      const by = byOf(r);
      hint = by ? t("term.confirm.second-by", { by }) : t("term.confirm.second");
    }
    setText(ui.confirmHint, hint);
    ui.confirmHint.hidden = !hint;
  }
}

/**
 * Keys 1-6 press a die, Backspace takes the last one back, Enter enters the three dice: not
 * while typing in a form's field, and Enter not on another enabled button or link (there it
 * presses that one). On a die key Enter enters, rather than pressing that die once more.
 */
export function onKey(event) {
  noteInput();
  if (state.locked || !state.session || !desk.ui.echo || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target instanceof Element ? event.target : null;
  if (target && target.closest("input, select, textarea, [contenteditable]")) return;
  if (/^[1-6]$/.test(event.key)) { press(Number(event.key)); event.preventDefault(); }
  else if (event.key === "Backspace" && entry.pressed.length) { entry.pressed.pop(); page.update(); event.preventDefault(); }
  else if (event.key === "Enter") {
    const elsewhere = target && target.closest("a[href], button:not(:disabled)") && !target.closest("#dice-pad");
    if (elsewhere) return;
    event.preventDefault();
    const enter = document.getElementById("dice-enter");
    if (enter && !enter.disabled) enterDice();
  }
}
