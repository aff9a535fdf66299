// The dispute view's account of the replay: which log sequence the settlement was replayed to,
// what came after it (a correction, its adjustment, a cancellation) and how it changed the
// round, and the log's invariant findings of the round (replay's `invariants`).
import { el } from "/static/common.js";
import { t } from "/static/i18n.js";

const CORRECTED = "dice.result-corrected.v1";
const ADJUSTED = "settle.adjusted.v1";
const VOIDED = "settle.voided.v1";
/** What may change a round after its settlement: the rest after it (the settlement's own
 * events, the round's completion, the lamps) is the settlement carried out. */
const CHANGES = new Set([CORRECTED, ADJUSTED, VOIDED, "round.invalidated.v1", "round.cancelled.v1"]);
const changedLater = (r) => (r.history || []).filter((h) => h.seq > r.as_of && CHANGES.has(h.type));

/** The invariant checks (services/sicbo/replay/findings.py CHECKS): each one's words are the
 * catalogues' "dispute.check.<check>", what it guards. */
export const CHECKS = ["betting", "subject", "contract", "role", "round-order", "settlement", "chain",
  "token", "account"];
const checkName = (check) => (CHECKS.includes(check) ? t(`dispute.check.${check}`) : "");

const dice = (d) => (d ? d.join("-") : "?");
const seqs = (rows) => rows.map((h) => h.seq).join(", ");
/** The catalogue's "<key>-one" for one, "<key>-many" for more. */
const counted = (key, rows, params) => t(`${key}-${rows.length === 1 ? "one" : "many"}`,
  { n: rows.length, seqs: seqs(rows), ...params });

/**
 * Sentences saying which sequence the settlement was replayed to and how what came later
 * changed it (pure: from the RoundReport), in the page's language.
 */
export function replaySentences(r) {
  if (!r || r.status === "NOT STARTED") return [];
  if (r.status === "NOT SETTLED") return [t("dispute.r.not-settled")];
  const out = [t("dispute.r.replayed", { seq: r.as_of, dice: dice(r.dice) })];
  const later = changedLater(r);
  const corrections = later.filter((h) => h.type === CORRECTED);
  const adjustments = later.filter((h) => h.type === ADJUSTED);
  const voids = later.filter((h) => h.type === VOIDED);
  const changed = r.final_dice && r.dice && r.final_dice.join() !== r.dice.join();
  if (corrections.length) {
    out.push(changed ? counted("dispute.r.corrected", corrections, { dice: dice(r.final_dice) })
      : counted("dispute.r.kept", corrections));
  }
  if (adjustments.length) out.push(counted("dispute.r.adjusted", adjustments));
  if ((r.pending_corrections || []).length) {
    out.push(t("dispute.r.pending", { seqs: r.pending_corrections.join(", ") }));
  }
  if (voids.length || r.voided_by) out.push(t("dispute.r.voided", { seqs: r.voided_by ?? seqs(voids) }));
  if (!later.length && !r.voided_by) out.push(t("dispute.r.nothing-later"));
  return out;
}

/** Draw the replay's sentences and the invariant findings into the page. */
export function renderReplay(r, $) {
  $("replayed").replaceChildren(...replaySentences(r).map((s) => el("p", {}, s)));
  const findings = (r && r.invariants) || [];
  $("findings").replaceChildren(...findings.map((f) => el("li", { "data-seq": f.seq, "data-check": f.check },
    el("span", { class: "num" }, `#${f.seq}`), " ",
    el("strong", { title: checkName(f.check) }, f.check), ": ", f.message)));
  $("findings").hidden = findings.length === 0;
  $("no-findings").hidden = findings.length > 0;
}

/** Mark the history rows that changed the round after the settlement's reading. */
export function markLater(r, body) {
  const later = new Set(r.as_of ? changedLater(r).map((h) => String(h.seq)) : []);
  for (const row of body.rows) {
    const changed = later.has(row.dataset.seq);
    row.classList.toggle("after-replay", changed);
    row.title = changed ? t("dispute.after-replay") : "";
  }
}
