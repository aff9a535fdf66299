"""The dealer terminal's desk in headless Chromium, against the real floor:

- the keyboard plays the keypad: digits press the dice, Backspace takes one back, Enter enters
  them, but not while the dealer types in a form's field;
- a button the server would refuse is disabled and says why (Tumble while the table is
  suspended, 000 §7.7; Confirm for the dealer who entered the dice under second-person
  confirmation, 000 §5.4);
- a lamp fault's text goes from the terminal and the layout once an inspector clears it;
- a dealer records a player's chips for a round played by hand (000 §3.10-3.11) and the round
  settles them.
"""

from __future__ import annotations

import re

from nats.aio.client import Client as NATS
from playwright.async_api import Browser, BrowserContext, Page, expect

from sicbo.eventstore.store import EventStore
from sicbo_contracts.lifecycle import ClearFault, ReportMalfunction
from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.test_pages import press, sign_in
from tests.integration.conftest import DEALER, Floor, new_id
from tests.integration.test_gateway import opened
from tests.integration.test_settlement import (
    close_and_uncover,
    ok,
    open_round,
    settlement_of,
    wait_completed,
)
from tests.support.common import INSPECTOR

ENTER = "#dice-enter"
CONFIRM = 'button[data-action="dice.confirm.v1"]'
TUMBLE = 'button[data-action="round.start.v1"][data-activation="handle"]'


async def reason_of(page: Page, selector: str) -> str:
    """The reason a disabled button gives: the text its aria-describedby names."""
    return str(
        await page.locator(selector).evaluate(
            "b => document.getElementById(b.getAttribute('aria-describedby')).textContent"
        )
    )


async def test_the_keyboard_presses_the_dice_and_enter_enters_them_not_from_a_field(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "cca-1992")
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "ana", "1111")
    await press(page, "round.start.v1", "started")
    await press(page, "round.open-betting.v1", "betting-open")
    await press(page, "round.close-betting.v1", "betting-closed")
    await press(page, "round.uncover.v1", "uncovered")

    for key in ("6", "4", "3", "Backspace", "1"):
        await page.keyboard.press(key)
    echo = page.locator("#dice-echo")
    await expect(echo).to_have_text(re.compile(r"6\D+4\D+1"))
    # Typing in a form's field is typing, not the keypad: Enter there enters no dice.
    await page.focus("#slip-stake")
    await page.keyboard.press("Enter")
    await page.keyboard.press("2")
    await expect(echo).not_to_have_class(re.compile(r"\bentered\b"))
    await expect(echo).to_have_text(re.compile(r"6\D+4\D+1"))
    # Out of the field, Enter enters the three dice.
    await page.click("#status-bar")
    await page.keyboard.press("Enter")
    await expect(echo).to_have_class(re.compile(r"\bentered\b"))
    await expect(page.locator("#round-info")).to_contain_text("Entered 6 4 1 by ana")
    await expect(page.locator(CONFIRM)).to_be_enabled()
    for width, height in ((1400, 900), (768, 1024)):
        await page.set_viewport_size({"width": width, "height": height})
        await screenshot(page, f"terminal-entered-{width}x{height}")
    assert console_errors == []


async def test_tumble_is_off_while_suspended_and_confirm_for_the_dealer_who_entered(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "cca-1992", second_person_confirmation=True)
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "ana", "1111")
    await expect(page.locator(TUMBLE)).to_be_enabled()
    report = ReportMalfunction(
        command_id=new_id(), table=table, actor=DEALER, equipment="tumbler", detail="stuck"
    )
    await ok(floor, nc, report)
    await expect(page.locator(TUMBLE)).to_be_disabled()
    await expect(page.locator(TUMBLE)).to_have_attribute("title", re.compile("suspended"))
    assert "suspended" in await reason_of(page, TUMBLE)
    # The button's name is still its label: the reason is its description.
    await expect(page.get_by_role("button", name="Tumble", exact=True)).to_be_disabled()
    await screenshot(page, "terminal-suspended")

    clear = ClearFault(command_id=new_id(), table=table, actor=INSPECTOR, detail="tumbler fixed")
    await ok(floor, nc, clear)
    await expect(page.locator(TUMBLE)).to_be_enabled()
    await expect(page.locator(TUMBLE)).not_to_have_attribute("title", re.compile("."))

    await press(page, "round.start.v1", "started")
    await press(page, "round.open-betting.v1", "betting-open")
    await press(page, "round.close-betting.v1", "betting-closed")
    await press(page, "round.uncover.v1", "uncovered")
    for die in (2, 2, 5):
        await page.click(f'button[data-die="{die}"]')
    await page.click(ENTER)
    await expect(page.locator(CONFIRM)).to_be_visible()
    await expect(page.locator(CONFIRM)).to_be_disabled()
    assert "another operator confirms" in await reason_of(page, CONFIRM)
    await screenshot(page, "terminal-second-person")
    assert console_errors == []


async def test_a_cleared_lamp_fault_leaves_the_terminal_and_the_layout_000_7_7(
    browser: Browser,
    gateway: str,
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    # The table's lamps need a controller and none answers: the confirmed result is a lamp
    # fault, and the table is suspended (000 §7.6-7.7).
    table = await opened(floor, nc, "cca-1992", layout_controller=True)
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "ana", "1111")
    display = await browser.new_context(base_url=gateway, viewport={"width": 1400, "height": 900})
    layout = console_errors.watch(await display.new_page())
    await layout.goto(f"/tables/{table}/layout")
    await open_round(floor, nc, table, 1)
    await close_and_uncover(floor, nc, table, 1)
    await press_dice_and_confirm(page, (1, 3, 4))
    await expect(page.locator("#round-info")).to_contain_text("Fault:")
    await expect(layout.locator("#fault")).to_contain_text("Illumination fault")
    await wait_completed(store, table, 1)

    await ok(floor, nc, ClearFault(command_id=new_id(), table=table, actor=INSPECTOR, detail="ok"))
    await expect(page.locator("#suspended")).to_have_count(0)
    await expect(page.locator("#round-info")).not_to_contain_text("Fault")
    await expect(layout.locator("#fault")).to_be_hidden()
    await display.close()
    assert console_errors == []


async def press_dice_and_confirm(page: Page, dice: tuple[int, int, int]) -> None:
    await expect(page.locator("#phase")).to_have_attribute("data-phase", "uncovered")
    for die in dice:
        await page.click(f'button[data-die="{die}"]')
    await page.click(ENTER)
    await page.click(CONFIRM)


async def test_a_dealer_records_a_players_chips_and_the_round_settles_them_000_3_11(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "cca-1992")
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "ana", "1111")
    await expect(page.locator("#slip-add")).to_be_disabled()  # no bets open yet
    await press(page, "round.start.v1", "started")
    await press(page, "round.open-betting.v1", "betting-open")

    await page.fill("#slip-player", "pia")
    await page.select_option("#slip-bet", "big")
    await page.fill("#slip-stake", "25")
    await page.click("#slip-add")
    await page.select_option("#slip-bet", "total:11")
    await page.fill("#slip-stake", "2.50")
    await page.click("#slip-add")
    await expect(page.locator("#slip-total")).to_have_text("Total 27.50")
    await page.click("#slip-record")
    await expect(page.locator("#slip-recorded")).to_have_text(
        "Recorded for pia: Big 25.00, Total 11 2.50"
    )
    for width, height in ((1400, 900), (768, 1024)):
        await page.set_viewport_size({"width": width, "height": height})
        await screenshot(page, f"terminal-players-chips-{width}x{height}")

    await press(page, "round.close-betting.v1", "betting-closed")
    await expect(page.locator("#slip-add")).to_be_disabled()
    await press(page, "round.uncover.v1", "uncovered")
    await press_dice_and_confirm(page, (5, 2, 4))  # 2 4 5: big, total 11
    await wait_completed(store, table, 1)
    settled = await settlement_of(store, table, 1)
    paid = {(w.player, w.bet, w.stake, w.outcome.value, w.returned) for w in settled.results}
    # cca-1992 pays big 1 to 1 and a total of 11 6 to 1 (000 §6).
    assert paid == {("pia", "big", 2_500, "win", 5_000), ("pia", "total:11", 250, "win", 1_750)}
    bets = [e for e in await store.read(f"sicbo.evt.{table}.bets.1.>")]
    assert len(bets) == 1 and b'"actor":{"id":"ana","role":"dealer"}' in bets[0].data
    assert console_errors == []
