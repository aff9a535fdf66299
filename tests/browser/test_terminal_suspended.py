"""The dealer's terminal while the table is suspended (a leftover of the screens review):
every round button off says the table is suspended, "No more bets" among them (it said "Open
the bets first", a reason of another moment)."""

from __future__ import annotations

from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.test_pages import sign_in
from tests.browser.test_round_rules import started_and_suspended
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened

WHYS = """() => [...document.querySelectorAll("#round-actions button.round-action")]
  .filter((b) => b.offsetParent).map((b) => [b.dataset.action, b.disabled, b.dataset.why || ""])"""


async def test_a_suspended_table_says_so_on_every_round_button(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "cca-1992")
    await started_and_suspended(floor, nc, table, suspend=True)
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "ana", "1111")
    await expect(page.locator("#suspended")).to_be_visible()
    await screenshot(page, "terminal-suspended")
    buttons = await page.evaluate(WHYS)
    assert [action for action, _, _ in buttons][-2:] == [
        "round.close-betting.v1",
        "round.uncover.v1",
    ]
    reasons = {why for _, _, why in buttons}
    assert reasons == {"Table suspended: no play until the fault is cleared."}, buttons
    assert all(off for _, off, _ in buttons)
    assert console_errors == []
