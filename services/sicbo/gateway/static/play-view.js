// The play page's round: its number and phase in plain words, the last result line, the
// table's signs and its manual mode (GLI-19 §C.6.8(o)), from the TableView; and, at a table
// whose profile takes no remote players, the plain note that betting is at the table.
import { t } from "/static/i18n.js";
import { clock, el } from "/static/common.js";
import { diceFaces } from "/static/layout.js";
import { renderSigns } from "/static/signs.js";
import { phaseWords } from "/static/play-words.js";

const $ = (id) => document.getElementById(id);

export function showView(view, player = null) {
  const round = view.round;
  $("round-no").textContent = round ? String(round.number) : String(view.next_round ?? "—");
  const phase = $("phase");
  phase.textContent = phaseWords(view);
  phase.dataset.phase = round ? round.phase : "none";
  const open = Boolean(round && round.phase === "betting-open" && !view.suspended);
  const shown = Boolean(round && ["result-confirmed", "completed"].includes(round.phase));
  phase.classList.toggle("open", open);
  phase.classList.toggle("shown", shown);
  phase.classList.toggle("closed", Boolean(round) && !open && !shown);
  const last = view.last_result;
  const lr = $("last-result");
  lr.replaceChildren();
  if (last && last.dice) {
    lr.append(el("span", { class: "muted" }, t("play.last-result", { n: last.round })), diceFaces(last.dice), el("strong", {}, String(last.total)));
  }
  renderSigns($("signs"), view, player);
  showManualMode(view);
  showLand(view);
}

/** A land table: no betting from here, said plainly; its signs and the player's history stay. */
function showLand(view) {
  const land = !view.remote_players;
  $("table-box").classList.toggle("land", land);
  $("land-note").hidden = !land;
}

/** GLI-19 §C.6.8(o): while a supervisor enters a correction by hand, the players see it. */
export function showManualMode(view) {
  const box = $("manual-mode");
  const manual = view && view.manual_mode;
  box.hidden = !manual;
  if (!manual) return;
  const waiting = (view.proposals || []).map((p) => t("play.round-n", { n: p.round })).join(", ");
  box.replaceChildren(
    el("strong", {}, t("play.manual.title")),
    " ", t("play.manual.since", { at: clock(manual.since), reason: manual.reason }),
    waiting ? ` ${t("play.manual.waiting", { rounds: waiting })}` : "",
  );
}
