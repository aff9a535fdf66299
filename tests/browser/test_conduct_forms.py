"""The supervisor's terminal offers the powers of 000 §8.3 (void a player's wagers, exclude a
player, lift the exclusion) as forms; a dealer's terminal does not. Sent from the page, the
exclusion is in the log, recording the supervisor and the reason."""

from __future__ import annotations

import msgspec
from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext, expect

from sicbo.eventstore.store import EventStore
from sicbo_contracts.lifecycle import PlayerExcluded
from sicbo_contracts.subjects import table_level
from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.test_pages import sign_in
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened
from tests.integration.test_settlement import wait_for

TAGS = ("round.void-player-wagers.v1", "table.exclude-player.v1", "table.lift-exclusion.v1")


async def test_000_8_3_the_supervisor_excludes_a_player_from_the_terminal(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc)
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "ana", "1111")  # a dealer: none of the forms
    for tag in TAGS:
        await expect(page.locator(f'[data-form="{tag}"]')).to_have_count(0)
    await page.click("#signout")
    await sign_in(page, table, "sofia", "3333")
    for tag in TAGS:
        await expect(page.locator(f'[data-form="{tag}"]')).to_have_count(1)
    # 000 §8.3.1 only while a round is in play: none has started.
    await expect(page.locator('button[data-action="round.void-player-wagers.v1"]')).to_be_disabled()
    await page.fill("#exclude-player-player", "eve")
    await page.fill("#exclude-player-reason", "phone filming the shaker")
    await page.click('button[data-action="table.exclude-player.v1"]')
    stored = await wait_for(store, table_level(table), "table-player-excluded-v1")
    excluded = msgspec.json.decode(stored.data, type=PlayerExcluded)
    assert (excluded.player, excluded.reason) == ("eve", "phone filming the shaker")
    assert excluded.actor.id == "sofia"
    await screenshot(page, "terminal-supervisor-conduct")
    assert console_errors == []
