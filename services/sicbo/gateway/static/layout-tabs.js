// The layout's groups as tabs, for a phone: a whole Sic Bo layout is 1,900 px tall at 390 px
// wide, so a phone shows one group at a time under a row of tabs and the layout fits the first
// screen with the ring, the chips and the slip's buttons. Which group shows is this module's;
// whether tabs are used at all is play.css's (a wider screen shows every group and no tabs).
// A tab is marked when its group has a lit spot (the result) or the player's chips on it, so a
// win or a bet in a hidden group is not missed.
//
//   groupTabs(layout, tabs)  tabs for the groups renderLayout drew into `layout`; call again
//                            after every renderLayout (the group last chosen stays chosen)

import { el } from "/static/common.js";

const watched = new WeakMap();

function choose(layout, tabs, name) {
  layout.dataset.tab = name;
  for (const group of layout.querySelectorAll(".group")) {
    group.classList.toggle("current", group.dataset.group === name);
  }
  for (const tab of tabs.querySelectorAll(".layout-tab")) {
    tab.setAttribute("aria-selected", String(tab.dataset.group === name));
  }
}

/** Each tab's marks: a lit spot in its group, chips of the player on it. */
function mark(layout, tabs) {
  for (const tab of tabs.querySelectorAll(".layout-tab")) {
    const group = layout.querySelector(`.group[data-group="${CSS.escape(tab.dataset.group)}"]`);
    tab.classList.toggle("has-lit", Boolean(group && group.querySelector(".spot.lit")));
    tab.classList.toggle("has-chip", Boolean(group && group.querySelector(".spot.has-chip")));
  }
}

export function groupTabs(layout, tabs) {
  const groups = [...layout.querySelectorAll(".group")];
  const names = groups.map((g) => g.dataset.group);
  tabs.replaceChildren(...groups.map((group) => {
    const title = group.querySelector(".group-title");
    return el("button", {
      type: "button", class: "layout-tab", role: "tab", "data-group": group.dataset.group,
    }, title ? title.textContent : group.dataset.group);
  }));
  tabs.hidden = groups.length < 2;
  layout.classList.toggle("tabbed", groups.length >= 2);
  const kept = names.includes(layout.dataset.tab) ? layout.dataset.tab : names[0];
  if (kept) choose(layout, tabs, kept);
  mark(layout, tabs);
  if (watched.has(layout)) return;
  tabs.addEventListener("click", (event) => {
    const tab = event.target.closest(".layout-tab");
    if (tab) choose(layout, tabs, tab.dataset.group);
  });
  // Lamps and chips change the spots' classes: the tabs' marks follow.
  const observer = new MutationObserver(() => mark(layout, tabs));
  observer.observe(layout, { subtree: true, attributes: true, attributeFilter: ["class"] });
  watched.set(layout, observer);
}
