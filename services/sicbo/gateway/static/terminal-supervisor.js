// The supervisor's and the inspector's forms: invalidate, resolve, resume, cancel, limits,
// notices, override, a prohibited device (void, exclude, lift: 000 §8.3) and close; clear a
// fault.
import { el } from "/static/common.js";
import {
  actionForm, diceInputs, field, isoFromLocal, limitsFields, readDice, readLimits, select, textInput,
} from "/static/terminal-forms.js";
import { APPROVAL_TAGS, buildApprovals, showApprovals } from "/static/terminal-approvals.js";
import { loadView } from "/static/terminal-gateway.js";
import { showManual } from "/static/terminal-manual.js";
import { IN_PLAY } from "/static/terminal-round.js";
import { $, desk, flash, state } from "/static/terminal-state.js";

const ENDED = new Set(["completed", "no-result", "invalidated", "cancelled"]);
const INVALIDATION_REASONS = [
  ["civil-commotion", "Civil commotion"],
  ["fire", "Fire"],
  ["riot", "Riot"],
  ["brawl", "Brawl"],
  ["robbery", "Robbery"],
  ["act-of-god", "Act of God"],
  ["fraud", "Fraud (000 §8.4.2)"],
];
// The corrections and manual mode are terminal-manual.js's.
export const SUPERVISOR_TAGS = [
  "round.invalidate.v1", "dice.resolve-held.v1", "round.resume.v1", "round.cancel.v1",
  "table.change-limits.v1", "table.post-limits-notice.v1", "table.post-closing-notice.v1",
  "table.override-player-limits.v1", "table.close.v1",
  "round.void-player-wagers.v1", "table.exclude-player.v1", "table.lift-exclusion.v1",
  ...APPROVAL_TAGS,
];

// 000 §8.3: a player and why (the device seen, or why the exclusion ends).
const CONDUCT_FORMS = [
  { tag: "round.void-player-wagers.v1", id: "void-player", title: "Void a player's wagers", submit: "Void wagers",
    hint: "000 §8.3.1: their wagers in this round are returned, no winnings; before the result only.",
    inRound: true },
  { tag: "table.exclude-player.v1", id: "exclude-player", title: "Exclude a player", submit: "Exclude player",
    hint: "000 §8.3.2: no seat and no wager at this table until the exclusion is lifted." },
  { tag: "table.lift-exclusion.v1", id: "lift-exclusion", title: "Lift an exclusion", submit: "Lift exclusion",
    hint: "The player may play again at this table (000 §8.3.2)." },
];

function conductForm({ tag, id, title, submit, hint, inRound }) {
  return actionForm({
    tag, title, submit, hint, danger: tag !== "table.lift-exclusion.v1",
    fields: [field("Player", textInput(`${id}-player`, { required: true, placeholder: "player id" })),
      field("Reason (required)", textInput(`${id}-reason`, { required: true }))],
    enabled: inRound ? () => IN_PLAY.has(state.view.round?.phase) : undefined,
    build: () => {
      const cmd = { player: $(`${id}-player`).value.trim(), reason: $(`${id}-reason`).value.trim() };
      return inRound ? { round: currentRound(), ...cmd } : cmd;
    },
  });
}

// 000 §8.4: in play, or after the result (confirmed, or the round paid), not once void.
function hasOutcomeToInvalidate(round) {
  if (!round) return false;
  if (IN_PLAY.has(round.phase) || round.phase === "result-confirmed") return true;
  return round.phase === "completed" && round.ended_by === "result-confirmed";
}

function currentRound() {
  const { view } = state;
  return view && view.round ? view.round.number : null;
}

export function buildSupervisor() {
  const { actions } = state;
  const forms = [];
  if (actions.has("round.invalidate.v1")) {
    const reason = select("invalidate-reason", INVALIDATION_REASONS);
    const forfeits = textInput("invalidate-forfeits", { placeholder: "player-1, player-2" });
    const forfeitsField = field("Forfeit the wagers of (fraud only, 000 §8.5)", forfeits);
    forfeitsField.hidden = true;
    reason.addEventListener("change", () => { forfeitsField.hidden = reason.value !== "fraud"; });
    forms.push(actionForm({
      tag: "round.invalidate.v1", title: "Invalidate round", submit: "Invalidate round", danger: true,
      hint: "Wagers are refunded (000 §8.4), also once the round is paid.",
      fields: [field("Reason", reason), field("Detail (required)", textInput("invalidate-detail", { required: true })), forfeitsField],
      enabled: () => hasOutcomeToInvalidate(state.view.round),
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
    const form = actionForm({
      tag: "dice.resolve-held.v1", title: "Resolve held result", submit: "Resolve with these dice",
      hint: "The reader and the entry disagree: look at the dice and enter them.",
      fields: [field("Dice", diceInputs("resolve")), field("Reason", textInput("resolve-reason", { required: true }))],
      enabled: () => !!state.view.round?.held,
      build: () => { const dice = readDice("resolve"); return dice && { round: currentRound(), dice, reason: $("resolve-reason").value.trim() }; },
    });
    form.hidden = true;
    form.classList.add("attention");
    desk.ui.resolveForm = form;
    forms.push(form);
  }
  if (actions.has("round.resume.v1")) {
    // 004 "Ralat Pengendalian": fixed quickly, the suspended online round resumes (a land
    // table's fault is the inspector's, 000 §7.7).
    const suspendedRound = () => {
      const s = state.view.suspended;
      return s && s.policy === "suspend-round" ? s.round : null;
    };
    forms.push(actionForm({
      tag: "round.resume.v1", title: "Resume round", submit: "Resume round",
      hint: "The problem was solved quickly: betting reopens with the time that was left (004).",
      fields: [field("What was fixed (required)", textInput("resume-detail", { required: true }))],
      enabled: () => suspendedRound() != null,
      build: () => ({ round: suspendedRound(), detail: $("resume-detail").value.trim() }),
    }));
  }
  if (actions.has("round.cancel.v1")) {
    // 004 "Ralat Pengendalian": only where the table's rules give it, and only now: the
    // lifecycle's own checks say so in view.cancellation (else its reason is shown).
    const form = actionForm({
      tag: "round.cancel.v1", title: "Cancel round", submit: "Cancel round", danger: true,
      hint: "Every wager is refunded (004).",
      fields: [field("Reason", textInput("cancel-reason", { required: true }))],
      enabled: () => !!state.view.cancellation?.possible,
      build: () => ({ round: state.view.cancellation?.round ?? currentRound(), reason: $("cancel-reason").value.trim() }),
    });
    form.hidden = true;
    desk.ui.cancelForm = form;
    desk.ui.cancelNote = el("p", { id: "cancel-unavailable", class: "muted", hidden: true });
    forms.push(form, desk.ui.cancelNote);
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
  for (const spec of CONDUCT_FORMS) {
    if (actions.has(spec.tag)) forms.push(conductForm(spec));
  }
  if (actions.has("table.close.v1")) {
    forms.push(actionForm({
      tag: "table.close.v1", title: "Close table", submit: "Close table", danger: true,
      hint: "With players present, a closing notice must have been posted 20 minutes before (000 §8.8).",
      fields: [], build: () => ({}),
    }));
  }
  const section = el("section", { id: "supervisor-actions", class: "admin", "aria-label": "supervisor actions" },
    el("h2", {}, "Supervisor"), el("div", { class: "form-grid" }, ...forms));
  if (!APPROVAL_TAGS.some((t) => actions.has(t))) return section;
  return el("div", {}, section, buildApprovals(INVALIDATION_REASONS));
}

/** The held result's form is there only while the result is held; the cancel form only while
 * the round may be cancelled (the reason shown while one is in play); the manual mode's. */
export function showSupervisor(r) {
  if (desk.ui.resolveForm) desk.ui.resolveForm.hidden = !(r && r.held);
  showCancellation(r);
  showManual();
  showApprovals();
}

const cancelWait = { at: null, timer: null };

function showCancellation(r) {
  const { cancelForm, cancelNote } = desk.ui;
  if (!cancelForm) return;
  const c = state.view && state.view.cancellation;
  cancelForm.hidden = !(c && c.possible);
  const why = c && !c.possible && r && !ENDED.has(r.phase) ? `No cancellation now: ${c.reason}` : "";
  cancelNote.hidden = !why;
  cancelNote.textContent = why;
  // A confirmed result waits out its grace (004): read the table again when it ends.
  const from = c && !c.possible ? c.possible_from : null;
  if (from !== cancelWait.at) {
    clearTimeout(cancelWait.timer);
    cancelWait.at = from;
    if (from) {
      const ms = Math.max(0, Date.parse(from) - (Date.now() + state.skew)) + 250;
      cancelWait.timer = setTimeout(() => { cancelWait.at = null; loadView(); }, ms);
    }
  }
}

export function buildInspector() {
  const form = actionForm({
    tag: "table.clear-fault.v1", title: "Clear fault", submit: "Clear fault",
    hint: "The equipment is fixed: play may go on (000 §7.7).",
    fields: [field("What was fixed (required)", textInput("clear-fault-detail", { required: true }))],
    enabled: () => !!(state.view.suspended || state.view.fault),
    build: () => ({ detail: $("clear-fault-detail").value.trim() }),
  });
  return el("section", { id: "inspector-actions", class: "admin", "aria-label": "inspector actions" },
    el("h2", {}, "Inspector"), el("div", { class: "form-grid" }, form));
}
