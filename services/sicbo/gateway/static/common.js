// Shared by every page: the table id from the path, JSON calls to the gateway, live changes,
// money and times written one way (the table's currency and time zone, the page's language).
import { has, language, t, tableInfo } from "/static/i18n.js";

/** The table id of a /tables/{table}/... page, or null. */
export function tableId() {
  const m = location.pathname.match(/^\/tables\/([A-Za-z0-9_-]{1,32})(\/|$)/);
  return m ? m[1] : null;
}

/**
 * An API error: status, code ("invalid", "refused", "locked", ...), reason, field, and the
 * reason's message key and parameters when the service gave them (Rejected.reason_key).
 */
export class ApiError extends Error {
  constructor(status, body) {
    super(body.reason || `HTTP ${status}`);
    this.status = status;
    this.code = body.code || "error";
    this.field = body.field || null;
    this.words = body.reason_key ? { key: body.reason_key, params: body.reason_params || {} } : null;
  }
}

/**
 * A service's reason in the page's language: `words` ({key, params}: a refusal's
 * reason_key and reason_params, or a view's reason words) as the catalogue's "reason.<key>",
 * its parameters written as people read them (a time, "..._at", by clock(); an amount,
 * "amount" or "..._amount", by money()); `more` fills or overrides parameters the page knows
 * better (a bet's name). The service's English `fallback` when the catalogue has no such key.
 */
export function reasonText(words, fallback = "", more = {}) {
  if (!words || !has(`reason.${words.key}`)) return fallback || "";
  const params = {};
  for (const [name, value] of Object.entries(words.params || {})) {
    if (name.endsWith("_at")) params[name] = clock(value);
    else if (name === "amount" || name.endsWith("_amount")) params[name] = money(value);
    else params[name] = value;
  }
  return t(`reason.${words.key}`, { ...params, ...more });
}

/**
 * A failed call (an ApiError) in the page's language: its reason's key from the catalogues
 * (a service's refusal or the gateway's own error); else the English, with its field.
 */
export function errorText(err) {
  const english = String((err && err.message) || "");
  const fallback = err && err.field && !english.includes(err.field) ? `${english} (${err.field})` : english;
  return (err && err.words && reasonText(err.words, fallback)) || fallback;
}

/** Call the gateway; resolves to the JSON answer, rejects with ApiError. */
export async function api(method, path, body) {
  const init = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["content-type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, { code: "unavailable", reason: "the gateway cannot be reached", reason_key: "http.unavailable" });
  }
  const text = await res.text();
  let data = {};
  try { data = text ? JSON.parse(text) : {}; } catch { data = { reason: text }; }
  if (!res.ok) throw new ApiError(res.status, data);
  if (data && data.type === "rejected.v1") throw new ApiError(409, data);
  return data;
}

/** A fresh command id: the idempotency key of one button press (a retry reuses it). */
export function newCommandId(prefix = "web") {
  return `${prefix}-${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
}

/** How often a visible page re-reads even without a change signal (ms). */
export const RESYNC_MS = 3000;

/**
 * Call onChange(change) for each event of the table (or of every table's lifecycle when
 * table is null); reconnects by itself. onChange also runs with null after every (re)connect
 * and every RESYNC_MS while the page is visible: a change signal is sent as the event is
 * published, and a page re-reading at that instant may miss it (or read a lagging replica),
 * so the page re-reads until it has caught up.
 */
export function watch(table, onChange) {
  const url = table ? `/api/events?table=${encodeURIComponent(table)}` : "/api/events";
  const source = new EventSource(url);
  source.addEventListener("open", () => onChange(null));
  source.addEventListener("change", (e) => onChange(JSON.parse(e.data)));
  setInterval(() => { if (document.visibilityState === "visible") onChange(null); }, RESYNC_MS);
  return source;
}

/** Coalesce bursts: run fn at most once per animation frame, however often it is asked. */
export function debounced(fn) {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(async () => { pending = false; await fn(); });
  };
}

/**
 * Newest answer wins, for a page that asks again before an answer comes: a slow answer must
 * not overwrite a newer one on screen. ask(...args) calls fetcher(...args) and resolves to
 * {answer} or {error}, each with superseded() (a later call's outcome is shown already) and
 * show() (mark this outcome as the one shown; false, and nothing marked, when superseded).
 * The page decides what counts as shown: an error it does not display need not be.
 */
export function latestOnly(fetcher) {
  let asked = 0;
  let shown = 0;
  return async (...args) => {
    const mine = ++asked;
    const superseded = () => mine < shown;
    const show = () => {
      if (superseded()) return false;
      shown = mine;
      return true;
    };
    try {
      return { answer: await fetcher(...args), superseded, show };
    } catch (error) {
      return { error, superseded, show };
    }
  };
}

/** Server time minus local time, in ms, from a response's server_time (ISO 8601). */
export function clockSkew(serverTime) {
  return serverTime ? Date.parse(serverTime) - Date.now() : 0;
}

/** Whole seconds left until an ISO deadline, given the clock skew; 0 when passed. */
export function secondsLeft(deadline, skew = 0) {
  if (!deadline) return null;
  return Math.max(0, Math.ceil((Date.parse(deadline) - (Date.now() + skew)) / 1000));
}

const moneyFormats = new Map();

function moneyFormat(currency, lang) {
  const key = `${currency || ""}|${lang}`;
  if (!moneyFormats.has(key)) {
    // A chips table (no currency) writes plain amounts with two decimals.
    moneyFormats.set(key, new Intl.NumberFormat(lang, currency ? { style: "currency", currency }
      : { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
  }
  return moneyFormats.get(key);
}

/** The currency's minor digits: EUR 2, JPY 0 (ISO 4217, as the browser knows it); 2 without. */
export function minorDigits(currency) {
  return currency ? moneyFormat(currency, "en").resolvedOptions().maximumFractionDigits : 2;
}

/**
 * Minor units as people read them, in `currency` (ISO 4217; the table's by default) and the
 * page's language: 12345 MOP -> "MOP 123.45"; without a currency (chips) "123.45".
 */
export function formatMoney(minor, currency = tableInfo.currency, lang = language) {
  return moneyFormat(currency, lang).format(Number(minor) / 10 ** minorDigits(currency));
}

/**
 * An amount typed in money ("12.50", "12,50", "12") as minor units of `currency` (the
 * table's; 2 digits without one): 1250; null when it is not one, or has more decimals than
 * the currency (a JPY amount has none).
 */
export function minorFromTyped(text, currency = tableInfo.currency) {
  const digits = minorDigits(currency);
  const typed = String(text).trim().replace(",", ".");
  const shape = digits ? new RegExp(`^\\d+(\\.\\d{1,${digits}})?$`) : /^\d+$/;
  if (!shape.test(typed)) return null;
  const [whole, part = ""] = typed.split(".");
  return Number(whole) * 10 ** digits + Number(part.padEnd(digits, "0") || 0);
}

/** Minor units as a field's value in money, without a currency sign: 1250 -> "12.50". */
export function typedFromMinor(minor, currency = tableInfo.currency) {
  const digits = minorDigits(currency);
  return (Number(minor) / 10 ** digits).toFixed(digits);
}

/** An amount of the table (its currency, if it has one): what the pages show of stakes. */
export function money(minor, currency = tableInfo.currency) {
  return formatMoney(minor, currency);
}

/**
 * What a report or a recalled round leaves out of other players' wagers ({wagers, staked,
 * returned}: the gateway shows every player's to floor staff only), as a sentence; "" if none.
 */
export function hiddenText(hidden) {
  if (!hidden || !hidden.wagers) return "";
  return t("common.hidden", { wagers: hidden.wagers, staked: money(hidden.staked),
    returned: money(hidden.returned) });
}

/**
 * The one time format of the pages: an ISO 8601 moment in the table's time zone (UTC on a
 * page about no table), "14:05:09", with the date before it when it is not today there (or
 * always, given `date`), to the millisecond given `milliseconds` (a dispute's order of
 * events); the text itself if unreadable.
 */
export function clock(iso, timeZone = tableInfo.timeZone, { date = false, milliseconds = false } = {}) {
  if (!iso) return "";
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return String(iso);
  const zone = timeZone || "UTC";
  const day = (d) => d.toLocaleDateString("en-CA", { timeZone: zone });
  let time = at.toLocaleTimeString("en-GB", { timeZone: zone, hour12: false });
  if (milliseconds) time += `.${String(at.getUTCMilliseconds()).padStart(3, "0")}`;
  return !date && day(at) === day(new Date()) ? time : `${day(at)} ${time}`;
}

/** "2 3 5" for dice, with the total. */
export function diceText(dice) {
  return dice ? `${dice.join(" ")} (${dice.reduce((a, b) => a + b, 0)})` : "—";
}

/** Create an element: el("button", {class: "big", onclick: f}, "text", child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Show a message in the page's #notice element: kind is "ok", "error" or "info". */
export function notice(text, kind = "info") {
  const box = document.getElementById("notice");
  if (!box) return;
  box.textContent = text;
  box.className = `notice ${kind}`;
  box.hidden = !text;
}

/**
 * Coalesce refreshes with timers (so it also runs in a background tab, unlike debounced):
 * fn runs at most once at a time and at most once per `ms`; asks made meanwhile become one
 * more run afterwards. fn should report its own errors.
 */
export function throttled(fn, ms = 250) {
  let running = false;
  let again = false;
  let timer = null;
  let last = 0;
  const run = async () => {
    timer = null;
    running = true;
    again = false;
    last = Date.now();
    try { await fn(); } catch { /* fn reports its own errors */ } finally {
      running = false;
      if (again) ask();
    }
  };
  function ask() {
    if (running) { again = true; return; }
    if (timer !== null) return;
    timer = setTimeout(run, Math.max(0, last + ms - Date.now()));
  }
  return ask;
}

/**
 * A page's "Play" link to the table's player page, shown only once the table's view says its
 * profile takes remote players (a land table's bets are chips at the table).
 */
export async function offerPlay(link, table) {
  if (!link || !table) return;
  link.hidden = true;
  link.href = `/tables/${encodeURIComponent(table)}/play`;
  try {
    const view = await api("GET", `/api/tables/${encodeURIComponent(table)}`);
    link.hidden = !view.remote_players;
  } catch {
    // unknown or unreachable: no Play link
  }
}
