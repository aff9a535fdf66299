"""Every page on a desktop's (1400x900), a tablet's (768x1024) and a phone's (390x844) screen
(issue 15 item 5), in headless Chromium against the real floor: a full-page screenshot of each
in build/screenshots/<page>-<size>.png (to be looked at), and no page nor its main column
scrolls sideways. Measured by the elements' boxes: the player's essentials on a phone's first
screen, above the tray of chips and buttons; the terminal's dice keys and round buttons wide
enough for a finger, their words inside them, and its messages over none of its controls."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest
from nats.aio.client import Client as NATS
from playwright.async_api import Browser, Page, expect

from sicbo.eventstore.store import EventStore
from sicbo_contracts.wagers import Wager
from tests.browser.conftest import SCREENSHOTS, ConsoleErrors, screenshot
from tests.browser.test_pages import sign_in as terminal_sign_in
from tests.browser.test_pages import signed_in_cashier, signed_in_player
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened
from tests.integration.test_settlement import play, wait_completed

DESKTOP, TABLET, PHONE = (1400, 900), (768, 1024), (390, 844)
SIZES = (DESKTOP, TABLET, PHONE)
#: How far the page, and its main column, reach sideways beyond the screen (px); 1 for rounding.
OVERFLOW = """() => Math.max(document.documentElement.scrollWidth,
  document.querySelector("main").scrollWidth) - window.innerWidth"""
#: A finger's width (px): Apple's and Google's guides ask 44-48 for a touch target.
FINGER = 44


@dataclass(frozen=True)
class Tables:
    land: str  # cca-1992, two rounds played with bets
    online: str  # online-live, one round played with the player's bet
    player: str


@pytest.fixture
async def tables(floor: Floor, nc: NATS, store: EventStore) -> Tables:
    land = await opened(floor, nc, "cca-1992")
    online = await opened(floor, nc, "online-live", betting_seconds=600)
    player = "pat-screens"
    bets = [Wager(bet="big", stake=200), Wager(bet="total:9", stake=100)]
    for n, dice in ((1, (2, 3, 5)), (2, (6, 6, 6))):
        await play(floor, nc, land, n, [("lee", bets)], dice)
        await wait_completed(store, land, n)
    await play(floor, nc, online, 1, [(player, bets)], (1, 4, 4))
    await wait_completed(store, online, 1)
    return Tables(land, online, player)


async def ready(page: Page, name: str, tables: Tables) -> None:
    """``page`` on page ``name``, signed in where the page needs it, its content drawn."""
    land = tables.land
    if name == "floor":
        await page.goto("/")
        await expect(page.locator(f'.table-card[data-table="{land}"]')).to_be_visible()
    elif name == "play":
        await signed_in_player(page, tables.online, tables.player)
        await expect(page.locator("#history tbody tr").first).to_be_visible()
    elif name == "play-land":
        # A land table's page for a player: its results and history, no layout to bet on.
        await signed_in_player(page, land, "lee")
        await expect(page.locator("#land-note")).to_be_visible()
        await expect(page.locator("#history tbody tr").first).to_be_visible()
    elif name == "layout":
        await page.goto(f"/tables/{land}/layout")
        await expect(page.locator(".spot.lit").first).to_be_visible()
    elif name == "display":
        await page.goto(f"/tables/{land}/display")
        await expect(page.locator("#latest")).to_have_attribute("data-round", "2")
    elif name == "board":
        await page.goto(f"/tables/{land}/board")
        await expect(page.locator("#results > *").first).to_be_visible()
    elif name == "dispute":
        await page.goto(f"/tables/{land}/rounds/1")
        await expect(page.locator("#report-body")).to_be_visible()
    elif name == "cashier":
        await page.goto("/cashier")
        await signed_in_cashier(page)
        # A statement on screen too: its tables are the page's widest part.
        await page.fill("#player", f"acme:s{uuid.uuid4().hex[:8]}")
        await page.click('#open-form button[type="submit"]')
        await page.fill("#money-amount", "25.50")
        await page.click("#deposit")
        await expect(page.locator("#statement-lines")).to_be_visible()
    elif name == "terminal":
        await terminal_sign_in(page, land, "ana", "1111")
    elif name == "not-found":
        await page.goto("/tables/nope-screens/play")
        await expect(page.locator("#what")).to_be_visible()


PAGES = [
    "floor",
    "play",
    "play-land",
    "layout",
    "display",
    "board",
    "dispute",
    "cashier",
    "terminal",
]


async def test_every_page_fits_a_desktop_a_tablet_and_a_phone(
    browser: Browser, gateway: str, tables: Tables, console_errors: ConsoleErrors
) -> None:
    overflows: dict[str, int] = {}
    for name in [*PAGES, "not-found"]:
        for width, height in SIZES:
            ctx = await browser.new_context(
                base_url=gateway, viewport={"width": width, "height": height}
            )
            ctx.set_default_timeout(15_000)
            try:
                page = console_errors.watch(await ctx.new_page())
                await ready(page, name, tables)
                await screenshot(page, f"{name}-{width}x{height}")
                # What the screen shows first, unscrolled (a full page of a phone is tall).
                shot = SCREENSHOTS / f"{name}-{width}x{height}-screen.png"
                await page.screenshot(path=str(shot))
                over = int(await page.evaluate(OVERFLOW))
                if over > 1:
                    overflows[f"{name}-{width}x{height}"] = over
                if name == "terminal" and (width, height) != DESKTOP:
                    await assert_fingers_fit_the_terminal(page, (width, height))
                if name == "play" and (width, height) == PHONE:
                    await assert_essentials_on_the_first_screen(page, height)
                if name == "play-land":  # nothing to bet on: neither the layout nor its tabs
                    await expect(page.locator("#layout")).to_be_hidden()
                    await expect(page.locator("#layout-tabs")).to_be_hidden()
            finally:
                await ctx.close()
    assert overflows == {}, "pages that scroll sideways (px beyond the screen)"
    assert console_errors == []


#: Each element's box on the screen, unscrolled: [left, top, right, bottom] (px).
BOXES = """(selectors) => Object.fromEntries(selectors.map((s) => {
  const node = document.querySelector(s);
  const box = node && node.getBoundingClientRect();
  return [s, box && box.width > 0 ? [box.left, box.top, box.right, box.bottom] : null];
}))"""
#: What a player needs to bet, see the round and its result (issue 15 item 1).
ESSENTIALS = [
    "#countdown",
    "#round-no",
    "#total-bet",
    "#wallet, #who-box",
    "#result",
    "#layout",
    "#layout-tabs",
    ".chip.c100",
    ".chip.c5000",
    "#undo-slip",
    "#rebet-slip",
    "#double-slip",
    "#confirm-slip",
]


async def assert_essentials_on_the_first_screen(page: Page, height: int) -> None:
    """On a phone the essentials are all on the first screen, unscrolled, and the layout (one
    of its groups, under its tabs) ends above the tray of chips and buttons fixed at the
    bottom: nothing of it is under the tray. The road and the history may follow below."""
    boxes = await page.evaluate(BOXES, [*ESSENTIALS, ".tray"])
    missing = [s for s in ESSENTIALS if boxes[s] is None]
    assert missing == [], "essentials not drawn"
    below = {s: round(boxes[s][3]) for s in ESSENTIALS if boxes[s][3] > height + 1}
    assert below == {}, f"essentials below the first screen of {height} px"
    tray_top = boxes[".tray"][1]
    assert boxes["#layout"][3] <= tray_top + 1, (boxes["#layout"], tray_top)
    # Its tabs show every part of the layout: a tab a group, one group on screen at a time.
    tabs = page.locator("#layout-tabs .layout-tab")
    groups = page.locator("#layout .group")
    assert await tabs.count() == await groups.count() > 1
    assert await page.locator("#layout .group:visible").count() == 1
    await tabs.nth(1).click()
    await expect(groups.nth(1)).to_be_visible()
    await expect(groups.nth(0)).to_be_hidden()
    await expect(tabs.nth(1)).to_have_attribute("aria-selected", "true")
    # The player's chips and the result's lit spots show on their tabs while hidden.
    await expect(page.locator("#layout-tabs .layout-tab.has-lit")).not_to_have_count(0)
    await expect(page.locator("#layout-tabs .layout-tab.has-chip")).not_to_have_count(0)
    # The history's columns all in the phone's width: Outcome and Returned not cut off.
    history = "(t) => t.scrollWidth <= t.parentElement.clientWidth"
    assert await page.locator("#history").evaluate(history)


#: Each button's width and whether its words fit inside it.
BUTTONS = """(buttons) => buttons.filter((b) => b.offsetParent).map((b) => ({
  name: (b.dataset.action || b.id || b.textContent).trim().slice(0, 40),
  width: Math.round(b.getBoundingClientRect().width),
  height: Math.round(b.getBoundingClientRect().height),
  cut: b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1,
}))"""


async def assert_fingers_fit_the_terminal(page: Page, size: tuple[int, int]) -> None:
    """On a tablet and a phone the six dice keys and the round's buttons are a finger wide and
    high at least and their words are not cut; a message on the terminal covers no control.
    On a tablet a round's whole run is on the first screen: its buttons, the keypad, Enter."""
    width, height = size
    if size == TABLET:
        boxes = await page.evaluate(BOXES, ["#round-actions", ".dice-keys", "#dice-enter"])
        below = {s: box for s, box in boxes.items() if box is None or box[3] > height + 1}
        assert below == {}, f"the round's controls off the tablet's first screen ({height} px)"
    keys = await page.locator(".die-key").evaluate_all(BUTTONS)
    assert len(keys) == 6
    rounds = await page.locator(".round-action").evaluate_all(BUTTONS)
    assert rounds, "no round buttons"
    small = [b for b in keys + rounds if b["width"] < FINGER or b["height"] < FINGER]
    assert small == [], f"buttons narrower than a finger at {width} px"
    cut = [b["name"] for b in rounds if b["cut"]]
    assert cut == [], f"buttons whose words are cut at {width} px"
    # A message (a refusal, long, as the page's own notice() shows one): in its own line, over
    # no button or field.
    await page.evaluate(
        """async () => { const { notice } = await import("/static/common.js");
        notice("A long refusal of the server that the dealer has to read whole. ".repeat(3),
          "error"); }"""
    )
    await expect(page.locator("#notice")).to_be_visible()
    covered = await page.evaluate(
        """() => {
          const n = document.getElementById("notice").getBoundingClientRect();
          return [...document.querySelectorAll("#desk button, #desk input, #desk select")]
            .filter((c) => c.offsetParent)
            .filter((c) => { const b = c.getBoundingClientRect();
              return b.left < n.right && n.left < b.right
                && b.top < n.bottom && n.top < b.bottom; })
            .map((c) => c.id || c.dataset.action || c.textContent.trim());
        }"""
    )
    assert covered == [], f"controls under the terminal's message at {width} px"
