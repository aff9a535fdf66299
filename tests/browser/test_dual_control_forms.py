"""On a dual-control table (``TableConfig.dual_control``) the supervisor's terminal sends a
player's sign (000 §4.4) as before; it is only proposed: the terminal shows it waiting, with
the approve and reject forms, and the proposer's own approval is refused."""

from __future__ import annotations

from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext, expect

from sicbo.eventstore.store import EventStore
from sicbo_contracts.subjects import table_level
from tests.browser.conftest import ConsoleErrors
from tests.browser.test_pages import sign_in
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened
from tests.integration.test_settlement import wait_for


async def test_000_4_4_a_sign_sent_at_a_dual_control_table_waits_for_a_second_supervisor(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, dual_control=True)
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "sofia", "3333")
    approve = page.locator('button[data-action="table.approve-player-limits.v1"]')
    await expect(approve).to_be_disabled()  # nothing waits yet
    for name, value in (("player", "eve"), ("minimum", "100"), ("maximum", "9000"), ("unit", "10")):
        await page.fill(f"#override-{name}", value)
    await page.fill("#override-reason", "high roller")
    await page.click('button[data-action="table.override-player-limits.v1"]')
    await wait_for(store, table_level(table), "table-player-limits-override-proposed-v1")
    await expect(page.locator("#approvals-status")).to_contain_text("for eve by sofia")
    await expect(approve).to_be_enabled()
    for name, value in (("player", "eve"), ("minimum", "100"), ("maximum", "9000"), ("unit", "10")):
        await page.fill(f"#approve-sign-{name}", value)
    await approve.click()
    await expect(page.locator("#notice")).to_contain_text("another supervisor")
    assert console_errors == []
