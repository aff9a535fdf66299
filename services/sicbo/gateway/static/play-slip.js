// The play page's bet slip: the bets tapped on the layout with their stakes, listed beside it
// and marked on its spots with a chip.
import { el, money } from "/static/common.js";
import { betName } from "/static/layout.js";

const $ = (id) => document.getElementById(id);
const box = $("layout");

export const slip = new Map(); // bet id -> stake (minor units), in the order first tapped

export function addToSlip(bet, stake) {
  slip.set(bet, (slip.get(bet) || 0) + stake);
  renderSlip();
}

function removeBet(bet) {
  slip.delete(bet);
  renderSlip();
}

export function clearSlip() {
  slip.clear();
  renderSlip();
}

export function slipTotal() {
  let total = 0;
  for (const stake of slip.values()) total += stake;
  return total;
}

export function renderMarkers() {
  for (const old of box.querySelectorAll(".chip-marker")) old.remove();
  for (const spot of box.querySelectorAll(".spot.has-chip")) spot.classList.remove("has-chip");
  for (const spot of box.querySelectorAll(".spot")) {
    const stake = slip.get(spot.dataset.bet);
    if (!stake) continue;
    spot.classList.add("has-chip");
    spot.append(el("span", { class: "chip-marker", "aria-label": `on the slip: ${money(stake)}` }, money(stake)));
  }
}

export function renderSlip() {
  const list = $("slip");
  list.replaceChildren();
  for (const [bet, stake] of slip) {
    const label = betName(bet);
    list.append(el("li", { "data-bet": bet },
      el("span", { class: "bet-name" }, label, el("span", { class: "bet-id muted" }, bet)),
      el("span", { class: "stake" }, money(stake)),
      el("button", { type: "button", class: "remove", title: `remove ${label}`, "aria-label": `remove ${label}`,
        onclick: () => removeBet(bet) }, "✕"),
    ));
  }
  $("slip-empty").hidden = slip.size > 0;
  $("slip-total").textContent = money(slipTotal());
  // The service judges the slip: confirm stays enabled whenever there is something on it.
  $("confirm-slip").disabled = slip.size === 0;
  $("clear-slip").disabled = slip.size === 0;
  renderMarkers();
}
