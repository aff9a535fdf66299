// The floor overview: one card per table, kept live from the gateway's lifecycle events.
import * as common from "/static/common.js";
import { kindLinesText, limitsText } from "/static/signs.js";
import { has, languageSwitch, t } from "/static/i18n.js";
import { faultText } from "/static/layout.js";
import { equipmentWords, policyWords } from "/static/phases.js";

const { api, watch, clock, clockSkew, secondsLeft, el, notice } = common;
/** Timer-based coalescing where common.js has it (it also runs in a background tab). */
const coalesce = common.throttled ? (fn) => common.throttled(fn, 250) : common.debounced;

languageSwitch();
const grid = document.getElementById("tables");
const summary = document.getElementById("floor-summary");
const live = document.getElementById("live");

/** Rounds that ended one way or another: the dispute view has the whole story. */
const ENDED = new Set(["completed", "no-result", "invalidated", "cancelled"]);

let skew = 0;
const readFloor = common.latestOnly(() => api("GET", "/api/floor"));
const cards = new Map(); // table id -> {node, parts}

function setText(node, text) {
  const value = String(text);
  if (node.textContent !== value) node.textContent = value;
}

/** Times as every page writes them: common.js clock, in the card's table's zone. */
let cardZone;
const when = (iso) => clock(iso, cardZone);

/** The closing notice's time: the API gives the time itself (docs/gateway.md says {close_at}). */
function closeAt(notice_) {
  return typeof notice_ === "string" ? notice_ : notice_.close_at;
}

/** The round a dispute is most likely about: the current one once ended, else the last result. */
function lastRoundOf(view) {
  const r = view.round;
  if (r && ENDED.has(r.phase)) return r.number;
  if (view.last_result) return view.last_result.round;
  return null;
}

function diceNodes(dice, total) {
  const nodes = [];
  dice.forEach((d, i) => {
    if (i) nodes.push(" ");
    nodes.push(el("span", { class: "die", "aria-label": `die ${d}` }, d));
  });
  const sum = total ?? dice.reduce((a, b) => a + b, 0);
  nodes.push(" ", el("span", { class: "total" }, `(${sum})`));
  return nodes;
}

function suspendedText(s) {
  const bits = [t("floor.suspended")];
  if (s.since) bits.push(t("floor.since", { at: when(s.since) }));
  const equipment = equipmentWords(s.equipment);
  if (equipment) bits.push(`— ${equipment}`);
  if (s.round) bits.push(`— ${t("floor.round-n", { n: s.round })}`);
  if (s.policy) bits.push(`(${policyWords(s.policy)})`);
  return bits.join(" ");
}

function makeCard(view) {
  const name = view.table;
  const base = `/tables/${encodeURIComponent(name)}`;
  const parts = {
    status: el("span", { class: "status-badge" }),
    banner: el("div", { class: "banners" }),
    round: el("span", { class: "round-no" }),
    phase: el("span", { class: "phase" }),
    countdown: el("span", { class: "countdown" }),
    countdownStat: null,
    lastLabel: el("span", { class: "label" }, t("floor.last-result")),
    last: el("div", { class: "last-result" }),
    meta: el("p", { class: "meta" }),
    kinds: el("ul", { class: "kind-limits", "aria-label": t("floor.kind-limits-label", { table: name }), hidden: true }),
    dispute: el("a", { class: "link dispute", hidden: true }, t("floor.last-round")),
  };
  parts.countdownStat = el("div", { class: "stat stat-countdown" },
    el("span", { class: "label" }, t("floor.closes-in")), parts.countdown);
  const links = el("nav", { class: "links", "aria-label": `${name} pages` },
    el("a", { class: "link primary", href: `${base}/terminal` }, t("floor.terminal")),
    el("a", { class: "link", href: `${base}/layout` }, t("common.layout")),
    el("a", { class: "link", href: `${base}/board` }, t("common.board")),
    view.remote_players ? el("a", { class: "link play", href: `${base}/play` }, t("floor.play")) : null,
    parts.dispute,
  );
  const node = el("section", { class: "table-card", dataset: { table: name }, "aria-label": `table ${name}` },
    el("header", { class: "card-head" },
      el("h2", { class: "table-id" }, name),
      el("span", { class: "profile" }, view.profile),
      parts.status),
    parts.banner,
    el("div", { class: "card-stats" },
      el("div", { class: "stat stat-round" }, el("span", { class: "label" }, t("floor.round")), parts.round),
      el("div", { class: "stat stat-phase" }, el("span", { class: "label" }, t("floor.phase")), parts.phase),
      parts.countdownStat),
    el("div", { class: "last" }, parts.lastLabel, parts.last),
    parts.meta,
    parts.kinds,
    links,
  );
  return { node, parts };
}

function updateCard(card, view) {
  const { node, parts } = card;
  const r = view.round;
  cardZone = view.time_zone;
  node.classList.toggle("is-suspended", !!view.suspended);
  node.classList.toggle("is-closed", view.status !== "open");
  setText(parts.status, view.status === "open" ? "" : view.status);
  parts.status.hidden = view.status === "open";

  // The banner is in the DOM only while the table is suspended.
  const banners = [];
  if (view.suspended) banners.push(el("div", { class: "suspended", role: "alert" }, suspendedText(view.suspended)));
  if (view.fault) banners.push(el("div", { class: "fault" }, t("floor.fault", { what: faultText(view) })));
  const key = JSON.stringify([view.suspended, view.fault, view.fault_spots]);
  if (parts.banner.dataset.key !== key) {
    parts.banner.dataset.key = key;
    parts.banner.replaceChildren(...banners);
  }

  setText(parts.round, r ? r.number : "—");
  setText(parts.phase, r ? (has(`phase.${r.phase}`) ? t(`phase.${r.phase}`) : r.phase) : t("phase.waiting"));
  parts.phase.dataset.phase = r ? r.phase : "none";
  if (r && r.held) parts.phase.dataset.held = "";
  else delete parts.phase.dataset.held;

  const closesAt = r && r.phase === "betting-open" ? r.closes_at : null;
  if (closesAt) parts.countdown.dataset.closesAt = closesAt;
  else delete parts.countdown.dataset.closesAt;
  const timed = view.betting_seconds != null || view.profile === "online-live";
  parts.countdownStat.classList.toggle("untimed", !timed);
  tickCard(parts.countdown);

  const lr = view.last_result;
  const lastKey = lr ? JSON.stringify(lr) : "";
  if (parts.last.dataset.key !== lastKey) {
    parts.last.dataset.key = lastKey;
    if (lr && lr.dice) {
      parts.last.replaceChildren(...diceNodes(lr.dice, lr.total));
      setText(parts.lastLabel, t("floor.last-result-n", { n: lr.round }));
    } else {
      parts.last.replaceChildren(el("span", { class: "muted" }, t("floor.none-yet")));
      setText(parts.lastLabel, t("floor.last-result"));
    }
  }

  const meta = [];
  if (view.limits) meta.push(t("floor.limits", { limits: limitsText(view.limits, view.currency) }));
  if (view.closing_notice) meta.push(t("floor.closing", { at: when(closeAt(view.closing_notice)) }));
  for (const n of view.limits_notices || []) {
    meta.push(t("sign.new-limits", { limits: limitsText(n.limits, view.currency), at: when(n.effective_at) }));
  }
  if (view.second_person_confirmation) meta.push(t("floor.second-person"));
  setText(parts.meta, meta.join(" · "));
  // 000 §4.1: the sign's own line for each bet kind that has one, as the terminal shows it.
  const kinds = kindLinesText(view);
  const kindsKey = JSON.stringify(kinds);
  if (parts.kinds.dataset.key !== kindsKey) {
    parts.kinds.dataset.key = kindsKey;
    parts.kinds.replaceChildren(...kinds.map((line) => el("li", { "data-sign": "kind-limits" }, line)));
    parts.kinds.hidden = kinds.length === 0;
  }

  const last = lastRoundOf(view);
  parts.dispute.hidden = last === null;
  if (last !== null) {
    const href = `/tables/${encodeURIComponent(view.table)}/rounds/${last}`;
    if (parts.dispute.getAttribute("href") !== href) parts.dispute.setAttribute("href", href);
    setText(parts.dispute, t("floor.dispute", { n: last }));
  }
}

function tickCard(countdown) {
  const deadline = countdown.dataset.closesAt;
  const left = deadline ? secondsLeft(deadline, skew) : null;
  setText(countdown, left === null ? "—" : left);
  countdown.classList.toggle("urgent", left !== null && left <= 3);
}

function render(floor) {
  skew = clockSkew(floor.server_time);
  const tables = floor.tables || [];
  document.getElementById("loading")?.remove();
  const seen = new Set();
  tables.forEach((view, i) => {
    seen.add(view.table);
    let card = cards.get(view.table);
    if (!card) {
      card = makeCard(view);
      cards.set(view.table, card);
    }
    if (grid.children[i] !== card.node) grid.insertBefore(card.node, grid.children[i] || null);
    updateCard(card, view);
  });
  for (const [id, card] of cards) {
    if (!seen.has(id)) { card.node.remove(); cards.delete(id); }
  }
  if (!tables.length) {
    grid.replaceChildren(el("p", { class: "muted", id: "loading" }, t("floor.none")));
  }
  const suspended = tables.filter((v) => v.suspended).length;
  setText(summary, t(tables.length === 1 ? "floor.tables-one" : "floor.tables-many", { n: tables.length })
    + (suspended ? ` · ${t("floor.n-suspended", { n: suspended })}` : ""));
}

async function load() {
  const read = await readFloor();
  try {
    if (read.error) throw read.error;
    if (!read.show()) return;
    render(read.answer);
    if (document.getElementById("notice").classList.contains("error")) notice("");
  } catch (err) {
    // A failed read leaves the cards as they are: a slower, older answer may still show.
    if (read.superseded()) return;
    notice(t("floor.unreadable", { reason: common.errorText(err) }), "error");
  }
}

const refresh = coalesce(load);
const source = watch(null, refresh);
source.addEventListener("open", () => { live.textContent = t("floor.live"); live.className = "live on"; });
source.addEventListener("error", () => { live.textContent = t("floor.reconnecting"); live.className = "live off"; });
setInterval(() => {
  for (const { parts } of cards.values()) tickCard(parts.countdown);
}, 250);
load();
