"""The table's signs where players look (000 §4.1, §4.3, §4.4, §8.8): on the player's page and
the layout, in headless Chromium against the real floor. A player's own sign (§4.4) is shown to
that player only: not to another player, not on the public layout."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from nats.aio.client import Client as NATS
from playwright.async_api import Browser, BrowserContext, expect

from sicbo_contracts.base import Limits
from sicbo_contracts.lifecycle import OverridePlayerLimits, PostClosingNotice, PostLimitsNotice
from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.test_pages import signed_in_player
from tests.integration.conftest import SUPERVISOR, Floor, new_id
from tests.integration.test_gateway import opened
from tests.integration.test_settlement import ok

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
