// /launch#token=...&table=...: a player launched by their operator. The token arrives in the
// fragment, which the browser never sends to a server; it is taken out of the address (and the
// history entry) at once, posted to this gateway once, and the player lands on the table's
// play page (or the floor's when no table is named), in the language the operator names
// (lang=en|zh-Hant|ms, optional: else the table's). docs/launch.md.

import { api, errorText, notice } from "/static/common.js";
import { LANGUAGES, t } from "/static/i18n.js";

const TABLE = /^[A-Za-z0-9_-]{1,32}$/;
const SUPPORTED = new Set(LANGUAGES.map(([code]) => code));

async function launch() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  history.replaceState(null, "", window.location.pathname); // the token leaves the address bar
  const token = params.get("token");
  const table = params.get("table");
  const status = document.getElementById("launch-status");
  if (!token) {
    status.textContent = t("launch.no-token");
    return;
  }
  try {
    await api("POST", "/api/launch", { token });
  } catch (err) {
    status.textContent = t("launch.refused");
    notice(errorText(err), "error");
    return;
  }
  const lang = params.get("lang");
  const asked = SUPPORTED.has(lang) ? `?lang=${encodeURIComponent(lang)}` : "";
  const next = table && TABLE.test(table) ? `/tables/${encodeURIComponent(table)}/play${asked}` : `/${asked}`;
  window.location.replace(next); // the launch page itself leaves the history too
}

launch();
