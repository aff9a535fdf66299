// The board's game recall (AGCO 13.1): the last rounds with an outcome, each with its dice, its
// void, corrections, adjustments, refund and wagers, in the page's language. The log's own
// terms (no-result, dice-not-flat, ...) stay in data attributes, the words a dispute quotes.

import { clock, el, hiddenText, money } from "/static/common.js";
import { has, t } from "/static/i18n.js";
import { betName, diceFaces } from "/static/layout.js";

const sum = (dice) => (dice || []).reduce((a, b) => a + b, 0);
const given = (v) => v !== null && v !== undefined;

/** A catalogue word for one of the log's terms ("board.basis.no-result"), else the term. */
function word(prefix, term) {
  const key = `${prefix}.${term}`;
  return term && has(key) ? t(key) : String(term ?? "");
}

export const basisWords = (basis) => word("board.basis", basis);
/** A void's reason: the no-result reasons are the terminal's, the invalidations' too. */
export const reasonWords = (reason) => (has(`term.nr.${reason}`) ? t(`term.nr.${reason}`) : word("term.inv", reason));
const outcomeWords = (outcome) => word("play.outcome", outcome);

function when(text) {
  return text ? clock(text, undefined, { date: true }) : "";
}

function actorText(actor) {
  if (!actor) return "";
  return typeof actor === "string" ? actor : `${actor.id}${actor.role ? ` (${actor.role})` : ""}`;
}

function outcomeCell(recorded, final) {
  if (!recorded && !final) return el("td", { class: "muted" }, t("board.not-settled"));
  if (final && recorded && final !== recorded) {
    return el("td", { class: `outcome-${final}` }, `${outcomeWords(recorded)} → ${outcomeWords(final)}`);
  }
  return el("td", { class: `outcome-${final || recorded}` }, outcomeWords(final || recorded));
}

function moneyCell(recorded, final) {
  if (!given(recorded)) return el("td", { class: "num muted" }, given(final) ? money(final) : "—");
  if (given(final) && final !== recorded) return el("td", { class: "num" }, `${money(recorded)} → ${money(final)}`);
  return el("td", { class: "num" }, money(recorded));
}

function dl(pairs) {
  const list = el("dl", { class: "facts" });
  for (const [k, v] of pairs) {
    if (v === null || v === undefined || v === "") continue;
    list.append(el("dt", {}, t(k)), el("dd", {}, v));
  }
  return list;
}

function diceWithTotal(dice) {
  return dice ? el("span", { class: "dice-total" }, diceFaces(dice), ` = ${sum(dice)}`) : null;
}

function voidPart(v) {
  return [el("h4", {}, t("board.void")), dl([
    ["board.basis", basisWords(v.basis)],
    ["term.reason", reasonWords(v.reason)],
    ["board.detail", v.detail],
    ["board.consequence", v.consequence ? String(v.consequence).replaceAll("-", " ") : null],
    ["term.forfeits", v.forfeits && v.forfeits.length ? v.forfeits.join(", ") : null],
    ["board.by", actorText(v.actor)],
    ["board.at", when(v.at)],
  ])];
}

function wagersTable(wagers) {
  const head = ["play.col.player", "play.col.bet", "play.col.stake", "play.col.outcome", "play.col.returned",
    "dispute.col.slip"];
  return el("div", { class: "scroll-x" }, el("table", { class: "data wagers" },
    el("thead", {}, el("tr", {}, head.map((k, i) => el("th", { class: i === 2 || i === 4 ? "num" : null }, t(k))))),
    el("tbody", {}, wagers.map((w) => el("tr", {},
      el("td", {}, w.player),
      el("td", { "data-bet": w.bet }, betName(w.bet),
        w.medium && w.medium !== "chips" ? el("small", { class: "muted" }, ` ${w.medium}`) : null,
        w.carried_in ? el("small", { class: "muted" }, ` ${t("board.carried-in")}`) : null),
      el("td", { class: "num" }, money(w.stake)),
      outcomeCell(w.outcome, w.final_outcome),
      moneyCell(w.returned, w.final_returned),
      el("td", { class: "muted slip-id" }, `${w.slip_id}#${w.index}`))))));
}

function renderRound(r, enc) {
  const changed = r.final_dice && r.dice && r.final_dice.join() !== r.dice.join();
  const summary = el("summary", {},
    el("span", { class: "r-no" }, t("board.round-n", { n: r.round })),
    el("span", { class: `basis basis-${r.basis}`, "data-basis": r.basis }, basisWords(r.basis)),
    r.final_dice || r.dice ? diceWithTotal(r.final_dice || r.dice) : null,
    changed ? el("span", { class: "mk corrected", title: t("display.corrected-short") }, "✎") : null,
    given(r.staked)
      ? el("span", { class: "r-money muted" }, t("board.staked-returned", { staked: money(r.staked), returned: money(r.returned ?? 0) }))
      : el("span", { class: "r-money muted" }, t("board.not-settled")),
    el("a", { class: "dispute-link", href: `/tables/${enc}/rounds/${r.round}` }, t("board.dispute-link")));

  const body = el("div", { class: "round-body" });
  const yes = t("board.yes");
  const no = t("board.no");
  body.append(dl([
    ["board.basis", basisWords(r.basis)],
    ["board.paytable", r.paytable],
    ["board.started", when(r.started_at)],
    ["term.dice", diceWithTotal(r.dice)],
    ["board.confirmed", when(r.confirmed_at)],
    ["board.final-dice", r.final_dice ? el("span", {}, diceWithTotal(r.final_dice), changed ? ` (${t("display.corrected-short")})` : "") : null],
    ["board.staked", given(r.staked) ? money(r.staked) : null],
    ["play.col.returned", given(r.returned) ? money(r.returned) : null],
    ["board.house-result", given(r.house_result) ? money(r.house_result) : null],
    ["board.settled", r.settled ? yes : no],
    ["board.completed", r.completed ? t("board.completed-yes") : no],
  ]));
  if (r.void) body.append(...voidPart(r.void));
  if (r.corrections && r.corrections.length) {
    body.append(el("h4", {}, t("term.corrections")), el("ul", { class: "plain" }, r.corrections.map((c) =>
      el("li", {}, `#${c.seq}: `, diceFaces(c.before), " → ", diceFaces(c.after),
        ` — ${c.reason} · ${actorText(c.actor)} · ${when(c.at)}`))));
  }
  if (r.adjustments && r.adjustments.length) {
    body.append(el("h4", {}, t("board.adjustments")), el("ul", { class: "plain" }, r.adjustments.map((a) =>
      el("li", {}, t("board.adjustment", { seq: a.correction_seq, before: (a.before || []).join(" "),
        after: (a.after || []).join(" "), n: a.wagers ? a.wagers.length : 0, delta: money(a.delta) })))));
  }
  if (r.refund) {
    body.append(el("h4", {}, t("board.refund")), el("p", {}, t("board.refund-text", { seq: r.refund.cancel_seq,
      reason: r.refund.reason, n: r.refund.wagers ? r.refund.wagers.length : 0, delta: money(r.refund.delta) })));
  }
  const wagers = r.wagers || [];
  const hidden = hiddenText(r.hidden);
  body.append(el("h4", {}, t("board.wagers", { n: wagers.length + (r.hidden ? r.hidden.wagers : 0) })));
  if (wagers.length) body.append(wagersTable(wagers));
  else if (!hidden) body.append(el("p", { class: "muted" }, t("board.no-wager")));
  if (hidden) body.append(el("p", { class: "muted hidden-wagers" }, hidden));
  return el("details", { class: "round", "data-round": r.round }, summary, body);
}

/** Draw the recall into #recall, newest first, keeping the rounds the reader opened open. */
export function renderRecall(box, recall, enc) {
  const open = new Set([...box.querySelectorAll("details[open]")].map((d) => d.dataset.round));
  const rounds = [...(recall.rounds || [])].reverse(); // newest first
  box.replaceChildren();
  if (!rounds.length) {
    box.append(el("p", { class: "muted" }, t("board.no-round")));
    return;
  }
  box.append(el("p", { class: "muted" }, t(rounds.length === 1 ? "board.last-one" : "board.last-many", { n: rounds.length })));
  for (const r of rounds) {
    const node = renderRound(r, enc);
    if (open.has(String(r.round))) node.open = true;
    box.append(node);
  }
}
