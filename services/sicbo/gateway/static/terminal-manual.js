// The supervisor's corrections (GLI-19 §4.18.4): enter and leave manual mode (GLI-19 §C.6.8(o):
// the table's players see it), correct the result of the current or an earlier round, and, on a
// dual-control table, approve or reject another supervisor's proposal.
import { clock, el } from "/static/common.js";
import { t } from "/static/i18n.js";
import { actionForm, diceInputs, field, readDice, textInput } from "/static/terminal-forms.js";
import { $, desk, explain, me, setText, state } from "/static/terminal-state.js";

export const MANUAL_TAGS = [
  "dice.enter-manual-mode.v1", "dice.leave-manual-mode.v1", "dice.correct.v1",
  "dice.approve-correction.v1", "dice.reject-correction.v1",
];

const manual = () => !!(state.view && state.view.manual_mode);
const proposals = () => (state.view && state.view.proposals) || [];
/** Dual control: a supervisor approves only another's proposal (the server refuses their own). */
const othersProposals = () => proposals().filter((p) => p.by !== me());

function roundInput(id) {
  return el("input", { id, type: "number", min: 1, step: 1, inputmode: "numeric", placeholder: t("term.current") });
}

/** The round a form names: its field, else the one proposal's waiting, else the current round. */
function roundOf(id, waiting = []) {
  const typed = Number.parseInt($(id).value, 10);
  if (typed >= 1) return typed;
  if (waiting.length === 1) return waiting[0].round;
  const { view } = state;
  return view && view.round ? view.round.number : null;
}

/** The forms of the actions the session may send, and the manual mode's status line. */
export function buildManual() {
  const { actions } = state;
  const forms = [];
  const status = el("p", { id: "manual-status", class: "hint", role: "status" }, "");
  desk.ui.manualStatus = status;
  if (actions.has("dice.enter-manual-mode.v1")) {
    forms.push(actionForm({
      tag: "dice.enter-manual-mode.v1", title: t("term.manual-on"), submit: t("term.manual-on"),
      hint: t("term.manual-on.hint"), rule: "GLI-19 §C.6.8(o)",
      fields: [field(t("term.reason"), textInput("manual-reason", { required: true }))],
      enabled: () => !manual(),
      build: () => ({ reason: $("manual-reason").value.trim() }),
    }));
  }
  if (actions.has("dice.correct.v1")) {
    forms.push(actionForm({
      tag: "dice.correct.v1", title: t("term.correct"), submit: t("term.correct"),
      hint: t("term.correct.hint"), rule: "GLI-19 §4.18.4",
      fields: [field(t("term.round"), roundInput("correct-round")), field(t("term.dice"), diceInputs("correct")),
        field(t("term.reason"), textInput("correct-reason", { required: true }))],
      enabled: manual,
      build: () => {
        const dice = readDice("correct");
        return dice && { round: roundOf("correct-round"), dice, reason: $("correct-reason").value.trim() };
      },
    }));
  }
  if (actions.has("dice.approve-correction.v1")) {
    forms.push(actionForm({
      tag: "dice.approve-correction.v1", title: t("term.approve-correction"), submit: t("term.approve"),
      hint: t("term.approve-correction.hint"),
      fields: [field(t("term.round"), roundInput("approve-round")), field(t("term.dice"), diceInputs("approve"))],
      enabled: () => othersProposals().length > 0,
      build: () => {
        const dice = readDice("approve");
        return dice && { round: roundOf("approve-round", othersProposals()), dice };
      },
    }));
  }
  if (actions.has("dice.reject-correction.v1")) {
    forms.push(actionForm({
      tag: "dice.reject-correction.v1", title: t("term.reject-correction"), submit: t("term.reject"), danger: true,
      hint: t("term.reject-correction.hint"),
      fields: [field(t("term.round"), roundInput("reject-round")), field(t("term.reason"), textInput("reject-reason", { required: true }))],
      enabled: () => proposals().length > 0,
      build: () => ({ round: roundOf("reject-round", proposals()), reason: $("reject-reason").value.trim() }),
    }));
  }
  if (actions.has("dice.leave-manual-mode.v1")) {
    forms.push(actionForm({
      tag: "dice.leave-manual-mode.v1", title: t("term.manual-off"), submit: t("term.manual-off"),
      hint: t("term.manual-off.hint"), fields: [],
      enabled: () => manual() && proposals().length === 0,
      build: () => ({}),
    }));
  }
  return el("section", { id: "manual-actions", class: "admin", "aria-label": t("term.corrections") },
    el("h2", {}, t("term.corrections")), status, el("div", { class: "form-grid" }, ...forms));
}

/** The manual mode's status and the proposals waiting, from the table's view. */
export function showManual() {
  const box = desk.ui.manualStatus;
  if (!box || !state.view) return;
  const m = state.view.manual_mode;
  const waiting = proposals().map((p) => t("term.proposal", { n: p.round,
    before: p.before ? p.before.join("-") : "?", after: p.after.join("-"), by: p.by }));
  const mode = m ? t("term.manual-since", { at: clock(m.since), by: m.by, reason: m.reason }) : t("term.manual-not");
  const dual = state.view.dual_control ? ` ${t("term.dual-note")}` : "";
  setText(box, `${mode}${dual}${waiting.length ? ` ${t("term.waiting", { what: waiting.join("; ") })}` : ""}`);
  explain("dice.approve-correction.v1", proposals().length
    ? t("term.own-correction") : t("term.no-correction"));
  const only = othersProposals();
  const approveRound = $("approve-round");
  if (approveRound) approveRound.placeholder = only.length === 1 ? String(only[0].round) : t("term.current");
}
