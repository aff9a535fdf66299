"""Every page on a desktop's (1400x900), a tablet's (768x1024) and a phone's (390x844) screen
(issue 15 item 5), in headless Chromium against the real floor: a full-page screenshot of each
in build/screenshots/<page>-<size>.png (to be looked at), and no page scrolls sideways. The
dealer's terminal must fit the tablet and the desktop (it is not a phone's page)."""

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
from tests.browser.test_pages import signed_in_player
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened
from tests.integration.test_gateway_accounts import CASHIER
from tests.integration.test_settlement import play, wait_completed

DESKTOP, TABLET, PHONE = (1400, 900), (768, 1024), (390, 844)
SIZES = (DESKTOP, TABLET, PHONE)
#: How far the page reaches sideways beyond the screen (px); 1 for rounding.
OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


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
        await page.fill("#signin-operator", CASHIER[0])
        await page.fill("#signin-pin", CASHIER[1])
        await page.click('#signin-form button[type="submit"]')
        await expect(page.locator("#cashier-who")).to_contain_text(CASHIER[0])
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


PAGES = ["floor", "play", "layout", "display", "board", "dispute", "cashier", "terminal"]


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
                if over > 1 and not (name == "terminal" and (width, height) == PHONE):
                    overflows[f"{name}-{width}x{height}"] = over
            finally:
                await ctx.close()
    assert overflows == {}, "pages that scroll sideways (px beyond the screen)"
    assert console_errors == []
