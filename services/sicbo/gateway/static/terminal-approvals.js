// Dual control of the lifecycle (TableConfig.dual_control): on such a table a supervisor's
// invalidation (000 §8.4) or player's sign (000 §4.4) waits for another supervisor, who names
// what was proposed again to approve it; any supervisor may reject it.
import { actionForm, field, limitsFields, readLimits, select, textInput } from "/static/terminal-forms.js";
import { $, desk, explain, me, setText, state } from "/static/terminal-state.js";
import { el } from "/static/common.js";
import { t } from "/static/i18n.js";
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
      tag: "round.approve-invalidation.v1", title: t("term.approve-inv.title"), submit: t("term.approve"),
      hint: t("term.approve-inv.hint"), rule: "000 §8.4",
      fields: [field(t("term.reason"), reason),
        field(t("term.forfeits"), textInput("approve-invalidation-forfeits", { placeholder: t("term.players-example") }))],
      enabled: () => !!othersInvalidation(),
      build: () => ({ round: othersInvalidation()?.round, reason: reason.value,
        forfeits: players($("approve-invalidation-forfeits").value) }),
    }));
  }
  if (actions.has("round.reject-invalidation.v1")) {
    forms.push(actionForm({
      tag: "round.reject-invalidation.v1", title: t("term.reject-inv.title"), submit: t("term.reject"), danger: true,
      hint: t("term.reject-inv.hint"),
      fields: [field(t("term.reason"), textInput("reject-invalidation-reason", { required: true }))],
      enabled: () => !!pendingInvalidation(),
      build: () => ({ round: pendingInvalidation()?.round, reason: $("reject-invalidation-reason").value.trim() }),
    }));
  }
  if (actions.has("table.approve-player-limits.v1")) {
    forms.push(actionForm({
      tag: "table.approve-player-limits.v1", title: t("term.approve-sign.title"), submit: t("term.approve"),
      hint: t("term.approve-sign.hint"), rule: "000 §4.4",
      fields: [field(t("term.player"), textInput("approve-sign-player", { required: true, placeholder: t("term.player-id") })),
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
      tag: "table.reject-player-limits.v1", title: t("term.reject-sign.title"), submit: t("term.reject"), danger: true,
      hint: t("term.reject-sign.hint"),
      fields: [field(t("term.player"), textInput("reject-sign-player", { required: true, placeholder: t("term.player-id") })),
        field(t("term.reason"), textInput("reject-sign-reason", { required: true }))],
      enabled: () => pendingSigns().length > 0,
      build: () => ({ player: $("reject-sign-player").value.trim(), reason: $("reject-sign-reason").value.trim() }),
    }));
  }
  return el("section", { id: "approval-actions", class: "admin", "aria-label": t("term.dual-control") },
    el("h2", {}, t("term.second-supervisor")), status, el("div", { class: "form-grid" }, ...forms));
}

/** What waits for a second supervisor, from the table's view. */
export function showApprovals() {
  const box = desk.ui.approvalsStatus;
  if (!box || !state.view) return;
  const waiting = [];
  const inv = pendingInvalidation();
  if (inv) {
    const reason = t(`term.inv.${inv.reason}`);
    waiting.push(inv.forfeits.length
      ? t("term.waiting-inv-forfeits", { n: inv.round, reason, forfeits: inv.forfeits.join(", "), by: inv.by })
      : t("term.waiting-inv", { n: inv.round, reason, by: inv.by }));
  }
  for (const s of pendingSigns()) {
    waiting.push(t("term.waiting-sign", { limits: limitsText(s.limits), player: s.player, by: s.by }));
  }
  setText(box, waiting.length ? t("term.waiting", { what: waiting.join("; ") }) : t("term.nothing-waits"));
  explain("round.approve-invalidation.v1", inv
    ? t("term.own-inv") : t("term.no-inv"));
  explain("table.approve-player-limits.v1", pendingSigns().length
    ? t("term.own-sign") : t("term.no-sign"));
}
