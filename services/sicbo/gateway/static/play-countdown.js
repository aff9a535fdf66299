// The play page's countdown ring: it empties as the round's betting window runs out, then
// says "No more bets". Driven by the round's closes_at (the server's clock: the view's
// server_time gives the offset of this device's clock), only a guide: the wagers service
// judges every slip against its own clock.
import { t } from "/static/i18n.js";
import { el } from "/static/common.js";

const SVG = "http://www.w3.org/2000/svg";
const R = 44;
const CIRCUMFERENCE = 2 * Math.PI * R;

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/** Draw the empty ring into `box` once; returns the parts tick() updates. */
export function makeRing(box) {
  const fill = svg("circle", { class: "ring-fill", cx: 50, cy: 50, r: R, "stroke-dasharray": CIRCUMFERENCE });
  const ring = svg("svg", { class: "ring", viewBox: "0 0 100 100", "aria-hidden": "true" });
  ring.append(svg("circle", { class: "ring-track", cx: 50, cy: 50, r: R }), fill);
  const seconds = el("span", { class: "ring-seconds" });
  const label = el("span", { class: "ring-label" });
  box.replaceChildren(ring, el("span", { class: "ring-text" }, seconds, label));
  return { box, fill, seconds, label };
}

/**
 * Where betting stands in `view` now: {open, leftMs, totalMs}. Open while the round's phase is
 * betting-open, the table not suspended and (on a countdown table) closes_at not reached.
 */
export function bettingNow(view, skew) {
  const round = view && view.round;
  if (!round || round.phase !== "betting-open" || view.suspended || !view.remote_players) {
    return { open: false, leftMs: 0, totalMs: 0 };
  }
  if (!round.closes_at) return { open: true, leftMs: null, totalMs: null };
  const leftMs = Math.max(0, Date.parse(round.closes_at) - (Date.now() + skew));
  // A resumed round may have more left than the configured window: the ring starts full.
  const totalMs = Math.max((view.betting_seconds || 0) * 1000, leftMs, 1);
  return { open: leftMs > 0, leftMs, totalMs };
}

/** Update the ring for `now` (bettingNow's answer) and whether the view has a round. */
export function drawRing(parts, now, view) {
  const { box, fill, seconds, label } = parts;
  const waiting = !view || !view.round;
  let frac = 0;
  if (now.open) frac = now.leftMs === null ? 1 : now.leftMs / now.totalMs;
  fill.setAttribute("stroke-dashoffset", String(CIRCUMFERENCE * (1 - frac)));
  const left = now.open && now.leftMs !== null ? Math.ceil(now.leftMs / 1000) : null;
  seconds.textContent = left === null ? "" : String(left);
  box.dataset.left = left === null ? "" : String(left);
  box.classList.toggle("long", left !== null && left >= 100);
  if (now.open) label.textContent = left === null ? t("play.ring.open") : t("play.ring.place");
  else if (waiting || (view.round && view.round.phase === "started")) label.textContent = t("play.ring.next");
  else label.textContent = t("play.ring.closed");
  box.classList.toggle("open", now.open);
  box.classList.toggle("closed", !now.open);
  box.classList.toggle("urgent", now.open && left !== null && left <= 5);
  box.setAttribute("aria-label", now.open ? t("play.ring.seconds", { n: left ?? "" }) : label.textContent);
}
