"""The table's signs where players look (000 §4.1, §4.3, §4.4, §8.8): on the player's page, the
layout and the floor page, in headless Chromium against the real floor. A player's own sign
(§4.4), in force or waiting for a second supervisor, is shown to that player only: not to
another player, not on the public layout; an invalidation waiting for a second supervisor
(000 §8.4) to the table's players, each told whether it would forfeit their own wagers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import msgspec
from nats.aio.client import Client as NATS
from playwright.async_api import Browser, BrowserContext, expect

from sicbo.eventstore.store import EventStore
from sicbo_contracts.base import KindLimits, Limits
from sicbo_contracts.invalidation import InvalidationReason
from sicbo_contracts.lifecycle import (
    ChangeLimits,
    InvalidateRound,
    OverridePlayerLimits,
    PostClosingNotice,
    PostLimitsNotice,
)
from sicbo_contracts.wagers import Wager
from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.test_pages import signed_in_player
from tests.integration.conftest import LIMITS, SUPERVISOR, Floor, new_id
from tests.integration.test_gateway import opened
from tests.integration.test_settlement import ok, play, wait_completed

DASH = "\u2013"  # the signs write a range as 1.00 \u2013 500.00


async def test_players_see_the_limits_the_notices_and_only_their_own_sign_000_4_and_8_8(
    browser: Browser,
    gateway: str,
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=10)
    soon = datetime.now(UTC) + timedelta(hours=1)
    common = {"table": table, "actor": SUPERVISOR}
    await ok(
        floor,
        nc,
        PostLimitsNotice(
            command_id=new_id(),
            limits=Limits(minimum=500, maximum=100_000, unit=10),
            effective_at=soon,
            **common,
        ),
    )
    await ok(floor, nc, PostClosingNotice(command_id=new_id(), close_at=soon, **common))
    high_roller = Limits(minimum=100, maximum=500_000, unit=10)
    override = OverridePlayerLimits(
        command_id=new_id(), player="pat", limits=high_roller, reason="known player", **common
    )
    await ok(floor, nc, override)

    pat = console_errors.watch(await context.new_page())
    await signed_in_player(pat, table, "pat")
    signs = pat.locator("#signs")
    await expect(signs.locator('[data-sign="limits"]')).to_have_text(
        f"Table limits 1.00 {DASH} 1,000.00 (steps 0.10)"
    )
    await expect(signs.locator('[data-sign="limits-notice"]')).to_contain_text(
        f"New limits 5.00 {DASH} 1,000.00"
    )
    await expect(signs.locator('[data-sign="own-limits"]')).to_have_text(
        f"Your limits 1.00 {DASH} 5,000.00 (steps 0.10)"
    )
    await expect(signs.locator('[data-sign="closing"]')).to_contain_text("This table closes at")
    await screenshot(pat, "play-signs")

    other = await browser.new_context(base_url=gateway)  # another player's own cookies
    quinn = console_errors.watch(await other.new_page())
    await signed_in_player(quinn, table, "quinn")
    await expect(quinn.locator('#signs [data-sign="closing"]')).to_have_count(1)
    await expect(quinn.locator('#signs [data-sign="own-limits"]')).to_have_count(0)

    layout = console_errors.watch(await other.new_page())
    await layout.goto(f"/tables/{table}/layout")
    await expect(layout.locator('#signs [data-sign="limits-notice"]')).to_have_count(1)
    await expect(layout.locator('#signs [data-sign="closing"]')).to_have_count(1)
    await expect(layout.locator('#signs [data-sign="own-limits"]')).to_have_count(0)
    await screenshot(layout, "layout-signs")
    await other.close()
    assert console_errors == []


async def test_the_floor_shows_each_tables_line_per_bet_kind_000_4_1(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc)
    lines = {"triple": KindLimits(maximum=5_000), "big": KindLimits(maximum=20_000)}
    change = ChangeLimits(
        command_id=new_id(),
        table=table,
        actor=SUPERVISOR,
        limits=msgspec.structs.replace(LIMITS, by_kind=lines),
        reason="own lines for big and triples",
    )
    await ok(floor, nc, change)
    page = console_errors.watch(await context.new_page())
    await page.goto("/")
    card = page.locator(f'section.table-card[data-table="{table}"]')
    await expect(card.locator(".meta")).to_contain_text(f"Limits 1.00 {DASH} 1,000.00 (steps 0.10)")
    # in the catalogue's order, as the terminal and the player's page write them
    await expect(card.locator('.kind-limits [data-sign="kind-limits"]')).to_have_text(
        [f"Big 1.00 {DASH} 200.00", f"Triples 1.00 {DASH} 50.00"]
    )
    await card.scroll_into_view_if_needed()
    await screenshot(page, "floor-kind-limits")
    assert console_errors == []


async def test_a_player_sees_what_waits_for_a_second_supervisor_000_4_4_and_8_4(
    browser: Browser,
    gateway: str,
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, dual_control=True)
    await play(floor, nc, table, 1, [("pat", [Wager(bet="big", stake=200)])], (2, 3, 5))
    await wait_completed(store, table, 1)
    common = {"table": table, "actor": SUPERVISOR}
    invalidate = InvalidateRound(
        command_id=new_id(),
        round=1,
        reason=InvalidationReason.FRAUD,
        detail="marked dice",
        forfeits=["pat"],
        **common,
    )
    await ok(floor, nc, invalidate)
    high_roller = Limits(minimum=100, maximum=500_000, unit=10)
    await ok(
        floor,
        nc,
        OverridePlayerLimits(
            command_id=new_id(), player="pat", limits=high_roller, reason="regular", **common
        ),
    )

    pat = console_errors.watch(await context.new_page())
    await signed_in_player(pat, table, "pat")
    signs = pat.locator("#signs")
    await expect(signs.locator('[data-sign="own-limits-pending"]')).to_have_text(
        f"New limits for you 1.00 {DASH} 5,000.00 (steps 0.10): waiting for a second"
        " supervisor's approval; until then your limits stay as they are"
    )
    await expect(signs.locator('[data-sign="own-limits"]')).to_have_count(0)  # none in force
    await expect(signs.locator('[data-sign="invalidation-pending"]')).to_have_text(
        "A supervisor has asked for round 1 to be declared void (fraud) and your wagers in it"
        " to be kept by the house; a second supervisor decides. Nothing has changed yet"
    )
    await screenshot(pat, "play-waiting-for-second-supervisor")
    await pat.set_viewport_size({"width": 390, "height": 844})  # a phone: the lines wrap
    fits = "(box) => box.scrollWidth <= box.clientWidth"
    assert await signs.evaluate(fits)
    await screenshot(pat, "play-waiting-for-second-supervisor-phone")

    other = await browser.new_context(base_url=gateway)  # another player's own cookies
    quinn = console_errors.watch(await other.new_page())
    await signed_in_player(quinn, table, "quinn")
    pending = quinn.locator('#signs [data-sign="invalidation-pending"]')
    await expect(pending).to_have_text(
        "A supervisor has asked for round 1 to be declared void (fraud); a second supervisor"
        " decides. Nothing has changed yet"
    )
    await expect(quinn.locator('#signs [data-sign="own-limits-pending"]')).to_have_count(0)
    layout = console_errors.watch(await other.new_page())
    await layout.goto(f"/tables/{table}/layout")
    await expect(layout.locator('#signs [data-sign="limits"]')).to_have_count(1)
    await expect(layout.locator('#signs [data-sign="invalidation-pending"]')).to_have_count(0)
    await other.close()
    assert console_errors == []
