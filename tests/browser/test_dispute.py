"""The dispute page (/tables/T/rounds/N) shows replay's findings of the log's invariants in the
round, in headless Chromium against the real floor: "no finding" for a clean round; a second
settlement forged into the log (a raw append, as a floor without accounts lets through) is
listed with its stream sequence, its check and replay's sentence."""

from __future__ import annotations

import msgspec
from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext, expect

from sicbo.eventstore.store import EventStore
from sicbo.replay.report import round_report
from sicbo_contracts.settlement import RoundSettled
from sicbo_contracts.subjects import Aggregate, round_filter, table_filter
from sicbo_contracts.wagers import Wager
from tests.browser.conftest import ConsoleErrors, screenshot
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened
from tests.integration.test_replay_invariants import forge
from tests.integration.test_settlement import play, wait_completed, wait_for


async def test_the_dispute_page_lists_the_rounds_invariant_findings(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc)
    for n in (1, 2):
        await play(floor, nc, table, n, [("pat", [Wager(bet="big", stake=200)])], (2, 3, 5))
        await wait_completed(store, table, n)
    page = console_errors.watch(await context.new_page())
    await page.goto(f"/tables/{table}/rounds/1")
    await expect(page.locator("#no-findings")).to_have_text(
        "No finding: the round's events break none of the log's invariants."
    )
    await expect(page.locator("#findings")).to_be_hidden()
    await expect(page.locator("#replayed")).to_contain_text(
        "No correction or cancellation came after it."
    )

    summary = await wait_for(store, round_filter(table, Aggregate.SETTLE, 1), "round-settled-v1")
    again = msgspec.json.decode(summary.data, type=RoundSettled)
    second = await forge(store, again, Aggregate.SETTLE)  # round 1 settled twice
    report = round_report(await store.read(table_filter(table)), table, 1)
    assert [f.seq for f in report.invariants] == [second], report.invariants
    await page.reload()
    findings = page.locator("#findings li")
    await expect(findings).to_have_count(len(report.invariants))
    for finding in report.invariants:
        await expect(page.locator(f'#findings li[data-seq="{finding.seq}"]')).to_have_text(
            f"#{finding.seq} {finding.check}: {finding.message}"
        )
    await expect(page.locator("#no-findings")).to_be_hidden()
    await screenshot(page, "dispute-invariant-finding")

    clean = console_errors.watch(await context.new_page())
    await clean.goto(f"/tables/{table}/rounds/2")  # the other round's events break nothing
    await expect(clean.locator("#no-findings")).to_be_visible()
    assert console_errors == []
