// The dealer records a player's chips on the layout (000 §3.10-3.11: the player positions the
// wager, the dealer may assist), for a round played at the table: one slip per player, sent as
// bets.place-slip.v1 with the player named; the gateway stamps the dealer as its actor.
import { api, el, errorText, minorFromTyped, money } from "/static/common.js";
import { has, t } from "/static/i18n.js";
import { betName } from "/static/layout.js";
import { send } from "/static/terminal-gateway.js";
import { desk, flash, page, playGate, setText, state, tableApi } from "/static/terminal-state.js";

export const SLIP_TAG = "bets.place-slip.v1";

/** The slip being written (lines of {bet, name, stake}) and the slips recorded this round. */
const slip = { lines: [], round: null, recorded: [], spots: new Map(), paytable: null };

const bettingOpen = () => state.view?.round?.phase === "betting-open";

function bettingWhy() {
  const r = state.view.round;
  if (!r || r.phase === "started") return t("term.slip.once-open");
  return t("term.slip.closed");
}

export function buildSlips() {
  const { ui } = desk;
  ui.slipPlayer = el("input", { id: "slip-player", type: "text", required: true, maxlength: 64,
    list: "slip-seated", autocomplete: "off", autocapitalize: "none", spellcheck: "false",
    placeholder: t("term.slip.player-placeholder") });
  ui.slipSeated = el("datalist", { id: "slip-seated" });
  ui.slipBet = el("select", { id: "slip-bet", required: true });
  ui.slipStake = el("input", { id: "slip-stake", type: "text", inputmode: "decimal",
    autocomplete: "off", placeholder: t("term.slip.amount-example"), "aria-describedby": "slip-limits" });
  ui.slipLimits = el("small", { id: "slip-limits", class: "muted" });
  ui.slipLines = el("ul", { id: "slip-lines", class: "slip-lines" });
  ui.slipTotal = el("p", { id: "slip-total", class: "slip-total" });
  ui.slipRecorded = el("ul", { id: "slip-recorded", class: "slip-recorded muted", "aria-label": t("term.slip.recorded-label") });
  const add = playGate(el("button", { type: "button", id: "slip-add", onclick: addLine }, t("term.slip.add")),
    bettingOpen, bettingWhy);
  const record = playGate(el("button", { type: "submit", id: "slip-record", class: "primary",
    dataset: { action: SLIP_TAG } }, t("term.slip.record")),
  () => bettingOpen() && slip.lines.length > 0,
  () => (bettingOpen() ? t("term.slip.add-first") : bettingWhy()));
  const form = el("form", { id: "slip-form", class: "slip-form", autocomplete: "off", onsubmit: recordSlip },
    el("label", { class: "field" }, t("term.player"), ui.slipPlayer, ui.slipSeated),
    el("label", { class: "field" }, t("term.slip.spot"), ui.slipBet),
    el("label", { class: "field" }, t("term.slip.amount"), ui.slipStake),
    el("div", { class: "slip-buttons" }, add),
    ui.slipLines, ui.slipTotal, el("div", { class: "slip-buttons" }, record));
  ui.slipSection = el("section", { id: "player-chips", class: "panel player-chips", "aria-label": t("term.slip.label") },
    el("h2", {}, t("term.slip.title")),
    el("p", { class: "hint" }, `${t("term.slip.hint")} `,
      ui.slipLimits),
    form, ui.slipRecorded);
  return ui.slipSection;
}

/** A group of the layout's spots by the layout's own title (catalogue "layout.group.<name>"). */
function groupTitle(group) {
  const key = `layout.group.${group.name}`;
  return has(key) ? t(key) : group.title;
}

async function loadSpots(paytable) {
  slip.paytable = paytable;
  try {
    const layout = await api("GET", `${tableApi}/layout`);
    slip.spots = new Map();
    const groups = (layout.groups || []).map((g) => el("optgroup", { label: groupTitle(g) },
      ...g.spots.map((s) => {
        const name = betName(s.bet);
        slip.spots.set(s.bet, name);
        return el("option", { value: s.bet }, t("term.slip.pays", { name, pays: s.pays }));
      })));
    desk.ui.slipBet.replaceChildren(...groups);
    page.update();
  } catch (err) {
    slip.paytable = null; // asked again at the next update
    flash(t("term.slip.unreadable", { message: errorText(err) }), "error");
  }
}

function addLine() {
  const { ui } = desk;
  const stake = minorFromTyped(ui.slipStake.value); // the table's money, in minor units
  if (!stake) { flash(t("term.slip.bad-amount"), "error"); ui.slipStake.focus(); return; }
  const bet = ui.slipBet.value;
  if (!bet) { flash(t("term.slip.choose-spot"), "error"); return; }
  const same = slip.lines.find((l) => l.bet === bet);
  if (same) same.stake += stake;
  else slip.lines.push({ bet, name: slip.spots.get(bet) || bet, stake });
  ui.slipStake.value = "";
  page.update();
}

async function recordSlip(event) {
  event.preventDefault();
  const { ui } = desk;
  const r = state.view && state.view.round;
  const player = ui.slipPlayer.value.trim();
  if (!player) { flash(t("term.slip.whose"), "error"); ui.slipPlayer.focus(); return; }
  if (!r || !slip.lines.length) return;
  const lines = [...slip.lines];
  const reply = await send({ type: SLIP_TAG, round: r.number, player,
    wagers: lines.map((l) => ({ bet: l.bet, stake: l.stake })) });
  if (reply) {
    slip.recorded.push({ player, lines });
    slip.lines = [];
    page.update();
  }
}

/** Draw the slip being written and the slips recorded; forget both when the round changes. */
export function showSlips() {
  const { ui } = desk;
  const { view } = state;
  if (!ui.slipBet || !view) return;
  // At a table with a betting countdown the players bet from their own screens (004).
  ui.slipSection.hidden = view.betting_seconds != null || view.profile === "online-live";
  if (view.paytable && view.paytable !== slip.paytable) loadSpots(view.paytable);
  const number = view.round ? view.round.number : null;
  if (slip.round !== number) { slip.round = number; slip.lines = []; slip.recorded = []; }
  const seated = Object.entries(view.seats || {}).map(([seat, player]) =>
    el("option", { value: player }, t("term.slip.seat", { seat })));
  if (ui.slipSeated.childElementCount !== seated.length) ui.slipSeated.replaceChildren(...seated);
  const l = view.limits;
  setText(ui.slipLimits, l ? t("term.slip.limits", { min: money(l.minimum), max: money(l.maximum), unit: money(l.unit) }) : "");
  const key = JSON.stringify([slip.lines, slip.recorded.length]);
  if (ui.slipLines.dataset.key !== key) { // redrawn only when it changed: a press is never lost
    ui.slipLines.dataset.key = key;
    ui.slipLines.replaceChildren(...slip.lines.map((line, i) => el("li", {},
      `${line.name}: ${money(line.stake)} `,
      el("button", { type: "button", class: "slip-remove", "aria-label": t("term.slip.remove", { name: line.name }),
        onclick: () => { slip.lines.splice(i, 1); page.update(); } }, "✕"))));
  }
  const total = slip.lines.reduce((a, line) => a + line.stake, 0);
  setText(ui.slipTotal, slip.lines.length ? t("term.slip.total", { amount: money(total) }) : "");
  ui.slipRecorded.replaceChildren(...slip.recorded.map((s) => el("li", { dataset: { player: s.player } },
    t("term.slip.recorded", { player: s.player, lines: s.lines.map((line) => `${line.name} ${money(line.stake)}`).join(", ") }))));
}
