"""What the player page's browser tests share: rounds dealt through the gateway's API with the
test's dice, and the page looked at on a desktop's, a tablet's and a phone's screen."""

from __future__ import annotations

import httpx
from playwright.async_api import Page

from sicbo.eventstore.store import EventStore
from tests.browser.conftest import SCREENSHOTS, screenshot
from tests.integration.test_gateway import accepted
from tests.integration.test_settlement import wait_completed

MARK = ".chip-marker"


async def dealt(web: httpx.AsyncClient, table: str, n: int, *steps: str) -> None:
    for step in steps:
        body: dict[str, object] = {"type": step, "round": n}
        if step == "round.start.v1":
            body["tumbles"] = 3
        await accepted(web, table, body)


async def result(
    web: httpx.AsyncClient, store: EventStore, table: str, n: int, dice: list[int]
) -> None:
    """Round ``n`` from betting open to its confirmed result, settled and completed."""
    await dealt(web, table, n, "round.close-betting.v1", "round.uncover.v1")
    await accepted(web, table, {"type": "dice.enter.v1", "round": n, "dice": dice})
    await accepted(web, table, {"type": "dice.confirm.v1", "round": n})
    await wait_completed(store, table, n)


def spot(page: Page, bet: str) -> str:
    return f'.spot[data-bet="{bet}"]'


async def returns_won(page: Page, table: str, round_no: int) -> int:
    """What the player's winning wagers of ``round_no`` returned, as the history has it."""
    history = await (await page.request.get(f"/api/tables/{table}/history")).json()
    return sum(
        r["returned"]
        for s in history["slips"]
        for st in s["settlements"]
        if st["round"] == round_no
        for r in st["results"]
        if r["outcome"] == "win"
    )


SIZES = ((1400, 900), (768, 1024), (390, 844))
#: The main column's and the history's own widths: nothing wider than the screen or its box.
FITS = """() => {
  const root = document.documentElement;
  const history = document.querySelector("#history");
  return {
    page: root.scrollWidth <= window.innerWidth,
    main: document.querySelector("main.play").scrollWidth <= window.innerWidth,
    history: history.scrollWidth <= history.parentElement.clientWidth,
  };
}"""


async def at_three_sizes(page: Page, name: str) -> None:
    """Screenshots at a desktop's, a tablet's and a phone's size; on each, no sideways
    scrolling of the page, its main column or the history table."""
    for width, height in SIZES:
        await page.set_viewport_size({"width": width, "height": height})
        await screenshot(page, f"{name}-{width}x{height}")
        shot = SCREENSHOTS / f"{name}-{width}x{height}-screen.png"
        await page.screenshot(path=str(shot))  # what the screen shows, unscrolled
        assert await page.evaluate(FITS) == {"page": True, "main": True, "history": True}, width
    await page.set_viewport_size({"width": 1280, "height": 900})
