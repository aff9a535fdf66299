// The building blocks of the terminal's action forms (supervisor, inspector, malfunction): a form
// that sends one command, its fields, and the values they start with.
import { el, minorFromTyped, money, typedFromMinor } from "/static/common.js";
import { t, tableInfo } from "/static/i18n.js";
import { send } from "/static/terminal-gateway.js";
import { $, flash, gate, setText, state } from "/static/terminal-state.js";

/**
 * A form whose submit button carries data-action=tag; build() returns the command or null.
 * ``rule`` is the citation the form follows, for a supervisor who asks: a tooltip, never text.
 */
export function actionForm({ tag, title, hint, rule, fields, submit, danger, enabled, build, keep }) {
  const button = gate(el("button", { type: "submit", class: danger ? "danger" : "primary", dataset: { action: tag } },
    submit), () => state.view.status !== "closed" && (enabled ? enabled() : true));
  const form = el("form", { class: "panel action-form", dataset: { form: tag }, autocomplete: "off" },
    el("h3", {}, title),
    hint ? el("p", { class: "hint", title: rule || null }, hint) : null,
    el("div", { class: "fields" }, ...fields),
    button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!form.reportValidity()) return;
    const command = build();
    if (!command) return;
    const reply = await send({ type: tag, ...command });
    if (reply && !keep) {
      form.reset();
      prefill(form, true);
    }
  });
  return form;
}

export function field(label, input, extra) {
  return el("label", { class: "field" }, label, input, extra || null);
}

export function textInput(id, { required = false, placeholder } = {}) {
  return el("input", { id, type: "text", required, maxlength: 500, placeholder, autocomplete: "off" });
}

/** An amount field in money of the table's currency ("12.50"), sent in minor units; the
 * amount echoed below it as the signs write it. */
function moneyInput(id) {
  const input = el("input", { id, type: "text", required: true, inputmode: "decimal", autocomplete: "off",
    class: "money-input", dataset: { money: "" } });
  const echo = el("small", { class: "money-echo muted" });
  input.addEventListener("input", () => {
    input.dataset.touched = "1";
    const minor = input.value ? minorFromTyped(input.value) : null;
    input.setCustomValidity(input.value && !(minor >= 1) ? t("term.limits-money", { example: typedFromMinor(1250) }) : "");
    setText(echo, minor >= 1 ? money(minor) : "");
  });
  return [input, echo];
}

export function diceInputs(prefix) {
  return el("div", { class: "dice-inputs" }, ...[1, 2, 3].map((n) =>
    el("input", { id: `${prefix}-die-${n}`, type: "number", min: 1, max: 6, step: 1, required: true,
      inputmode: "numeric", "aria-label": t("term.die-n", { n }) })));
}

export function readDice(prefix) {
  const dice = [1, 2, 3].map((n) => Number.parseInt($(`${prefix}-die-${n}`).value, 10));
  if (dice.some((d) => !(d >= 1 && d <= 6))) { flash(t("term.die-range"), "error"); return null; }
  return dice;
}

export function limitsFields(prefix) {
  const [min, minEcho] = moneyInput(`${prefix}-minimum`);
  const [max, maxEcho] = moneyInput(`${prefix}-maximum`);
  const [unit, unitEcho] = moneyInput(`${prefix}-unit`);
  return [
    el("div", { class: "limits-fields" },
      field(t("term.minimum"), min, minEcho), field(t("term.maximum"), max, maxEcho), field(t("term.unit"), unit, unitEcho)),
    el("small", { class: "muted" }, tableInfo.currency
      ? t("term.in-currency", { currency: tableInfo.currency, example: typedFromMinor(1250) })
      : t("term.in-money", { example: typedFromMinor(1250) })),
  ];
}

export function readLimits(prefix) {
  const n = (name) => minorFromTyped($(`${prefix}-${name}`).value);
  const limits = { minimum: n("minimum"), maximum: n("maximum"), unit: n("unit") };
  if (!(limits.minimum >= 1 && limits.maximum >= 1 && limits.unit >= 1)) {
    flash(t("term.limits-money", { example: typedFromMinor(1250) }), "error");
    return null;
  }
  // The sign's lines for single bet kinds (000 §4.1) have no fields here yet: keep the table's,
  // so that changing the minimum or maximum never drops them silently.
  const lines = state.view && state.view.limits && state.view.limits.by_kind;
  if (lines && Object.keys(lines).length) limits.by_kind = lines;
  return limits;
}

export function select(id, options) {
  return el("select", { id, required: true }, ...options.map(([value, label]) => el("option", { value }, t(label))));
}

/** A datetime-local value (local time) for a moment minutes from now. */
function localInputValue(minutesAhead) {
  const t = new Date(Date.now() + state.skew + minutesAhead * 60_000);
  t.setSeconds(0, 0);
  const pad = (n) => String(n).padStart(2, "0");
  return `${t.getFullYear()}-${pad(t.getMonth() + 1)}-${pad(t.getDate())}T${pad(t.getHours())}:${pad(t.getMinutes())}`;
}

/** An ISO 8601 UTC time from a datetime-local value; null when empty or invalid. */
export function isoFromLocal(value) {
  if (!value) return null;
  const t = new Date(value);
  return Number.isNaN(t.getTime()) ? null : t.toISOString();
}

/** Fill untouched limit and time fields from the table (again after a form was sent). */
export function prefill(box, force = false) {
  if (!box) return;
  const { view } = state;
  if (view && view.limits) {
    for (const input of box.querySelectorAll("input[data-money]")) {
      if (input.dataset.touched && !force) continue;
      if (input.value && !force) continue;
      const name = input.id.split("-").pop();
      if (view.limits[name] !== undefined) {
        input.value = typedFromMinor(view.limits[name]);
        delete input.dataset.touched;
        input.dispatchEvent(new Event("input"));
        delete input.dataset.touched;
      }
    }
  }
  for (const input of box.querySelectorAll("input[type=datetime-local]")) {
    if (!input.value || force) input.value = localInputValue(Number(input.dataset.ahead || 20));
  }
}
