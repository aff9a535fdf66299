// The supervisor's and the inspector's forms: invalidate, resolve, resume, cancel, limits,
// notices, override, a prohibited device (void, exclude, lift: 000 §8.3) and close; clear a
// fault.
import { el, reasonText } from "/static/common.js";
import { t } from "/static/i18n.js";
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
  ["civil-commotion", "term.inv.civil-commotion"],
  ["fire", "term.inv.fire"],
  ["riot", "term.inv.riot"],
  ["brawl", "term.inv.brawl"],
  ["robbery", "term.inv.robbery"],
  ["act-of-god", "term.inv.act-of-god"],
  ["fraud", "term.inv.fraud"], // 000 §8.4.2
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
  { tag: "round.void-player-wagers.v1", id: "void-player", title: "term.void.title", submit: "term.void.submit",
    hint: "term.void.hint", rule: "000 §8.3.1",
    inRound: true },
  { tag: "table.exclude-player.v1", id: "exclude-player", title: "term.exclude.title", submit: "term.exclude.submit",
    hint: "term.exclude.hint", rule: "000 §8.3.2" },
  { tag: "table.lift-exclusion.v1", id: "lift-exclusion", title: "term.lift.title", submit: "term.lift.submit",
    hint: "term.lift.hint", rule: "000 §8.3.2" },
];

function conductForm({ tag, id, title, submit, hint, rule, inRound }) {
  return actionForm({
    tag, title: t(title), submit: t(submit), hint: t(hint), rule, danger: tag !== "table.lift-exclusion.v1",
    fields: [field(t("term.player"), textInput(`${id}-player`, { required: true, placeholder: t("term.player-id") })),
      field(t("term.reason-required"), textInput(`${id}-reason`, { required: true }))],
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
    const forfeits = textInput("invalidate-forfeits", { placeholder: t("term.players-example") });
    const forfeitsField = field(t("term.forfeit"), forfeits);
    forfeitsField.title = "000 §8.5";
    forfeitsField.hidden = true;
    reason.addEventListener("change", () => { forfeitsField.hidden = reason.value !== "fraud"; });
    forms.push(actionForm({
      tag: "round.invalidate.v1", title: t("term.invalidate"), submit: t("term.invalidate"), danger: true,
      hint: t("term.invalidate.hint"), rule: "000 §8.4",
      fields: [field(t("term.reason"), reason), field(t("term.detail-required"), textInput("invalidate-detail", { required: true })), forfeitsField],
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
      tag: "dice.resolve-held.v1", title: t("term.resolve.title"), submit: t("term.resolve.submit"),
      hint: t("term.resolve.hint"),
      fields: [field(t("term.dice"), diceInputs("resolve")), field(t("term.reason"), textInput("resolve-reason", { required: true }))],
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
      tag: "round.resume.v1", title: t("term.resume"), submit: t("term.resume"),
      hint: t("term.resume.hint"), rule: "004 Ralat Pengendalian",
      fields: [field(t("term.fixed-required"), textInput("resume-detail", { required: true }))],
      enabled: () => suspendedRound() != null,
      build: () => ({ round: suspendedRound(), detail: $("resume-detail").value.trim() }),
    }));
  }
  if (actions.has("round.cancel.v1")) {
    // 004 "Ralat Pengendalian": only where the table's rules give it, and only now: the
    // lifecycle's own checks say so in view.cancellation (else its reason is shown).
    const form = actionForm({
      tag: "round.cancel.v1", title: t("term.cancel"), submit: t("term.cancel"), danger: true,
      hint: t("term.cancel.hint"), rule: "004 Ralat Pengendalian",
      fields: [field(t("term.reason"), textInput("cancel-reason", { required: true }))],
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
      tag: "table.change-limits.v1", title: t("term.limits.title"), submit: t("term.limits.title"),
      hint: t("term.limits.hint"), rule: "000 §4.3",
      fields: [...limitsFields("limits"), field(t("term.reason"), textInput("limits-reason", { required: true }))],
      build: () => { const limits = readLimits("limits"); return limits && { limits, reason: $("limits-reason").value.trim() }; },
    }));
  }
  if (actions.has("table.post-limits-notice.v1")) {
    forms.push(actionForm({
      tag: "table.post-limits-notice.v1", title: t("term.limits-notice.title"), submit: t("term.limits-notice.submit"),
      hint: t("term.limits-notice.hint"), rule: "000 §4.3",
      fields: [...limitsFields("notice"),
        field(t("term.effective-at"), el("input", { id: "notice-effective-at", type: "datetime-local", required: true, dataset: { ahead: "20" } }))],
      build: () => {
        const limits = readLimits("notice");
        const at = isoFromLocal($("notice-effective-at").value);
        if (!at) { flash(t("term.enter-effective"), "error"); return null; }
        return limits && { limits, effective_at: at };
      },
    }));
  }
  if (actions.has("table.post-closing-notice.v1")) {
    forms.push(actionForm({
      tag: "table.post-closing-notice.v1", title: t("term.closing.title"), submit: t("term.closing.title"),
      hint: t("term.closing.hint"), rule: "000 §8.8",
      fields: [field(t("term.close-at"), el("input", { id: "closing-at", type: "datetime-local", required: true, dataset: { ahead: "20" } }))],
      build: () => {
        const at = isoFromLocal($("closing-at").value);
        if (!at) { flash(t("term.enter-close-at"), "error"); return null; }
        return { close_at: at };
      },
    }));
  }
  if (actions.has("table.override-player-limits.v1")) {
    forms.push(actionForm({
      tag: "table.override-player-limits.v1", title: t("term.override.title"), submit: t("term.override.submit"),
      hint: t("term.override.hint"), rule: "000 §4.4",
      fields: [field(t("term.player"), textInput("override-player", { required: true, placeholder: t("term.player-id") })),
        ...limitsFields("override"), field(t("term.reason"), textInput("override-reason", { required: true }))],
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
      tag: "table.close.v1", title: t("term.close-table"), submit: t("term.close-table"), danger: true,
      hint: t("term.close-table.hint"), rule: "000 §8.8",
      fields: [], build: () => ({}),
    }));
  }
  const section = el("section", { id: "supervisor-actions", class: "admin", "aria-label": t("term.supervisor-actions") },
    el("h2", {}, t("term.supervisor")), el("div", { class: "form-grid" }, ...forms));
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
  const why = c && !c.possible && r && !ENDED.has(r.phase)
    ? t("term.no-cancel", { reason: reasonText(c.reason_words, c.reason) }) : "";
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
    tag: "table.clear-fault.v1", title: t("term.clear-fault"), submit: t("term.clear-fault"),
    hint: t("term.clear-fault.hint"), rule: "000 §7.7",
    fields: [field(t("term.fixed-required"), textInput("clear-fault-detail", { required: true }))],
    enabled: () => !!(state.view.suspended || state.view.fault),
    build: () => ({ detail: $("clear-fault-detail").value.trim() }),
  });
  return el("section", { id: "inspector-actions", class: "admin", "aria-label": t("term.inspector-actions") },
    el("h2", {}, t("term.inspector")), el("div", { class: "form-grid" }, form));
}
