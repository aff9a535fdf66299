// The dispute view's account of the replay: which log sequence the settlement was replayed to,
// what came after it (a correction, its adjustment, a cancellation) and how it changed the
// round, and the log's invariant findings of the round (replay's `invariants`).
import { el } from "/static/common.js";

const CORRECTED = "dice.result-corrected.v1";
const ADJUSTED = "settle.adjusted.v1";
const VOIDED = "settle.voided.v1";
/** What may change a round after its settlement: the rest after it (the settlement's own
 * events, the round's completion, the lamps) is the settlement carried out. */
const CHANGES = new Set([CORRECTED, ADJUSTED, VOIDED, "round.invalidated.v1", "round.cancelled.v1"]);
const changedLater = (r) => (r.history || []).filter((h) => h.seq > r.as_of && CHANGES.has(h.type));

/** What each invariant check guards, in words (services/sicbo/replay/findings.py CHECKS). */
export const CHECK_NAMES = {
  betting: "slips only while betting is open",
  subject: "each event on its own table's and round's subject",
  contract: "each event a known, readable type",
  role: "each event written by a role that may",
  "round-order": "rounds in order, each settled before the next",
  settlement: "every accepted wager settled exactly once",
  chain: "corrections chained to what they follow",
  token: "promotional tokens staked as issued, once",
  account: "players' accounts: each entry once, balances their sum",
};

const dice = (d) => (d ? d.join("-") : "?");
const seqs = (rows) => rows.map((h) => h.seq).join(", ");
const plural = (n, one, many) => (n === 1 ? one : many);

/**
 * Sentences saying which sequence the settlement was replayed to and how what came later
 * changed it (pure: from the RoundReport).
 */
export function replaySentences(r) {
  if (!r || r.status === "NOT STARTED") return [];
  if (r.status === "NOT SETTLED") {
    return ["The round has no settlement in the log yet: nothing was replayed."];
  }
  const out = [`The settlement was replayed from the log as the settlement service read it: up to`
    + ` log sequence ${r.as_of}, with the dice ${dice(r.dice)}.`];
  const later = changedLater(r);
  const corrections = later.filter((h) => h.type === CORRECTED);
  const adjustments = later.filter((h) => h.type === ADJUSTED);
  const voids = later.filter((h) => h.type === VOIDED);
  const changed = r.final_dice && r.dice && r.final_dice.join() !== r.dice.join();
  if (corrections.length) {
    out.push(`Later, ${plural(corrections.length, "a correction", `${corrections.length} corrections`)}`
      + ` at log ${plural(corrections.length, "sequence", "sequences")} ${seqs(corrections)}`
      + (changed ? ` changed the result to ${dice(r.final_dice)}.` : " left the result as it was."));
  }
  if (adjustments.length) {
    out.push(`The settlement was adjusted at log ${plural(adjustments.length, "sequence", "sequences")}`
      + ` ${seqs(adjustments)}: the returns below are as adjusted.`);
  }
  if ((r.pending_corrections || []).length) {
    out.push(`Not yet adjusted: the correction at log sequence ${r.pending_corrections.join(", ")}.`);
  }
  if (voids.length || r.voided_by) {
    out.push(`The round was cancelled after its result (log sequence ${r.voided_by ?? seqs(voids)}):`
      + " every wager refunded.");
  }
  if (!later.length && !r.voided_by) out.push("No correction or cancellation came after it.");
  return out;
}

/** Draw the replay's sentences and the invariant findings into the page. */
export function renderReplay(r, $) {
  $("replayed").replaceChildren(...replaySentences(r).map((s) => el("p", {}, s)));
  const findings = (r && r.invariants) || [];
  $("findings").replaceChildren(...findings.map((f) => el("li", { "data-seq": f.seq, "data-check": f.check },
    el("span", { class: "num" }, `#${f.seq}`), " ",
    el("strong", { title: CHECK_NAMES[f.check] || "" }, f.check), ": ", f.message)));
  $("findings").hidden = findings.length === 0;
  $("no-findings").hidden = findings.length > 0;
}

/** Mark the history rows that changed the round after the settlement's reading. */
export function markLater(r, body) {
  const later = new Set(r.as_of ? changedLater(r).map((h) => String(h.seq)) : []);
  for (const row of body.rows) {
    const changed = later.has(row.dataset.seq);
    row.classList.toggle("after-replay", changed);
    row.title = changed ? "after the settlement's reading of the log" : "";
  }
}
