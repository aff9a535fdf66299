"""A land table's displays in headless Chromium, against the real floor: the layout page fills
its screen with the phase in words and the winning spots lit (000 §2.3, §5.1-5.2), and the
results board shows the last results in big digits, each marked big/small/odd/even or triple,
the last one largest, with "past results do not predict" (GLI-19 §4.18.2(b))."""

from __future__ import annotations

import re

import pytest
from nats.aio.client import Client as NATS
from playwright.async_api import Browser, Page, expect

from sicbo.eventstore.store import EventStore
from sicbo_contracts.base import Dice
from tests.browser.conftest import ConsoleErrors, screenshot
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    open_round,
    wait_completed,
)
from tests.unit.game.oracle import offered, oracle_pay

SCREENS = [(1920, 1080), (1400, 900)]
FONT_SIZE = "e => parseFloat(getComputedStyle(e).fontSize)"


async def played(floor: Floor, nc: NATS, store: EventStore, table: str, rounds: list[Dice]) -> None:
    for n, dice in enumerate(rounds, start=1):
        await open_round(floor, nc, table, n)
        await close_and_uncover(floor, nc, table, n)
        await confirm(floor, nc, table, n, dice)
        await wait_completed(store, table, n)


async def on_screen(browser: Browser, gateway: str, path: str, size: tuple[int, int]) -> Page:
    width, height = size
    ctx = await browser.new_context(base_url=gateway, viewport={"width": width, "height": height})
    page = await ctx.new_page()
    await page.goto(path)
    return page


async def test_the_layout_fills_its_screen_lights_the_winners_and_says_the_phase(
    browser: Browser,
    gateway: str,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "cca-1992")
    await played(floor, nc, store, table, [(2, 5, 6)])
    winners = {b for b in offered("cca-1992") if oracle_pay("cca-1992", b, (2, 5, 6)) is not None}
    path = f"/tables/{table}/layout"
    for width, height in SCREENS:
        page = console_errors.watch(await on_screen(browser, gateway, path, (width, height)))
        await expect(page.locator(".spot.lit")).to_have_count(len(winners))
        await expect(page.locator("#phase-call")).to_have_text("Waiting for the next round")
        box = await page.locator("#layout").bounding_box()
        assert box is not None
        # The board fills the screen below its header: not half of it.
        assert box["width"] >= 0.95 * width and box["height"] >= 0.75 * height, (box, width)
        assert box["y"] + box["height"] <= height + 1  # and fits: no scrolling
        await screenshot(page, f"layout-cca-1992-{width}x{height}")
        await page.context.close()

    # A round in play: the display calls the phase in words.
    page = console_errors.watch(await on_screen(browser, gateway, path, SCREENS[0]))
    await open_round(floor, nc, table, 2)
    await expect(page.locator("#phase-call")).to_have_text("Place your bets")
    await close_and_uncover(floor, nc, table, 2)
    await expect(page.locator("#phase-call")).to_contain_text("No more bets")
    await page.context.close()
    assert console_errors == []


@pytest.mark.parametrize("profile", ["macau-2003", "macau-2004", "online-live"])
async def test_every_profiles_layout_fills_its_screen_without_scrolling(
    browser: Browser,
    gateway: str,
    floor: Floor,
    nc: NATS,
    profile: str,
    console_errors: ConsoleErrors,
) -> None:
    config = {"betting_seconds": 20} if profile == "online-live" else {}
    table = await opened(floor, nc, profile, **config)
    for width, height in SCREENS:
        page = console_errors.watch(
            await on_screen(browser, gateway, f"/tables/{table}/layout", (width, height))
        )
        await expect(page.locator(".spot[data-bet]")).to_have_count(len(offered(profile)))
        await screenshot(page, f"layout-{profile}-{width}x{height}")
        box = await page.locator("#layout").bounding_box()
        assert box is not None
        assert box["width"] >= 0.95 * width and box["height"] >= 0.7 * height, (box, width)
        overflow = await page.evaluate(
            "[document.documentElement.scrollWidth - innerWidth,"
            " document.documentElement.scrollHeight - innerHeight]"
        )
        assert overflow[0] <= 0 and overflow[1] <= 0, overflow
        # Every spot is inside the layout's box: none squeezed out of sight.
        outside = await page.locator(".spot[data-bet]").evaluate_all(
            "(spots, h) => spots.filter(s => s.getBoundingClientRect().bottom > h + 1).length",
            height,
        )
        assert outside == 0
        await page.context.close()
    assert console_errors == []


async def test_the_results_board_shows_the_last_results_in_big_digits_marked(
    browser: Browser,
    gateway: str,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "cca-1992")
    # Round 1 is the 21st result back: off the board. Rounds 2-16 fill it up to the last five.
    filler: list[Dice] = [(1, 2, 3) if n % 2 else (3, 4, 6) for n in range(16)]
    rounds: list[Dice] = [*filler, (1, 2, 3), (4, 4, 4), (3, 5, 6), (1, 1, 2), (2, 5, 6)]
    await played(floor, nc, store, table, rounds)
    path = f"/tables/{table}/display"
    for width, height in SCREENS:
        page = console_errors.watch(await on_screen(browser, gateway, path, (width, height)))
        latest = page.locator("#latest")
        await expect(latest).to_have_attribute("data-round", "21")
        await expect(latest.locator(".total")).to_have_text("13")
        await expect(latest.locator(".marks")).to_have_text(re.compile("BIG.*ODD"))
        items = page.locator("#results-list [data-round]")
        await expect(items).to_have_count(19)  # the ones before the latest, newest first
        rows = await items.evaluate_all(
            "rs => rs.map(r => [r.dataset.round, r.querySelector('.total').textContent,"
            " r.querySelector('.marks').textContent])"
        )
        assert [r[0] for r in rows] == [str(n) for n in range(20, 1, -1)]  # not round 1
        assert [r[1] for r in rows[:4]] == ["4", "14", "12", "6"]
        assert [r[2] for r in rows[:2]] == ["SMALL EVEN", "BIG EVEN"]
        # A triple is neither big nor small (RULES.md "Triples"): marked as a triple.
        assert rows[2][2].startswith("TRIPLE") and "BIG" not in rows[2][2]
        assert rows[3][2] == "SMALL EVEN"
        await expect(page.locator("#display-note")).to_contain_text("do not predict")
        await expect(page.locator("#display-counts")).to_contain_text("Last 20")
        # The last result is the largest on the screen.
        latest_size = await latest.locator(".total").evaluate(FONT_SIZE)
        other_size = await items.first.locator(".total").evaluate(FONT_SIZE)
        assert latest_size > other_size >= 40  # big digits, readable from metres
        overflow = await page.evaluate(
            "[document.documentElement.scrollWidth - innerWidth,"
            " document.documentElement.scrollHeight - innerHeight]"
        )
        assert overflow[0] <= 0 and overflow[1] <= 0  # one screen, no scrolling
        await screenshot(page, f"board-display-cca-1992-{width}x{height}")
        await page.context.close()
    assert console_errors == []
