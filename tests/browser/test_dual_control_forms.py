"""Dual control at the terminal (``TableConfig.dual_control``), in headless Chromium against the
real floor: a supervisor's player sign (000 §4.4) or correction (GLI-19 §4.18.4) is only
proposed; the proposer's own terminal shows it waiting with the approve button disabled and
why, and a second supervisor (the demo's ``sam``) approves it at their own terminal. After the
approved correction the dispute page says which sequence the settlement was replayed to and
what the later correction changed."""

from __future__ import annotations

import msgspec
from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext, expect

from sicbo.eventstore.store import EventStore
from sicbo.replay.report import round_report
from sicbo_contracts.dice import ResultCorrected
from sicbo_contracts.subjects import Aggregate, round_filter, table_filter, table_level
from sicbo_contracts.wagers import Wager
from tests.browser.conftest import ConsoleErrors, Profiles, screenshot
from tests.browser.test_pages import sign_in
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened
from tests.integration.test_settlement import play, wait_completed, wait_for

APPROVE_SIGN = 'button[data-action="table.approve-player-limits.v1"]'
APPROVE_CORRECTION = 'button[data-action="dice.approve-correction.v1"]'
SIGN = (("player", "eve"), ("minimum", "1.00"), ("maximum", "90.00"), ("unit", "0.10"))  # money


async def test_000_4_4_a_sign_proposed_by_sofia_is_approved_by_sam_at_his_terminal(
    profiles: Profiles,
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, dual_control=True)
    sofia = console_errors.watch(await context.new_page())
    await sign_in(sofia, table, "sofia", "3333")
    await expect(sofia.locator(APPROVE_SIGN)).to_be_disabled()  # nothing waits yet
    for name, value in SIGN:
        await sofia.fill(f"#override-{name}", value)
    await sofia.fill("#override-reason", "high roller")
    await sofia.click('button[data-action="table.override-player-limits.v1"]')
    await wait_for(store, table_level(table), "table-player-limits-override-proposed-v1")
    await expect(sofia.locator("#approvals-status")).to_contain_text(
        "limits 1.00 \u2013 90.00 (steps 0.10) for eve by sofia"  # money, as the signs write it
    )
    # her own proposal: the server would refuse her approval, so the button says why it is off
    await expect(sofia.locator(APPROVE_SIGN)).to_be_disabled()
    await expect(sofia.locator(APPROVE_SIGN)).to_have_attribute(
        "title", "You proposed these limits: another supervisor approves them."
    )

    sam = console_errors.watch(await (await profiles()).new_page())  # his own cookies
    await sign_in(sam, table, "sam", "6666")
    await expect(sam.locator("#approvals-status")).to_contain_text("for eve by sofia")
    await expect(sam.locator(APPROVE_SIGN)).to_be_enabled()
    for name, value in SIGN:
        await sam.fill(f"#approve-sign-{name}", value)
    await sam.click(APPROVE_SIGN)
    await wait_for(store, table_level(table), "table-player-limits-overridden-v1")
    await expect(sam.locator("#approvals-status")).to_have_text("Nothing waits for approval.")
    await expect(sofia.locator("#approvals-status")).to_have_text("Nothing waits for approval.")
    await sam.context.close()
    assert console_errors == []


async def test_gli_19_4_18_4_sam_approves_sofias_correction_and_the_dispute_page_tells_it(
    profiles: Profiles,
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, dual_control=True)
    await play(floor, nc, table, 1, [("pat", [Wager(bet="big", stake=200)])], (2, 3, 5))
    await wait_completed(store, table, 1)  # small: pat's big lost

    sofia = console_errors.watch(await context.new_page())
    await sign_in(sofia, table, "sofia", "3333")
    await sofia.fill("#manual-reason", "the reader misread the dice")
    await sofia.click('button[data-action="dice.enter-manual-mode.v1"]')
    await expect(sofia.locator("#manual-status")).to_contain_text("Manual mode since")
    await sofia.fill("#correct-round", "1")
    for n, die in enumerate((4, 5, 6), start=1):
        await sofia.fill(f"#correct-die-{n}", str(die))
    await sofia.fill("#correct-reason", "the camera shows 4 5 6")
    await sofia.click('button[data-action="dice.correct.v1"]')
    lc_1 = round_filter(table, Aggregate.LIFECYCLE, 1)
    await wait_for(store, lc_1, "correction-proposed-v1")
    await expect(sofia.locator("#manual-status")).to_contain_text("round 1: 2-3-5 → 4-5-6 by sofia")
    await expect(sofia.locator(APPROVE_CORRECTION)).to_be_disabled()
    await expect(sofia.locator(APPROVE_CORRECTION)).to_have_attribute(
        "title", "You proposed this correction: another supervisor approves it."
    )

    sam = console_errors.watch(await (await profiles()).new_page())  # his own cookies
    await sign_in(sam, table, "sam", "6666")
    await expect(sam.locator("#manual-status")).to_contain_text("by sofia")
    await expect(sam.locator(APPROVE_CORRECTION)).to_be_enabled()
    await expect(sam.locator("#approve-round")).to_have_attribute("placeholder", "1")
    for n, die in enumerate((4, 5, 6), start=1):  # the round left empty: the one proposal's
        await sam.fill(f"#approve-die-{n}", str(die))
    await sam.click(APPROVE_CORRECTION)
    stored = await wait_for(store, lc_1, "result-corrected-v1")
    corrected = msgspec.json.decode(stored.data, type=ResultCorrected)
    assert (corrected.actor.id, tuple(corrected.after)) == ("sam", (4, 5, 6))
    adjusted = await wait_for(store, round_filter(table, Aggregate.SETTLE, 1), "settle-adjusted-v1")
    await expect(sam.locator(APPROVE_CORRECTION)).to_be_disabled()
    await screenshot(sam, "terminal-second-supervisor-approved")

    report = round_report(await store.read(table_filter(table)), table, 1)
    assert report.invariants == [] and report.final_dice is not None
    dispute = sam
    await dispute.goto(f"/tables/{table}/rounds/1")
    replayed = dispute.locator("#replayed")
    await expect(replayed).to_contain_text(
        f"up to log sequence {report.as_of}, with the dice 2-3-5"
    )
    final = "-".join(map(str, report.final_dice))
    await expect(replayed).to_contain_text(
        f"Later, a correction at log sequence {stored.seq} changed the result to {final}."
    )
    await expect(replayed).to_contain_text(f"adjusted at log sequence {adjusted.seq}")
    await expect(dispute.locator("#no-findings")).to_be_visible()
    await expect(dispute.locator("#findings")).to_be_hidden()
    await expect(dispute.locator(f'#history tr[data-seq="{stored.seq}"]')).to_have_class(
        "after-replay"
    )
    await screenshot(dispute, "dispute-corrected-round")
    await sam.context.close()
    assert console_errors == []
