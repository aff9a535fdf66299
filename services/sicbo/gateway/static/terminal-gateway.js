// What the terminal asks of the gateway: the table's state, and one command per press.
import { api, clockSkew, errorText, latestOnly, newCommandId } from "/static/common.js";
import { has, t } from "/static/i18n.js";
import { loadControl } from "/static/terminal-control.js";
import { handleError } from "/static/terminal-session.js";
import { flash, page, state, table, tableApi } from "/static/terminal-state.js";

const readTable = latestOnly(() => api("GET", tableApi));
/** What the dealer did, in the words of the desk's buttons (catalogue "term.done.<type>"). */
const done = (type) => (has(`term.done.${type}`) ? t(`term.done.${type}`) : t("term.done"));
/** TableView carries no server time: then the floor's is asked, once, for the countdown. */
const skewRead = { known: false, asked: false };

/** Send one command; resolves to the reply, or null after showing why it failed. Never retries. */
export async function send(command) {
  if (state.busy) return null;
  const body = { ...command, command_id: newCommandId("term") };
  state.busy = true;
  page.update();
  try {
    const reply = await api("POST", `${tableApi}/commands`, body);
    const what = done(command.type);
    flash(reply && reply.duplicate ? t("term.done.again", { done: what }) : t("term.done.accepted", { done: what }), "ok");
    return reply;
  } catch (err) {
    handleError(err);
    return null;
  } finally {
    state.busy = false;
    page.update();
    loadView();
  }
}

export async function loadView() {
  if (!table) return;
  loadControl(); // who plays the table, read with it
  const read = await readTable();
  if (read.error) {
    if (!read.show()) return;
    const err = read.error;
    if (err.status === 404) { state.view = null; state.viewError = t("term.never-opened", { table }); }
    else state.viewError = t("term.unreadable", { message: errorText(err) });
  } else {
    const { answer } = read;
    const { view } = state;
    // A replica that lags behind the one read before is not newer for being asked later.
    if (read.superseded() || (view && answer.as_of !== undefined && view.as_of !== undefined
      && answer.as_of < view.as_of)) return;
    read.show();
    state.view = answer;
    state.viewError = null;
    if (answer.server_time) { state.skew = clockSkew(answer.server_time); skewRead.known = true; }
  }
  page.update();
  if (!skewRead.known) readSkew();
}

async function readSkew() {
  if (skewRead.asked) return;
  skewRead.asked = true;
  try {
    const floor = await api("GET", "/api/floor");
    if (!skewRead.known && floor.server_time) { state.skew = clockSkew(floor.server_time); skewRead.known = true; }
  } catch { /* the countdown then trusts the local clock */ }
}
