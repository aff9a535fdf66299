// The table's signs as players see them, on the player's page and the layout (000 §4.1: the
// limits; §4.3: new limits and their time; §4.4: a player's own sign; §8.8: the closing time;
// §8.9: a vacate notice). Each sign is one line of a list with its data-sign kind.
import { has, t } from "/static/i18n.js";
import { clock, el, money } from "/static/common.js";

/** "1.00 – 500.00" with the step above the minimum when the sign gives one. */
export function limitsText(limits, currency = undefined) {
  if (!limits) return "—";
  const unit = limits.unit && limits.unit > 1 ? ` (${t("sign.steps", { amount: money(limits.unit, currency) })})` : "";
  return `${money(limits.minimum, currency)} – ${money(limits.maximum, currency)}${unit}`;
}

/** The sign's lines for single bet kinds (000 §4.1): "Triples 1.00 – 50.00", each. */
export function kindLinesText(view) {
  return ((view && view.limits_by_kind) || []).map(
    (line) => `${has(`sign.kind.${line.kind}`) ? t(`sign.kind.${line.kind}`) : line.name} ${money(line.minimum, view.currency)} – ${money(line.maximum, view.currency)}`);
}

/** A moment as the pages write one (common.js clock: the table's time zone, date if not today). */
export function when(iso) {
  return clock(iso);
}

/** The signs of a TableView, as [kind, text] pairs; ``player``: whose own signs to show. */
export function signsOf(view, player) {
  if (!view || !view.limits) return [];
  const signs = [["limits", t("sign.limits", { limits: limitsText(view.limits) })]];
  for (const line of kindLinesText(view)) signs.push(["kind-limits", line]);
  for (const n of view.limits_notices || []) {
    signs.push(["limits-notice", t("sign.new-limits", { limits: limitsText(n.limits), at: when(n.effective_at) })]);
  }
  const own = player && view.player_signs ? view.player_signs[player] : null;
  if (own) signs.push(["own-limits", t("sign.own", { limits: limitsText(own) })]);
  if (player) signs.push(...waitingFor(view, player));
  if (view.closing_notice) signs.push(["closing", t("sign.closing", { at: when(view.closing_notice) })]);
  if (player && (view.vacate_notices || []).includes(player)) {
    signs.push(["vacate", t("sign.vacate")]);
  }
  return signs;
}

/** Draw the signs into ``box`` (a list), hidden when there are none. */
export function renderSigns(box, view, player = null) {
  if (!box) return;
  const signs = signsOf(view, player);
  box.replaceChildren(...signs.map(([kind, text]) => el("li", { "data-sign": kind }, text)));
  box.hidden = signs.length === 0;
}

/** What a player's own sign (000 §4.4) and an invalidation of the round (000 §8.4) wait for: a
 * second supervisor's approval; until then nothing has changed. */
function waitingFor(view, player) {
  const signs = [];
  for (const s of view.pending_signs || []) {
    if (s.player !== player) continue;
    signs.push(["own-limits-pending", t("sign.own-pending", { limits: limitsText(s.limits) })]);
  }
  const inv = view.pending_invalidation;
  if (inv) {
    const why = inv.reason.replaceAll("-", " ");
    const yours = (inv.forfeits || []).includes(player)
      ? t("sign.invalidation-forfeit") : "";
    signs.push(["invalidation-pending", t("sign.invalidation", { n: inv.round, why, yours })]);
  }
  return signs;
}
