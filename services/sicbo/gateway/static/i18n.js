// The pages' words in the reader's language: the messages live in catalogue files
// (/static/i18n/{language}.json), never in code. t("key", {name: value}) looks a message up in
// the page's language, falling back to English, and fills its {name} holes.
//
// The language, in order: ?lang= in the address, the reader's own choice (the switch, kept
// in localStorage), else the table's: the language of its profile's rules (002's Macau
// tables Traditional Chinese, 004's online table Malay, 000 English); pages about no table
// are in English. The module also reads the table's currency and time zone, for money() and
// clock() in common.js: every page then writes amounts and times the same way.

export const LANGUAGES = [["en", "English"], ["zh-Hant", "中文"], ["ms", "Bahasa Melayu"]];
const SUPPORTED = new Set(LANGUAGES.map(([code]) => code));
const STORE = "sicbo.language";

/** The language of each profile's rule document (the seed it follows). */
const PROFILE_LANGUAGE = {
  "cca-1992": "en", // seed 000
  "macau-2003": "zh-Hant", // seed 002, 2003 edition
  "macau-2004": "zh-Hant", // seed 002, 2004 edition
  "online-live": "ms", // seed 004
};

async function readJson(url) {
  try {
    const res = await fetch(url, { credentials: "same-origin" });
    return res.ok ? await res.json() : null;
  } catch {
    return null;
  }
}

function explicitChoice() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (SUPPORTED.has(asked)) return asked;
  let kept = null;
  try { kept = localStorage.getItem(STORE); } catch { /* storage off: no kept choice */ }
  return SUPPORTED.has(kept) ? kept : null;
}

const tablePath = location.pathname.match(/^\/tables\/([A-Za-z0-9_-]{1,32})(\/|$)/);
const [english, view] = await Promise.all([
  readJson("/static/i18n/en.json"),
  tablePath ? readJson(`/api/tables/${encodeURIComponent(tablePath[1])}`) : null,
]);

/** What the pages need of the table (none for a page about no table). */
export const tableInfo = Object.freeze({
  profile: (view && view.profile) || null,
  currency: (view && view.currency) || null,
  timeZone: (view && view.time_zone) || undefined,
});

/**
 * The page's language code ("en", "zh-Hant", "ms"). A page whose words are not all in the
 * catalogues yet says so (<html data-language="en">) and stays in that language: half a page
 * in Chinese is worse than a whole one in English.
 */
const fixed = document.documentElement.dataset.language;
export const language = SUPPORTED.has(fixed) ? fixed
  : explicitChoice() || PROFILE_LANGUAGE[tableInfo.profile] || "en";
const own = language === "en" ? null : await readJson(`/static/i18n/${language}.json`);
const base = english || {};
const messages = own || {};
document.documentElement.lang = language;

/** Whether the catalogues have a message for `key` (in the page's language or English). */
export function has(key) {
  return key in messages || key in base;
}

/** The message `key` in the page's language (English if it has none), holes filled. */
export function t(key, params = {}) {
  const text = messages[key] ?? base[key] ?? key;
  return String(text).replace(/\{(\w+)\}/g, (hole, name) => (name in params ? String(params[name]) : hole));
}

/**
 * Put the messages into the page's marked elements: data-i18n (the text), data-i18n-title,
 * data-i18n-placeholder and data-i18n-label (aria-label) name their keys.
 */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-title]")) node.title = t(node.dataset.i18nTitle);
  for (const node of root.querySelectorAll("[data-i18n-placeholder]")) {
    node.placeholder = t(node.dataset.i18nPlaceholder);
  }
  for (const node of root.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
}

/**
 * The language switch in the page's header (English / 中文 / Bahasa Melayu): a choice is kept
 * for the next pages and the page reloads in it (without a ?lang= that would override it).
 */
export function languageSwitch(header = document.querySelector("header.top")) {
  if (!header || header.querySelector("#language")) return;
  const select = document.createElement("select");
  select.id = "language";
  select.className = "language";
  select.setAttribute("aria-label", t("common.language"));
  for (const [code, name] of LANGUAGES) {
    const option = new Option(name, code, false, code === language);
    option.lang = code;
    select.append(option);
  }
  select.addEventListener("change", () => {
    try { localStorage.setItem(STORE, select.value); } catch { /* storage off: this page only */ }
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    if (url.href === location.href) location.reload();
    else location.replace(url.href);
  });
  header.append(select);
}

translatePage();
