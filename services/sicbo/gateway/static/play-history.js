// The play page's history: the player's slips at this table, each wager with how it settled.
import { t } from "/static/i18n.js";
import { clock, el, money } from "/static/common.js";
import { betName, diceFaces } from "/static/layout.js";

/** How wager `index` of the slip settled: the last settlement of it, after adjustments. */
function settled(record, index) {
  let out = null;
  for (const s of record.settlements || []) {
    for (const r of s.results || []) {
      if (r.index === index) out = { outcome: r.outcome, returned: r.returned, round: s.round };
    }
    for (const a of s.adjustments || []) {
      if (a.index === index && a.after) {
        out = { outcome: a.after.outcome, returned: a.after.returned, round: s.round, adjusted: true };
      }
    }
  }
  return out;
}

const OUTCOMES = new Set(["win", "lose", "void", "carried", "forfeit"]);
const STATUSES = new Set(["withdrawn", "cancelled"]);
const outcomeWords = (o) => (OUTCOMES.has(o) ? t(`play.outcome.${o}`) : o);
const statusWords = (s) => (STATUSES.has(s) ? t(`play.status.${s}`) : s);

/** Draw GET /api/tables/{t}/history into the #history table, one tbody per slip. */
export function renderHistory(history) {
  const tableEl = document.getElementById("history");
  for (const body of tableEl.querySelectorAll("tbody")) body.remove();
  const slips = history.slips || [];
  document.getElementById("history-empty").hidden = slips.length > 0;
  for (const record of slips) {
    const gone = record.status !== "active";
    const wagers = record.wagers && record.wagers.length ? record.wagers : record.placed || [];
    const body = el("tbody", { class: "slip-rows", "data-slip": record.slip_id });
    const rounds = record.rounds && record.rounds.length > 1 ? ` → ${record.rounds.slice(1).join(", ")}` : "";
    const last = (record.settlements || []).filter((s) => s.dice).at(-1);
    wagers.forEach((w, i) => {
      const tr = el("tr", {});
      if (i === 0) {
        const span = String(wagers.length);
        tr.append(
          el("td", { rowspan: span },
            el("strong", {}, `${record.round}${rounds}`),
            last ? el("div", {}, diceFaces(last.dice)) : null,
            gone ? el("div", {}, el("span", { class: `status ${record.status}` }, statusWords(record.status))) : null),
          el("td", { rowspan: span, class: "col-placed" }, clock(record.placed_at),
            record.changes ? el("div", {}, el("small", {}, t("play.history.changed", { n: record.changes }))) : null),
        );
      }
      const result = gone ? null : settled(record, i);
      tr.append(
        el("td", {}, betName(w.bet)),
        el("td", { class: "num" }, money(w.stake)),
      );
      if (gone) {
        tr.append(el("td", { class: "muted" }, statusWords(record.status)), el("td", { class: "num muted" }, "—"));
      } else if (result) {
        tr.append(
          el("td", { class: `outcome-${result.outcome}` }, outcomeWords(result.outcome),
            result.adjusted ? el("small", {}, ` (${t("play.history.corrected")})`) : null),
          el("td", { class: "num" }, money(result.returned)),
        );
      } else {
        tr.append(el("td", { class: "muted" }, t("play.history.waiting")), el("td", { class: "num muted" }, "—"));
      }
      body.append(tr);
    });
    tableEl.append(body);
  }
}
