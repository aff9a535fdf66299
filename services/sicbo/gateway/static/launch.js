// /launch#token=...&table=...: a player launched by their operator. The token arrives in the
// fragment, which the browser never sends to a server; it is taken out of the address (and the
// history entry) at once, posted to this gateway once, and the player lands on the table's
// play page (or the floor's when no table is named). docs/launch.md.

import { api, notice } from "/static/common.js";

const TABLE = /^[A-Za-z0-9_-]{1,32}$/;

async function launch() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  history.replaceState(null, "", window.location.pathname); // the token leaves the address bar
  const token = params.get("token");
  const table = params.get("table");
  const status = document.getElementById("launch-status");
  if (!token) {
    status.textContent = "No launch token: open the game from your operator's site.";
    return;
  }
  try {
    await api("POST", "/api/launch", { token });
  } catch (err) {
    status.textContent = "The launch was refused.";
    notice(err.message, "error");
    return;
  }
  const next = table && TABLE.test(table) ? `/tables/${encodeURIComponent(table)}/play` : "/";
  window.location.replace(next); // the launch page itself leaves the history too
}

launch();
