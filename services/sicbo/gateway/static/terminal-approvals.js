// Dual control of the lifecycle (TableConfig.dual_control): on such a table a supervisor's
// invalidation (000 §8.4) or player's sign (000 §4.4) waits for another supervisor, who names
// what was proposed again to approve it; any supervisor may reject it.
import { actionForm, field, limitsFields, readLimits, select, textInput } from "/static/terminal-forms.js";
import { $, desk, explain, me, setText, state } from "/static/terminal-state.js";
import { el } from "/static/common.js";
import { limitsText } from "/static/signs.js";

export const APPROVAL_TAGS = [
  "round.approve-invalidation.v1", "round.reject-invalidation.v1",
  "table.approve-player-limits.v1", "table.reject-player-limits.v1",
];

const pendingInvalidation = () => (state.view && state.view.pending_invalidation) || null;
const pendingSigns = () => (state.view && state.view.pending_signs) || [];
/** Dual control: a supervisor approves only another's proposal (the server refuses their own). */
const othersInvalidation = () => { const inv = pendingInvalidation(); return inv && inv.by !== me() ? inv : null; };
const othersSigns = () => pendingSigns().filter((s) => s.by !== me());
const players = (text) => text.split(/[\s,]+/).filter(Boolean);

/** The approve and reject forms the session may send, and what waits. */
export function buildApprovals(reasons) {
  const { actions } = state;
  const forms = [];
  const status = el("p", { id: "approvals-status", class: "hint", role: "status" }, "");
  desk.ui.approvalsStatus = status;
  if (actions.has("round.approve-invalidation.v1")) {
    const reason = select("approve-invalidation-reason", reasons);
    forms.push(actionForm({
      tag: "round.approve-invalidation.v1", title: "Approve invalidation", submit: "Approve",
      hint: "Another supervisor's invalidation: enter its reason and forfeits again (000 §8.4).",
      fields: [field("Reason", reason),
        field("Forfeits", textInput("approve-invalidation-forfeits", { placeholder: "player-1, player-2" }))],
      enabled: () => !!othersInvalidation(),
      build: () => ({ round: othersInvalidation()?.round, reason: reason.value,
        forfeits: players($("approve-invalidation-forfeits").value) }),
    }));
  }
  if (actions.has("round.reject-invalidation.v1")) {
    forms.push(actionForm({
      tag: "round.reject-invalidation.v1", title: "Reject invalidation", submit: "Reject", danger: true,
      hint: "The outcome stands (a proposer may withdraw their own).",
      fields: [field("Reason", textInput("reject-invalidation-reason", { required: true }))],
      enabled: () => !!pendingInvalidation(),
      build: () => ({ round: pendingInvalidation()?.round, reason: $("reject-invalidation-reason").value.trim() }),
    }));
  }
  if (actions.has("table.approve-player-limits.v1")) {
    forms.push(actionForm({
      tag: "table.approve-player-limits.v1", title: "Approve player limits", submit: "Approve",
      hint: "Another supervisor's sign for one player: enter its limits again (000 §4.4).",
      fields: [field("Player", textInput("approve-sign-player", { required: true, placeholder: "player id" })),
        ...limitsFields("approve-sign")],
      enabled: () => othersSigns().length > 0,
      build: () => {
        const limits = readLimits("approve-sign");
        return limits && { player: $("approve-sign-player").value.trim(), limits };
      },
    }));
  }
  if (actions.has("table.reject-player-limits.v1")) {
    forms.push(actionForm({
      tag: "table.reject-player-limits.v1", title: "Reject player limits", submit: "Reject", danger: true,
      hint: "The player keeps the limits they have.",
      fields: [field("Player", textInput("reject-sign-player", { required: true, placeholder: "player id" })),
        field("Reason", textInput("reject-sign-reason", { required: true }))],
      enabled: () => pendingSigns().length > 0,
      build: () => ({ player: $("reject-sign-player").value.trim(), reason: $("reject-sign-reason").value.trim() }),
    }));
  }
  return el("section", { id: "approval-actions", class: "admin", "aria-label": "dual control" },
    el("h2", {}, "Second supervisor"), status, el("div", { class: "form-grid" }, ...forms));
}

/** What waits for a second supervisor, from the table's view. */
export function showApprovals() {
  const box = desk.ui.approvalsStatus;
  if (!box || !state.view) return;
  const waiting = [];
  const inv = pendingInvalidation();
  if (inv) {
    const lost = inv.forfeits.length ? `, forfeits ${inv.forfeits.join(", ")}` : "";
    waiting.push(`invalidation of round ${inv.round} (${inv.reason}${lost}) by ${inv.by}`);
  }
  for (const s of pendingSigns()) {
    waiting.push(`limits ${limitsText(s.limits)} for ${s.player} by ${s.by}`);
  }
  setText(box, waiting.length ? `Waiting: ${waiting.join("; ")}.` : "Nothing waits for approval.");
  explain("round.approve-invalidation.v1", inv
    ? "You proposed this invalidation: another supervisor approves it."
    : "No invalidation waits for approval.");
  explain("table.approve-player-limits.v1", pendingSigns().length
    ? "You proposed these limits: another supervisor approves them."
    : "No player's limits wait for approval.");
}
