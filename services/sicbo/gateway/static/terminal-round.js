// The round's buttons in the order of play, "no result" (000 §7) and the malfunction report
// (000 §7.6-7.7).
import { el, reasonText } from "/static/common.js";
import { t } from "/static/i18n.js";
import { actionForm, field, textInput } from "/static/terminal-forms.js";
import { send } from "/static/terminal-gateway.js";
import { $, demoPlays, desk, flash, playGate, state } from "/static/terminal-state.js";

/** The round's buttons, in the order of play, and the phase in which each is pressed. */
const startable = (r) => !r || r.phase === "completed";
export const ROUND_BUTTONS = [
  { tag: "round.start.v1", label: "term.btn.tumble", when: startable, activation: "handle" },
  { tag: "round.open-betting.v1", label: "term.btn.open", when: (r) => r?.phase === "started" },
  { tag: "round.close-betting.v1", label: "term.btn.close", when: (r) => r?.phase === "betting-open" },
  { tag: "round.uncover.v1", label: "term.btn.uncover", when: (r) => r?.phase === "betting-closed" },
];
export const IN_PLAY = new Set(["started", "betting-open", "betting-closed", "uncovered"]);
const MIN_TUMBLES = 3; // 000 §5.1
/** The ways of starting a round other than the handle: each its own button (the handle's is
 * "Tumble" above). Which are offered is the table's: view.start_ways (profile and paytable). */
const OTHER_STARTS = [{ activation: "electric-shaker", label: "term.btn.shaker" }];

const NO_RESULT_REASONS = [
  ["dice-not-flat", "term.nr.dice-not-flat"],
  ["tumbler-fault", "term.nr.tumbler-fault"],
  ["not-activated-properly", "term.nr.not-activated-properly"],
  ["dice-exposed-early", "term.nr.dice-exposed-early"],
  ["broken-dice", "term.nr.broken-dice"],
];
/** The actions of the round in play: whoever has one sees who plays the table. */
export const PLAY_TAGS = [...ROUND_BUTTONS.map((b) => b.tag), "dice.enter.v1", "dice.confirm.v1",
  "round.declare-no-result.v1"];

export function buildRoundButtons() {
  const { actions } = state;
  const { ui } = desk;
  const row = el("div", { class: "round-buttons" });
  ui.starts = [];
  if (actions.has("round.start.v1")) {
    ui.tumbles = el("input", { id: "tumbles", type: "number", min: MIN_TUMBLES, max: 100, step: 1,
      value: MIN_TUMBLES, inputmode: "numeric", "aria-describedby": "tumbles-hint" });
    ui.tumblesHint = el("small", { id: "tumbles-hint", class: "muted" }, t("term.at-least", { n: MIN_TUMBLES }));
    ui.tumblesBox = el("label", { class: "tumbles" }, t("term.tumbles"), ui.tumbles, ui.tumblesHint);
    row.append(ui.tumblesBox);
  }
  for (const b of ROUND_BUTTONS) {
    if (!actions.has(b.tag)) continue;
    const button = el("button", { type: "button", class: "round-action",
      dataset: { action: b.tag, ...(b.activation ? { activation: b.activation } : {}) },
      onclick: () => roundAction(b.tag, b.activation) }, t(b.label));
    playGate(button, () => state.view.status !== "closed" && b.when(state.view.round)
      && (!b.activation || !!startWay(b.activation)) && !refusal(b.tag), () => roundWhy(b));
    if (b.activation) ui.starts.push([button, b.activation]);
    row.append(button);
    if (b.activation) row.append(...otherStarts());
  }
  return el("section", { id: "round-actions", class: "panel", "aria-label": t("term.round") }, row);
}

/**
 * The lifecycle's refusal of the dealer's ``tag`` now, in the dealer's language
 * (view.round_refusal_words; the English of view.round_refusals for a reason the catalogue
 * has no words for), or null.
 */
function refusal(tag) {
  const refusals = state.view?.round_refusals;
  const english = (refusals && refusals[tag]) || null;
  const words = state.view?.round_refusal_words;
  return english && reasonText(words && words[tag], english);
}

/** Why a round button is off, in the dealer's words; the lifecycle's own reason after it. */
const NOT_NOW = t("term.why.not-possible");

function roundWhy(b) {
  const { view } = state;
  const r = view.round;
  const server = refusal(b.tag);
  let text;
  if (view.status === "closed") text = t("term.table-closed");
  // Suspended, every button is off for that reason; "No more bets" alone may still be called
  // on bets that are open (its own reasons then).
  else if (view.suspended && (b.tag !== "round.close-betting.v1" || r?.phase !== "betting-open")) {
    text = t("term.why.suspended");
  }
  else if (b.tag === "round.start.v1") text = r && !b.when(r) ? t("term.why.finish") : NOT_NOW;
  else if (!r || r.phase === "completed") text = t("term.why.tumble-first");
  else if (b.tag === "round.open-betting.v1") text = t("term.why.already-open");
  else if (b.tag === "round.close-betting.v1") text = r.phase === "started" ? t("term.why.open-first") : t("term.why.not-open");
  else text = r.phase === "betting-open" ? t("term.why.close-first") : t("term.why.uncovered");
  return server && text === NOT_NOW ? server : text;
}

/** The table's way of starting by ``activation`` now, or null (view.start_ways). */
function startWay(activation) {
  return (state.view?.start_ways || []).find((w) => w.activation === activation) || null;
}

function otherStarts() {
  return OTHER_STARTS.map(({ activation, label }) => {
    const button = el("button", { type: "button", class: "round-action start-other",
      dataset: { activation }, onclick: () => roundAction("round.start.v1", activation) }, t(label));
    playGate(button, () => state.view.status !== "closed" && startable(state.view.round) && !!startWay(activation)
      && !refusal("round.start.v1"), () => roundWhy(ROUND_BUTTONS[0]));
    desk.ui.starts.push([button, activation]);
    return button;
  });
}

/** Only the ways the table allows now are on the desk; the tumbles only where one counts them. */
export function showStartWays() {
  const { ui } = desk;
  if (!ui.starts) return;
  for (const [button, activation] of ui.starts) button.hidden = !startWay(activation);
  if (!ui.tumblesBox) return;
  const counted = (state.view?.start_ways || []).filter((w) => w.min_tumbles > 0);
  ui.tumblesBox.hidden = counted.length === 0;
  if (counted.length) {
    const least = Math.min(...counted.map((w) => w.min_tumbles));
    ui.tumbles.min = least;
    ui.tumblesHint.textContent = t("term.at-least", { n: least });
    ui.tumblesHint.title = counted.map((w) => w.rule).join("\n");
  }
}

async function roundAction(tag, activation) {
  const { view } = state;
  if (!view || demoPlays()) return;
  if (tag === "round.start.v1") {
    const way = startWay(activation);
    if (!way) return;
    let tumbles = 0; // a way that counts none (002/2004 art. 2(1): the electric shaker)
    if (way.min_tumbles > 0) {
      tumbles = Number.parseInt(desk.ui.tumbles ? desk.ui.tumbles.value : way.min_tumbles, 10);
      if (!Number.isFinite(tumbles)) { flash(t("term.enter-tumbles"), "error"); return; }
    }
    await send({ type: tag, round: view.next_round, tumbles, activation });
  } else {
    if (!view.round) return;
    await send({ type: tag, round: view.round.number });
  }
}

export function buildNoResult() {
  const { ui } = desk;
  const inPlay = () => IN_PLAY.has(state.view?.round?.phase);
  const notInPlay = () => (state.view.round ? t("term.why.has-outcome") : t("term.why.no-round"));
  ui.noResultForm = el("form", { id: "no-result-form", class: "no-result-form", hidden: true, onsubmit: declareNoResult },
    el("label", {}, t("term.reason"),
      el("select", { id: "no-result-reason", required: true },
        ...NO_RESULT_REASONS.map(([value, label]) => el("option", { value }, t(label))))),
    el("label", {}, t("term.detail-optional"),
      el("input", { id: "no-result-detail", type: "text", maxlength: 500, autocomplete: "off" })),
    playGate(el("button", { type: "submit", id: "no-result-submit", class: "danger" }, t("term.declare-no-result")), inPlay, notInPlay));
  const toggle = playGate(el("button", { type: "button", class: "danger no-result-toggle",
    dataset: { action: "round.declare-no-result.v1" }, "aria-expanded": "false", "aria-controls": "no-result-form",
    onclick: () => {
      ui.noResultForm.hidden = !ui.noResultForm.hidden;
      toggle.setAttribute("aria-expanded", String(!ui.noResultForm.hidden));
      if (!ui.noResultForm.hidden) $("no-result-reason").focus();
    } }, t("term.no-result-toggle")), inPlay, notInPlay);
  return el("section", { id: "no-result", class: "panel no-result", "aria-label": t("term.no-result") },
    el("div", { class: "no-result-head" }, toggle,
      el("span", { class: "muted" }, t("term.no-result-note"))),
    ui.noResultForm);
}

async function declareNoResult(event) {
  event.preventDefault();
  const r = state.view && state.view.round;
  if (!r || demoPlays()) return;
  const reply = await send({ type: "round.declare-no-result.v1", round: r.number,
    reason: $("no-result-reason").value, detail: $("no-result-detail").value.trim() });
  if (reply) {
    desk.ui.noResultForm.reset();
    desk.ui.noResultForm.hidden = true;
    document.querySelector('[data-action="round.declare-no-result.v1"]')?.setAttribute("aria-expanded", "false");
  }
}

/** Equipment malfunction (000 §7.6-7.7): the table stops until an inspector clears it. */
export function buildMalfunction() {
  const suggestions = el("datalist", { id: "malfunction-equipment-list" },
    ...["tumbler", "dice", "layout-lamps", "layout-controller", "result-display", "entry-terminal"]
      .map((value) => el("option", { value })));
  const form = actionForm({
    tag: "table.report-malfunction.v1", title: t("term.malfunction.title"), submit: t("term.malfunction.title"), danger: true,
    hint: t("term.malfunction.hint"), rule: "000 §7.7; 004",
    fields: [
      field(t("term.malfunction.equipment"), el("input", { id: "malfunction-equipment", type: "text", required: true, maxlength: 64,
        list: "malfunction-equipment-list", autocomplete: "off", placeholder: t("term.malfunction.example") })),
      suggestions,
      field(t("term.malfunction.what"), textInput("malfunction-detail", { required: true })),
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
    } }, t("term.malfunction.toggle"));
  return el("section", { id: "malfunction", class: "panel malfunction", "aria-label": t("term.malfunction.label") },
    el("div", { class: "no-result-head" }, toggle,
      el("span", { class: "muted" }, t("term.malfunction.note"))), form);
}
