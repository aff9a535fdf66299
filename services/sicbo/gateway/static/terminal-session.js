// The terminal's operator: sign-in, sign-out, the idle lock (GLI-19 §C.6.5), and what a refused
// call says about the session.
import { api, errorText, notice } from "/static/common.js";
import { has, t } from "/static/i18n.js";
import { $, desk, flash, page, setText, state, takenOver } from "/static/terminal-state.js";

/** A role in the page's language ("term.role.<role>"), else its id. */
const roleWords = (role) => (has(`term.role.${role}`) ? t(`term.role.${role}`) : String(role));

/** Why a call failed, shown; a 401 locks the terminal or signs the operator out. */
export function handleError(err) {
  if (err.status === 401 && err.code === "locked") {
    lock();
    flash(t("term.locked-sent", { message: errorText(err) }), "error");
  } else if (err.status === 401 && (err.code === "signed-out" || err.code === "bad-pin")) {
    signedOut(t("term.signed-out-why", { message: errorText(err) }));
  } else {
    // The service's reason in the dealer's language where it has a key; else its English.
    flash(errorText(err), "error");
  }
}

// ---- session ------------------------------------------------------------------------------------

export async function loadSession() {
  try {
    signedIn(await api("GET", "/api/session"));
  } catch (err) {
    const operator = sessionStorage.getItem("sicbo-operator");
    if (err.status === 401 && err.code === "locked" && operator) {
      state.session = { operator, role: sessionStorage.getItem("sicbo-role") || "", actions: [], idle_lock_seconds: 0 };
      lock();
    } else {
      signedOut(err.status === 401 ? "" : t("term.session-unknown", { message: errorText(err) }));
    }
  }
}

function signedIn(answer) {
  state.session = answer;
  state.actions = new Set(answer.actions || []);
  sessionStorage.setItem("sicbo-operator", answer.operator);
  sessionStorage.setItem("sicbo-role", answer.role || "");
  state.lastInput = Date.now();
  setText($("who"), `${answer.operator} (${roleWords(answer.role)})`);
  $("who").hidden = false;
  $("signout").hidden = false;
  $("signin").hidden = true;
  unlockScreen();
  page.signedIn();
}

function signedOut(message) {
  state.session = null;
  state.actions = new Set();
  // control stays: signing out leaves a table taken over taken (the next operator here may
  // be the second person confirming); only "Hand back to demo" returns it.
  sessionStorage.removeItem("sicbo-operator");
  sessionStorage.removeItem("sicbo-role");
  desk.builtFor = null;
  $("desk").replaceChildren();
  $("desk").hidden = true;
  $("who").hidden = true;
  $("signout").hidden = true;
  unlockScreen();
  $("signin").hidden = false;
  $("signin-pin").value = "";
  if (message) flash(message, "error");
  $("signin-operator").focus();
}

export async function signIn(event) {
  event.preventDefault();
  const operator = $("signin-operator").value.trim();
  const pin = $("signin-pin").value;
  if (!operator || !pin) { flash(t("term.enter-id-pin"), "error"); return; }
  $("signin-submit").disabled = true;
  try {
    const answer = await api("POST", "/api/session", { operator, pin });
    notice("");
    signedIn(answer);
  } catch (err) {
    flash(errorText(err), "error"); // a wrong PIN, too many tries, ... in the reader's words
  } finally {
    $("signin-submit").disabled = false;
    $("signin-pin").value = "";
  }
}

export async function signOut() {
  try {
    await api("DELETE", "/api/session");
    signedOut("");
    flash(takenOver() ? t("term.signed-out-taken") : t("term.signed-out"), "info");
  } catch (err) {
    flash(t("term.signout-failed", { message: errorText(err) }), "error");
  }
}

// ---- idle lock (GLI-19 §C.6.5) ------------------------------------------------------------------

function lock() {
  const { session } = state;
  if (!session) return;
  state.locked = true;
  setText($("lock-who"), t("term.lock-who", { who: `${session.operator}${session.role ? ` (${roleWords(session.role)})` : ""}` }));
  $("unlock-error").hidden = true;
  $("unlock-pin").value = "";
  $("app").inert = true;
  $("lock-screen").hidden = false;
  $("unlock-pin").focus();
}

function unlockScreen() {
  state.locked = false;
  $("lock-screen").hidden = true;
  $("app").inert = false;
}

export async function unlock(event) {
  event.preventDefault();
  const pin = $("unlock-pin").value;
  if (!pin || !state.session) return;
  $("unlock-submit").disabled = true;
  try {
    const answer = await api("POST", "/api/session", { operator: state.session.operator, pin });
    signedIn(answer);
  } catch (err) {
    const box = $("unlock-error");
    box.textContent = err.code === "bad-pin" ? t("term.wrong-pin") : errorText(err);
    box.hidden = false;
    $("unlock-pin").value = "";
    $("unlock-pin").focus();
  } finally {
    $("unlock-submit").disabled = false;
  }
}

export function noteInput() {
  if (!state.locked) state.lastInput = Date.now();
}

/** Lock once the operator has been idle for the session's idle_lock_seconds. */
export function lockIfIdle() {
  const { session } = state;
  if (session && !state.locked && session.idle_lock_seconds > 0
      && Date.now() - state.lastInput > session.idle_lock_seconds * 1000) {
    lock();
  }
}
