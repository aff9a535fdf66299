// The play page's bets on the layout: the chips the player has put down but not yet confirmed
// (the slip), and those the service accepted this round (confirmed: they stay on their spots,
// solid, with the round's total bet). Undo takes back the last chip or action, clear the whole
// slip, rebet puts down the player's last round's bets again, double doubles every bet of the
// round. While betting is closed (locked) nothing is put down.
import { t } from "/static/i18n.js";
import { el, money } from "/static/common.js";
import { betName } from "/static/layout.js";

const $ = (id) => document.getElementById(id);
const box = $("layout");

export const slip = new Map(); // bet id -> stake (minor units) not yet confirmed, in tap order
const confirmed = new Map(); // slip id -> {round, wagers: [{bet, stake}]}: accepted slips
const undoStack = []; // the slip as it was before each change
let round = null; // the round bets go to now
let locked = true;

export function setRound(number) {
  if (number === round) return;
  round = number;
  undoStack.length = 0;
  renderSlip();
}

/** Lock (betting closed) or unlock the layout; chips not confirmed at the lock were no bets. */
export function setLocked(value) {
  if (value === locked) return false;
  locked = value;
  const dropped = locked && slip.size > 0;
  if (locked) {
    slip.clear();
    undoStack.length = 0;
  }
  box.classList.toggle("locked", locked);
  renderSlip();
  return dropped;
}

export const isLocked = () => locked;

function change(fn) {
  if (locked) return false;
  undoStack.push(new Map(slip));
  fn();
  renderSlip();
  return true;
}

export function addToSlip(bet, stake) {
  return change(() => slip.set(bet, (slip.get(bet) || 0) + stake));
}

export function undo() {
  if (locked || !undoStack.length) return;
  const before = undoStack.pop();
  slip.clear();
  for (const [bet, stake] of before) slip.set(bet, stake);
  renderSlip();
}

export function clearSlip() {
  if (!slip.size) return;
  if (locked) slip.clear();
  else change(() => slip.clear());
  renderSlip();
}

/** The player's bets of the round before this one that they bet in (merged by spot). */
export function lastRoundBets() {
  let last = null;
  for (const s of confirmed.values()) if (s.round !== round && (last === null || s.round > last)) last = s.round;
  return last === null ? new Map() : betsOf(last);
}

export function rebet() {
  const again = lastRoundBets();
  if (again.size) change(() => { for (const [bet, stake] of again) slip.set(bet, (slip.get(bet) || 0) + stake); });
}

/** Double: every chip on the slip doubled; with none, the round's confirmed bets once more. */
export function double() {
  const base = slip.size ? new Map(slip) : betsOf(round);
  if (base.size) change(() => { for (const [bet, stake] of base) slip.set(bet, (slip.get(bet) || 0) + stake); });
}

/** The accepted bets of round `n`, merged by spot. */
export function betsOf(n) {
  const out = new Map();
  for (const s of confirmed.values()) {
    if (s.round !== n) continue;
    for (const w of s.wagers) out.set(w.bet, (out.get(w.bet) || 0) + w.stake);
  }
  return out;
}

/** Signed out: nothing of this player's stays on the layout for the next one. */
export function forgetBets() {
  confirmed.clear();
  slip.clear();
  undoStack.length = 0;
  renderSlip();
}

/** A slip the service just accepted (before the history shows it). */
export function noteConfirmed(slipId, number, wagers) {
  confirmed.set(slipId, { round: number, wagers });
  slip.clear();
  undoStack.length = 0;
  renderSlip();
}

/** The player's standing slips as the history has them (a carried slip stands in its last round). */
export function syncConfirmed(history) {
  const seen = new Set();
  for (const record of history.slips || []) {
    if (record.status !== "active") continue;
    const rounds = record.rounds && record.rounds.length ? record.rounds : [record.round];
    confirmed.set(record.slip_id, { round: Math.max(...rounds), wagers: record.wagers || [] });
    seen.add(record.slip_id);
  }
  for (const id of [...confirmed.keys()]) if (!seen.has(id) && confirmed.get(id).round !== round) confirmed.delete(id);
  renderSlip();
}

const sum = (map) => [...map.values()].reduce((a, b) => a + b, 0);
export const slipTotal = () => sum(slip);

function marker(kind, stake, what) {
  return el("span", { class: `chip-marker ${kind}`, "aria-label": `${what}: ${money(stake)}` }, money(stake));
}

export function renderMarkers() {
  const placed = betsOf(round);
  for (const old of box.querySelectorAll(".chip-marker")) old.remove();
  for (const spot of box.querySelectorAll(".spot")) {
    const mine = placed.get(spot.dataset.bet);
    const pending = slip.get(spot.dataset.bet);
    spot.classList.toggle("has-chip", Boolean(mine || pending));
    if (mine) spot.append(marker("confirmed", mine, t("play.slip.your-bet")));
    if (pending) spot.append(marker("pending", pending, t("play.slip.pending")));
  }
}

function line(bet, stake, status) {
  const label = betName(bet);
  return el("li", { "data-bet": bet, class: status },
    el("span", { class: "bet-name" }, label),
    el("span", { class: "stake" }, money(stake)),
    status === "pending"
      ? el("button", { type: "button", class: "remove", title: t("play.slip.take-off", { bet: label }), "aria-label": t("play.slip.remove", { bet: label }),
        disabled: locked, onclick: () => change(() => slip.delete(bet)) }, "✕")
      : el("span", { class: "tick", title: t("play.slip.placed"), "aria-label": t("play.slip.placed") }, "✓"));
}

export function renderSlip() {
  const placed = betsOf(round);
  const list = $("slip");
  list.replaceChildren(
    ...[...placed].map(([bet, stake]) => line(bet, stake, "confirmed")),
    ...[...slip].map(([bet, stake]) => line(bet, stake, "pending")),
  );
  $("slip-empty").hidden = list.children.length > 0;
  $("slip-empty").textContent = locked ? t("play.slip.none") : t("play.slip.empty");
  $("total-bet").textContent = money(sum(placed) + sum(slip));
  $("slip-total").textContent = slip.size ? t("play.slip.to-confirm", { amount: money(sum(slip)) }) : "";
  $("confirm-slip").disabled = locked || slip.size === 0;
  $("clear-slip").disabled = locked || slip.size === 0;
  $("undo-slip").disabled = locked || undoStack.length === 0;
  $("rebet-slip").disabled = locked || lastRoundBets().size === 0;
  $("double-slip").disabled = locked || (slip.size === 0 && placed.size === 0);
  for (const chip of document.querySelectorAll("button[data-chip]")) chip.disabled = locked;
  renderMarkers();
}
