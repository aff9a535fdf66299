// /tables/{t}/layout: the table's layout with the winning spots of the last result lit.
// With ?controller=1 the page is the table's layout controller (000 §2.3): it lights exactly
// what the gateway asks over a WebSocket and answers with what it lit, read back from the DOM.

import { api, el, errorText, notice, offerPlay, tableId, throttled, watch } from "/static/common.js";
import { diceFaces, faultText, lightSpots, litSpots, renderLayout } from "/static/layout.js";
import { equipmentWords, tablePhaseWords } from "/static/phases.js";
import { languageSwitch, t } from "/static/i18n.js";
import { renderSigns } from "/static/signs.js";

const table = tableId();
const controller = new URLSearchParams(location.search).get("controller") === "1";
const box = document.getElementById("layout");
const caption = document.getElementById("caption");
const now = document.getElementById("now");
const faultBox = document.getElementById("fault");
const status = document.getElementById("controller-status");
const enc = encodeURIComponent(table || "");

let layoutKey = null; // the layout drawn (its JSON), to redraw only when it changes
let drawnPaytable = null;
let view = null; // the last TableView read
let requested = { round: null, spots: [] }; // controller mode: the last light request

document.getElementById("link-board").href = `/tables/${enc}/board`;
languageSwitch();
offerPlay(document.getElementById("link-play"), table);
document.getElementById("link-display").href = `/tables/${enc}/display`;

const phaseCall = document.getElementById("phase-call");

async function loadLayout() {
  const layout = await api("GET", `/api/tables/${enc}/layout`);
  const key = JSON.stringify(layout);
  drawnPaytable = layout.paytable || null;
  if (key === layoutKey) return;
  layoutKey = key;
  renderLayout(box, layout);
  fit();
  // The table's game in words, not the rule document's title (that stays on the tooltip).
  const title = layout.profile ? t(`profile.${layout.profile}`) : `Sic Bo — ${table}`;
  const heading = document.getElementById("title");
  heading.textContent = controller ? `${title} · controller` : title;
  if (layout.title) heading.title = layout.title;
  document.title = `${title} — ${controller ? "layout controller" : t("layout-page.title")}`;
  relight();
}

/**
 * Shrink the layout's sizes (--fit) until every row fits the screen: the rows stretch to fill
 * it, but a layout of many rows would otherwise run below its edge.
 */
function fit() {
  let scale = 1;
  box.style.setProperty("--fit", "1");
  while (scale > 0.5 && box.scrollHeight > box.clientHeight + 1) {
    scale -= 0.05;
    box.style.setProperty("--fit", scale.toFixed(2));
  }
}
window.addEventListener("resize", throttled(async () => fit(), 200));

/** Light what this page should show: the controller's request, or the recorded lamps. */
function relight() {
  if (controller) lightSpots(box, requested.spots);
  else lightSpots(box, view && view.lit ? view.lit.spots : []);
  showCaption();
}

function showCaption() {
  const lit = controller ? requested : view && view.lit;
  caption.replaceChildren();
  if (!lit || lit.round === null || lit.round === undefined) {
    caption.append(controller ? t("layout-page.waiting-request") : t("layout-page.no-lit"));
    return;
  }
  let dice = lit.dice || null;
  const last = view && view.last_result;
  if (!dice && last && last.round === lit.round) dice = last.dice;
  caption.append(el("span", {}, t("play.round-n", { n: lit.round })));
  if (dice && dice.length === 3) {
    caption.append(diceFaces(dice), el("span", { class: "total" }, `= ${dice.reduce((a, b) => a + b, 0)}`));
  }
  if (controller) caption.append(el("span", { class: "muted" }, t("layout-page.spots-lit", { n: lit.spots.length })));
}

/** The lamp fault of `view` (its spots by name, in the page's language), with its round. */
function faultLines(shown) {
  const round = shown.lit ? ` — ${t("play.round-n", { n: shown.lit.round })}` : "";
  return [`${t("layout-page.fault")}${round}: ${faultText(shown)}`];
}

function showView() {
  const round = view.round;
  now.textContent = round
    ? `${t("layout-page.now", { n: round.number })}${round.held ? ` · ${t("layout-page.held")}` : ""}`
    : t("layout-page.next", { n: view.next_round ?? "—" });
  const phase = round ? round.phase : "none";
  phaseCall.dataset.phase = phase;
  phaseCall.textContent = tablePhaseWords(phase);
  const lines = [];
  if (view.fault) lines.push(...faultLines(view));
  if (view.suspended) {
    const s = view.suspended;
    lines.push(`${t("layout-page.suspended")}${s.equipment && s.equipment.length ? `: ${equipmentWords(s.equipment)}` : ""}`
      + `${s.round ? ` (${t("play.round-n", { n: s.round })})` : ""}`);
  }
  if (view.status && view.status !== "open") lines.push(`Table ${view.status}`);
  faultBox.replaceChildren(...lines.map((line) => el("p", {}, line)));
  faultBox.hidden = lines.length === 0;
  renderSigns(document.getElementById("signs"), view); // the table's own, no player's
}

let loadedAt = 0;

async function refresh() {
  loadedAt = Date.now();
  try {
    view = await api("GET", `/api/tables/${enc}`);
    if (!layoutKey || (view.paytable && view.paytable !== drawnPaytable)) await loadLayout();
    showView();
    relight();
    notice("");
    fit(); // the fault and sign lines above it change the height it has
  } catch (err) {
    notice(err.status === 404 ? t("layout-page.not-open", { table }) : errorText(err), "error");
    throw err;
  }
}

// ---- the layout controller (?controller=1) ------------------------------------------------

let socket = null;
let backoff = 500;
let retryTimer = null;

const signinForm = document.getElementById("display-signin");
let displayBy = null; // the operator who signed this display in, when known

/**
 * The gateway closes a display's socket with 4401 until an operator signs the display in: a
 * display grant (/api/display) lets this browser answer for the lamps, never send a command.
 */
function askSignIn(reason) {
  signinForm.hidden = false;
  document.getElementById("display-signin-why").replaceChildren(
    el("strong", {}, t("layout-page.needs-signin")), " ",
    t("layout-page.needs-signin-why"), reason ? ` (${reason})` : "");
  const who = document.getElementById("display-operator");
  if (!who.value) who.focus();
  else document.getElementById("display-pin").focus();
}

signinForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  const button = document.getElementById("display-signin-submit");
  const pin = document.getElementById("display-pin");
  button.disabled = true;
  try {
    const grant = await api("POST", "/api/display", {
      operator: document.getElementById("display-operator").value.trim(),
      pin: pin.value,
    });
    pin.value = "";
    signinForm.hidden = true;
    displayBy = grant && grant.display ? String(grant.display) : null;
    notice("");
    backoff = 500;
    if (!socket) connect();
  } catch (err) {
    pin.value = "";
    notice(t("layout-page.signin-failed", { reason: signInReason(err) }), "error");
    pin.focus();
  } finally {
    button.disabled = false;
  }
});

/** Why a display sign-in failed: the gateway's reason in the reader's words, else by its code. */
function signInReason(err) {
  if (err.words) return errorText(err);
  if (err.code === "bad-pin") return t("layout-page.bad-pin");
  if (err.code === "too-many-attempts") return t("layout-page.too-many");
  return errorText(err);
}

/** Who signed this display in (GET /api/display), on the status badge's tooltip. */
async function readDisplay() {
  try {
    const grant = await api("GET", "/api/display");
    displayBy = grant && grant.display ? String(grant.display) : null;
  } catch {
    displayBy = null; // signed out (401), or an operator's session serves instead
  }
  if (socket && socket.readyState === WebSocket.OPEN) setStatus(true);
}

function setStatus(open, extra = "") {
  status.hidden = false;
  status.classList.toggle("on", open);
  status.textContent = open ? t("layout-page.connected") : `${t("layout-page.disconnected")}${extra}`;
  status.title = open && displayBy ? t("layout-page.signed-in-by", { by: displayBy }) : "";
}

function connect() {
  clearTimeout(retryTimer);
  retryTimer = null;
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/api/tables/${enc}/layout-controller`);
  socket = ws;
  ws.addEventListener("open", () => {
    backoff = 500;
    setStatus(true);
    signinForm.hidden = true;
    readDisplay();
  });
  ws.addEventListener("message", (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (!msg || msg.type !== "light") return;
    requested = { round: msg.round, spots: Array.isArray(msg.spots) ? msg.spots : [] };
    lightSpots(box, requested.spots);
    const reply = { type: "lit", request_id: msg.request_id, lit: litSpots(box) };
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(reply));
    showCaption();
  });
  ws.addEventListener("close", (event) => {
    if (socket !== ws) return;
    socket = null;
    // 4401: neither a display grant nor an operator's session in this browser; 4400: the
    // gateway refused the table. Retrying continues: a sign-in in another tab counts too.
    if (event.code === 4401) askSignIn(event.reason);
    else if (event.code === 4400) notice(event.reason || t("layout-page.refused-table"), "error");
    const wait = Math.round(backoff * (0.8 + Math.random() * 0.4));
    backoff = Math.min(backoff * 2, 15000);
    const why = event.code === 4401 ? ` — ${t("layout-page.sign-in")}` : "";
    setStatus(false, `${why} — ${t("layout-page.retrying", { s: Math.max(1, Math.round(wait / 1000)) })}`);
    retryTimer = setTimeout(connect, wait);
  });
}

// ---- start ------------------------------------------------------------------------------

async function start() {
  if (!table) {
    notice(t("layout-page.no-table"), "error");
    return;
  }
  if (controller) setStatus(false);
  let wait = 1000;
  for (;;) {
    try {
      await refresh();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, wait));
      wait = Math.min(wait * 2, 15000);
    }
  }
  // The controller answers only once its layout is drawn, so nothing is reported lit that
  // the page could not show.
  if (controller) connect();
  const again = throttled(() => refresh().catch(() => {}), 300);
  watch(table, (change) => {
    if (!change && Date.now() - loadedAt < 2000) return; // the first connect: just loaded
    again();
  });
}

start();
