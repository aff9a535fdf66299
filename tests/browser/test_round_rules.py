"""The terminal offers what the table's rules allow now, in headless Chromium against the real
floor: the ways to start a round (000 §5.1; 002/2003 art. 2; 002/2004 art. 2(1), the electric
shaker once adopted under art. 8), the cancel form only where and while a round may be cancelled
(004 "Ralat Pengendalian"), and the sign's line for a bet kind on the player's page (000 §4.1).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import msgspec
from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext, Page, expect

from sicbo.eventstore.store import EventStore
from sicbo_contracts.base import KindLimits
from sicbo_contracts.lifecycle import (
    ApprovePaytable,
    ChangeLimits,
    ProposePaytable,
    ReportMalfunction,
    StartRound,
)
from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.test_pages import sign_in
from tests.browser.test_signs import DASH, signed_in_player
from tests.integration.conftest import DEALER, LIMITS, OPERATOR, SUPERVISOR, Floor, new_id
from tests.integration.test_gateway import opened
from tests.integration.test_round_services import lc_events
from tests.integration.test_settlement import ok

HANDLE = 'button[data-action="round.start.v1"]'
SHAKER = 'button[data-activation="electric-shaker"]'
CANCEL = '[data-form="round.cancel.v1"]'


async def still_signed_in(page: Page, table: str, operator: str) -> None:
    """The terminal of another table, the operator's session kept (the same cookies)."""
    await page.goto(f"/tables/{table}/terminal?lang=en")
    await expect(page.locator("#who")).to_contain_text(operator)


async def adopt_the_shaker(floor: Floor, nc: NATS, table: str) -> None:
    """002/2004 art. 8: applied for ten days ago, approved from today (the table's day)."""
    today = datetime.now(UTC).astimezone(ZoneInfo("Asia/Macau")).date()
    common = {"table": table}
    choices: dict[str, int | str] = {"activation": "electric-shaker"}
    propose = ProposePaytable(
        command_id=new_id(),
        actor=OPERATOR,
        choices=choices,
        applied_on=today - timedelta(days=10),
        **common,
    )
    await ok(floor, nc, propose)
    approve = ApprovePaytable(
        command_id=new_id(),
        actor=SUPERVISOR,
        paytable="macau-2004@v1?activation=electric-shaker",
        adoption_date=today,
        acknowledged_no_house_edge=["even", "odd"],
        regulator_reference="DICJ/2024/0417",
        **common,
    )
    await ok(floor, nc, approve)


async def test_the_shaker_is_offered_on_macau_2004_only_once_approved_002_2004_art_2_1_art_8(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    older = await opened(floor, nc, "macau-2003")
    page = console_errors.watch(await context.new_page())
    await sign_in(page, older, "ana", "1111")
    await expect(page.locator(HANDLE)).to_be_visible()
    await expect(page.locator("#tumbles")).to_be_visible()
    await expect(page.locator(SHAKER)).to_be_hidden()  # 002/2003 art. 2: the handle only

    table = await opened(floor, nc, "macau-2004")
    await still_signed_in(page, table, "ana")
    await expect(page.locator(HANDLE)).to_be_visible()
    await expect(page.locator(SHAKER)).to_be_hidden()  # an option, not adopted yet
    await adopt_the_shaker(floor, nc, table)
    await expect(page.locator(SHAKER)).to_be_visible()
    await expect(page.locator(HANDLE)).to_be_hidden()  # the approved way replaces the handle
    await expect(page.locator("#tumbles")).to_be_hidden()  # art. 2(1): no count of tumbles
    await screenshot(page, "terminal-macau-2004-shaker")
    await page.click(SHAKER)
    await expect(page.locator("#phase")).to_have_attribute("data-phase", "started")
    started = [e for e in await lc_events(store, table) if e["type"] == "round.started.v1"]
    assert [(e["activation"], e["tumbles"]) for e in started] == [("electric-shaker", 0)]
    assert console_errors == []


async def test_a_land_table_whose_rules_name_an_electrical_device_offers_both_000_5_1(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "cca-1992")
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "ana", "1111")
    await expect(page.locator(HANDLE)).to_be_visible()
    await expect(page.locator(SHAKER)).to_be_visible()
    await expect(page.locator("#tumbles")).to_be_visible()  # three tumbles either way
    assert console_errors == []


async def started_and_suspended(floor: Floor, nc: NATS, table: str, *, suspend: bool) -> None:
    common = {"table": table, "actor": DEALER}
    await ok(floor, nc, StartRound(command_id=new_id(), round=1, tumbles=3, **common))
    if suspend:
        report = ReportMalfunction(
            command_id=new_id(), equipment="tumbler", detail="stuck", round=1, **common
        )
        await ok(floor, nc, report)


async def test_the_cancel_form_only_at_an_online_table_while_suspended_004_ralat_pengendalian(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    land = await opened(floor, nc, "cca-1992")
    await started_and_suspended(floor, nc, land, suspend=True)
    page = console_errors.watch(await context.new_page())
    await sign_in(page, land, "sofia", "3333")
    await expect(page.locator("#phase")).to_have_attribute("data-phase", "started")
    await expect(page.locator(CANCEL)).to_be_hidden()  # 000 §7: no cancellation into refunds
    await expect(page.locator("#cancel-unavailable")).to_contain_text(
        "give no cancellation of a round into refunds"
    )

    online = await opened(floor, nc, "online-live", betting_seconds=10)
    await started_and_suspended(floor, nc, online, suspend=False)
    await still_signed_in(page, online, "sofia")
    await expect(page.locator("#phase")).to_have_attribute("data-phase", "started")
    await expect(page.locator(CANCEL)).to_be_hidden()
    await expect(page.locator("#cancel-unavailable")).to_contain_text("Round 1 is not suspended")
    report = ReportMalfunction(
        command_id=new_id(),
        table=online,
        actor=DEALER,
        equipment="tumbler",
        detail="stuck",
        round=1,
    )
    await ok(floor, nc, report)
    await expect(page.locator(CANCEL)).to_be_visible()
    await expect(page.locator("#cancel-unavailable")).to_be_hidden()
    await page.fill("#cancel-reason", "tumbler cannot be fixed quickly")
    await page.click('button[data-action="round.cancel.v1"]')
    # Settlement refunds the cancelled round and completes it (004): either may be shown.
    await expect(page.locator("#phase")).to_have_attribute(
        "data-phase", re.compile("^(cancelled|completed)$")
    )
    cancelled = [e for e in await lc_events(store, online) if e["type"] == "round.cancelled.v1"]
    assert [(e["round"], e["actor"]["id"]) for e in cancelled] == [(1, "sofia")]
    await expect(page.locator(CANCEL)).to_be_hidden()
    await screenshot(page, "terminal-online-cancelled")
    assert console_errors == []


async def test_the_player_sees_the_signs_line_for_triples_000_4_1(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=10)
    lines = {"triple": KindLimits(maximum=5_000)}
    change = ChangeLimits(
        command_id=new_id(),
        table=table,
        actor=SUPERVISOR,
        limits=msgspec.structs.replace(LIMITS, by_kind=lines),
        reason="a lower maximum on triples",
    )
    await ok(floor, nc, change)
    page = console_errors.watch(await context.new_page())
    await signed_in_player(page, table, "pat")
    await expect(page.locator('#signs [data-sign="kind-limits"]')).to_have_text(
        f"Triples 1.00 {DASH} 50.00"
    )
    assert console_errors == []
