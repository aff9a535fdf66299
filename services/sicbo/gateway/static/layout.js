// A Sic Bo layout: green felt, gold lines, one element per bet spot of the table's paytable.
// Shared by the layout display/controller page and the online player table.
//
//   renderLayout(container, layout, {onSpot})  draw GET /api/tables/{t}/layout
//   lightSpots(container, bets)                 every lamp off, then light `bets`
//   litSpots(container)                         the bet ids lit, read back from the DOM
//   dieFace(n), diceFaces(dice)                 dice drawn with pips (also used by other pages)

import { el } from "/static/common.js";
import { has, t, tableInfo } from "/static/i18n.js";

const PIPS = {
  1: ["c"],
  2: ["tr", "bl"],
  3: ["tr", "c", "bl"],
  4: ["tl", "tr", "bl", "br"],
  5: ["tl", "tr", "c", "bl", "br"],
  6: ["tl", "tr", "ml", "mr", "bl", "br"],
};

/** One die showing `face` (1..6), drawn with pips; anything else is drawn as a blank die. */
export function dieFace(face, extraClass = "") {
  const n = Number(face);
  const node = el("span", { class: `die face-${n} ${extraClass}`.trim(), "aria-hidden": "true" });
  for (const p of PIPS[n] || []) node.append(el("i", { class: `pip ${p}` }));
  return node;
}

/** Dice in a row (e.g. a result): a span with one die per face, labelled for screen readers. */
export function diceFaces(dice, extraClass = "") {
  const box = el("span", { class: `dice ${extraClass}`.trim(), role: "img",
    "aria-label": dice && dice.length ? t("layout.dice", { dice: dice.join(" ") }) : t("layout.no-dice") });
  for (const d of dice || []) box.append(dieFace(d));
  return box;
}

/**
 * A bet's name for a slip or a history line, in the page's language with the names the
 * profile's rules use (catalogue "bet.<kind>"; "bet.<kind>.<profile>" where one edition of a
 * seed names it otherwise, 002/2003's 全圍 for 2004's 全骰): "Total 10", "點數 10", "Kecil".
 */
export function betName(bet, profile = tableInfo.profile) {
  const { kind, nums } = parseBet(bet);
  const key = profile && has(`bet.${kind}.${profile}`) ? `bet.${kind}.${profile}` : `bet.${kind}`;
  if (!has(key)) {
    const words = String(bet).replaceAll("-", " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }
  return t(key, { n: nums[0], a: nums[0], b: nums[1], nums: nums.join("-") });
}

/**
 * A table's lamp fault in the page's language, its spots by their names (view.fault_spots):
 * "not lit: Big"; the illumination service's English (view.fault) for a fault without them.
 */
export function faultText(view, profile = (view && view.profile) || tableInfo.profile) {
  const fault = view && view.fault_spots;
  if (!fault) return view && view.fault ? String(view.fault) : "";
  if (fault.timed_out) return t("fault.no-answer");
  const names = (bets) => bets.map((bet) => betName(bet, profile)).join(", ");
  const parts = [];
  if (fault.missing.length) parts.push(t("layout-page.not-lit", { bets: names(fault.missing) }));
  if (fault.extra.length) parts.push(t("layout-page.lit-wrongly", { bets: names(fault.extra) }));
  return parts.join("; ") || String(view.fault || "");
}

/** "double:3" -> {kind: "double", nums: [3]}; "four:1-2-3-4" -> nums [1, 2, 3, 4]. */
function parseBet(bet) {
  const [kind, arg = ""] = String(bet).split(":");
  const nums = arg ? arg.split("-").map(Number).filter((n) => Number.isFinite(n)) : [];
  return { kind, nums };
}

// How wide a spot is (grid columns it spans) and how its art is drawn.
const SPANS = { small: 3, big: 3, odd: 2, even: 2, "any-triple": 2, four: 2, "all-odd": 2,
  "all-even": 2, "two-odd-one-even": 2, "two-even-one-odd": 2 };
const WORDY = new Set(["small", "big", "odd", "even", "any-triple", "all-odd", "all-even",
  "two-odd-one-even", "two-even-one-odd"]);

function spanOf(kind) {
  return SPANS[kind] || 1;
}

/** Columns of a group's grid at large / medium (< 1000px) / small (< 640px) widths. */
function columnsOf(kind, spots) {
  const units = spots.reduce((sum, s) => sum + spanOf(parseBet(s.bet).kind), 0);
  switch (kind) {
    case "total": return [units, 7, 7];
    case "combo": return [units, units, 8];
    case "three": return [Math.min(units, 20), 10, 5];
    case "pair-single": return [Math.min(units, 15), 10, 6];
    case "single": return [units, units, 3];
    default: return [units <= 30 ? units : Math.ceil(units / 2), units > 12 ? Math.ceil(units / 2) : units,
      Math.min(units, 6)];
  }
}

/** The kind shared by every spot of the group, or "mixed". */
function groupKind(group) {
  const kinds = new Set(group.spots.map((s) => parseBet(s.bet).kind));
  if (kinds.size === 1) return [...kinds][0];
  if ([...kinds].every((k) => ["all-odd", "all-even", "two-odd-one-even", "two-even-one-odd"].includes(k))) {
    return "parity";
  }
  return "mixed";
}

function paysText(pays) {
  if (Array.isArray(pays)) return pays.join(" / ");
  return pays === null || pays === undefined ? "" : String(pays);
}

function spotArt(kind, nums, label) {
  switch (kind) {
    case "single":
      return el("span", { class: "art" }, dieFace(nums[0], "die-lg"));
    case "double":
      return el("span", { class: "art stack" }, dieFace(nums[0]), dieFace(nums[0]));
    case "triple":
      return el("span", { class: "art stack" }, dieFace(nums[0]), dieFace(nums[0]), dieFace(nums[0]));
    case "combo":
      return el("span", { class: "art stack" }, nums.map((n) => dieFace(n)));
    case "three":
      return el("span", { class: "art row" }, nums.map((n) => dieFace(n)));
    case "pair-single":
      return el("span", { class: "art row" }, dieFace(nums[0]), dieFace(nums[0]), dieFace(nums[1]));
    case "four":
      return el("span", { class: "art row" }, nums.map((n) => dieFace(n)));
    default:
      return el("span", { class: "art number" }, nums.length ? String(nums[0]) : label);
  }
}

function renderSpot(spot, profile) {
  const { kind, nums } = parseBet(spot.bet);
  const wordLabel = WORDY.has(kind) && has(`bet.${kind}`);
  const label = wordLabel ? betName(kind, profile) : spot.label || spot.bet;
  const detail = has(`layout.detail.${kind}`) ? t(`layout.detail.${kind}`) : spot.detail;
  const pays = paysText(spot.pays);
  const wordy = WORDY.has(kind) || !["single", "double", "triple", "combo", "three",
    "pair-single", "four", "total"].includes(kind);
  const node = el("div", {
    class: `spot kind-${kind}`,
    "data-bet": spot.bet,
    role: "button",
    tabindex: "0",
    title: [betName(spot.bet, profile), pays, detail].filter(Boolean).join(" — "),
    style: `--span:${spanOf(kind)}`,
  });
  if (wordy) {
    node.append(el("span", { class: "spot-label word" }, label));
  } else {
    // The dice or the number draw the label; it is still there for screen readers and search.
    node.append(spotArt(kind, nums, label), el("span", { class: "spot-label sr" }, betName(spot.bet, profile)));
  }
  node.append(el("span", { class: "pays" }, pays));
  if (wordy && detail && (kind === "small" || kind === "big")) {
    node.append(el("span", { class: "detail" }, detail));
  }
  return node;
}

/**
 * A group mixing kinds (the top row: small, odd, doubles, any triple, triples, even, big):
 * each run of one kind is a cluster that wraps as a whole, so the doubles stay together.
 */
function clusters(spots, profile) {
  const runs = [];
  for (const spot of spots) {
    const kind = parseBet(spot.bet).kind;
    const last = runs.at(-1);
    if (last && last.kind === kind) last.spots.push(spot);
    else runs.push({ kind, spots: [spot] });
  }
  return runs.map(({ kind, spots: run }) => {
    const units = run.reduce((sum, s) => sum + spanOf(parseBet(s.bet).kind), 0);
    return el("div", { class: `cluster cluster-${kind}`, style: `--units:${units};--cluster-cols:${units}` },
      run.map((s) => renderSpot(s, profile)));
  });
}

const handlers = new WeakMap();

/**
 * Draw `layout` (GET /api/tables/{t}/layout) into `container`, replacing what was there.
 * Groups are drawn in the order given; a spot id that appears twice is drawn once.
 * onSpot(bet, spotElement, event) runs when a spot is tapped/clicked or activated by key.
 */
export function renderLayout(container, layout, { onSpot } = {}) {
  container.replaceChildren();
  container.classList.add("sicbo-layout");
  if (layout.profile) container.dataset.profile = layout.profile;
  if (layout.paytable) container.dataset.paytable = layout.paytable;
  const seen = new Set();
  for (const group of layout.groups || []) {
    const spots = (group.spots || []).filter((s) => s && s.bet && !seen.has(s.bet));
    if (!spots.length) continue;
    spots.forEach((s) => seen.add(s.bet));
    const kind = groupKind({ spots });
    const [lg, md, sm] = columnsOf(kind, spots);
    // Long rows, and the single numbers at the bottom, take the layout's whole width.
    const full = lg >= 12 || kind === "single";
    const section = el("section", {
      class: `group group-${kind}${full ? " full" : ""}`,
      "data-group": group.name || kind,
      style: `--cols-lg:${lg};--cols-md:${md};--cols-sm:${sm};--units:${lg}`,
    });
    const titleKey = `layout.group.${group.name}`;
    const title = has(titleKey) ? t(titleKey) : group.title;
    if (title) section.append(el("h3", { class: "group-title" }, title));
    const profile = layout.profile || tableInfo.profile;
    section.append(el("div", { class: "spots" },
      kind === "mixed" ? clusters(spots, profile) : spots.map((s) => renderSpot(s, profile))));
    container.append(section);
  }
  const old = handlers.get(container);
  if (old) {
    container.removeEventListener("click", old.click);
    container.removeEventListener("keydown", old.key);
    handlers.delete(container);
  }
  container.classList.toggle("interactive", Boolean(onSpot));
  if (onSpot) {
    const click = (event) => {
      const spot = event.target.closest(".spot");
      if (spot && container.contains(spot)) onSpot(spot.dataset.bet, spot, event);
    };
    const key = (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const spot = event.target.closest(".spot");
      if (!spot || !container.contains(spot)) return;
      event.preventDefault();
      onSpot(spot.dataset.bet, spot, event);
    };
    container.addEventListener("click", click);
    container.addEventListener("keydown", key);
    handlers.set(container, { click, key });
  }
  return container;
}

/** Every lamp off, then light the spots of `bets` (bet ids); ids with no spot light nothing. */
export function lightSpots(container, bets) {
  const wanted = new Set(bets || []);
  let any = false;
  for (const spot of container.querySelectorAll(".spot")) {
    const on = wanted.has(spot.dataset.bet);
    spot.classList.toggle("lit", on);
    if (on) spot.setAttribute("aria-current", "true");
    else spot.removeAttribute("aria-current");
    any = any || on;
  }
  container.classList.toggle("has-lit", any);
}

/** The bet ids of the spots lit, as the DOM shows them (a spot that is not there is not lit). */
export function litSpots(container) {
  return [...container.querySelectorAll(".spot.lit")].map((s) => s.dataset.bet);
}
