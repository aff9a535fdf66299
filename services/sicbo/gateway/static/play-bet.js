// The play page's betting: the chips, the slip's buttons (undo, clear, rebet, double,
// confirm), the countdown ring and the lock at its end; a slip sent to the gateway, its
// refusal said in plain words (the service's own on the tooltip) until it no longer applies.
import { t } from "/static/i18n.js";
import { api, money, newCommandId } from "/static/common.js";
import { bettingNow, drawRing, makeRing } from "/static/play-countdown.js";
import {
  addToSlip, clearSlip, double, noteConfirmed, rebet, renderSlip, setLocked, setRound, slip, slipTotal, undo,
} from "/static/play-slip.js";
import { plainRefusal } from "/static/play-words.js";

const $ = (id) => document.getElementById(id);

/**
 * Wire the betting controls. `page` gives view() and skew() (the latest TableView and the
 * clock offset), say(text, kind, ms, detail), lostSession(err) and placed() (after an accept).
 */
export function startBetting(page) {
  const state = { chip: 100, sending: false, pending: null, refusal: null };
  const ring = makeRing($("countdown"));

  for (const button of document.querySelectorAll("button[data-chip]")) {
    button.textContent = money(Number(button.dataset.chip), null);
    button.setAttribute("aria-label", t("play.chip", { amount: money(Number(button.dataset.chip)) }));
    button.addEventListener("click", () => selectChip(Number(button.dataset.chip)));
  }
  function selectChip(value) {
    state.chip = value;
    for (const button of document.querySelectorAll("button[data-chip]")) {
      button.setAttribute("aria-pressed", String(Number(button.dataset.chip) === value));
    }
  }
  selectChip(state.chip);

  // A refusal is of the slip as it was: changing the slip leaves it behind.
  const changing = (fn) => () => { fn(); clearRefusal(); };
  $("undo-slip").addEventListener("click", changing(undo));
  $("clear-slip").addEventListener("click", changing(clearSlip));
  $("rebet-slip").addEventListener("click", changing(rebet));
  $("double-slip").addEventListener("click", changing(double));
  $("confirm-slip").addEventListener("click", confirm);

  /** The round bets go to: the current one, else the next. */
  function roundNow() {
    const view = page.view();
    return view && view.round ? view.round.number : view ? view.next_round : null;
  }

  async function confirm() {
    if (!slip.size || state.sending) return;
    const round = roundNow();
    const wagers = [...slip].map(([bet, stake]) => ({ bet, stake }));
    const key = JSON.stringify([round, wagers]);
    // A slip whose answer was lost is retried with the same id: never placed twice.
    const id = state.pending && state.pending.key === key ? state.pending.id : newCommandId("slip");
    state.pending = { key, id };
    state.sending = true;
    $("confirm-slip").setAttribute("aria-busy", "true");
    $("confirm-slip").disabled = true;
    const total = slipTotal();
    try {
      await api("POST", `/api/tables/${page.enc}/slips`, { command_id: id, round, wagers });
      state.pending = null;
      noteConfirmed(id, round, wagers);
      const n = wagers.length;
      clearRefusal();
      page.say(t(n === 1 ? "play.placed-one" : "play.placed-many", { n, amount: money(total) }), "ok", 6000);
      page.placed();
    } catch (err) {
      // Only an unanswered call (no gateway, no service) may have been placed after all.
      if (err.status !== 0 && err.status !== 503) state.pending = null;
      if (!page.lostSession(err)) {
        const { text, detail } = plainRefusal(err, wagers);
        state.refusal = { round };
        page.say(text, "error", 0, detail);
      }
    } finally {
      state.sending = false;
      $("confirm-slip").removeAttribute("aria-busy");
      renderSlip();
    }
  }

  function clearRefusal() {
    if (state.refusal) page.say("");
    state.refusal = null;
  }

  /** Every quarter second and after each view: the ring, the lock, the round bets go to. */
  function tick() {
    const view = page.view();
    if (!view) return;
    const now = bettingNow(view, page.skew());
    drawRing(ring, now, view);
    const round = roundNow();
    setRound(round);
    // A refusal no longer applies once a new round opens betting.
    if (state.refusal && round !== state.refusal.round && now.open) clearRefusal();
    if (setLocked(!now.open)) page.say(t("play.closed-unconfirmed"), "info", 6000);
  }
  setInterval(tick, 250);
  renderSlip();

  return {
    tick,
    addChip: (bet) => { if (addToSlip(bet, state.chip)) clearRefusal(); },
  };
}
