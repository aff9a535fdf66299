"""The floor's pages in headless Chromium, against the real floor (gateway, services, nats-server).

- a dealer runs a whole round from the terminal and the layout page, serving as the table's
  layout controller, lights exactly the winning spots (000 §2.3, §5.5), the expectation taken
  from the test oracle of RULES.md, not from the code;
- a player bets during the countdown and the layout takes no chip after it (004);
- a dealer never sees the supervisor's actions; the terminal locks when idle (GLI-19 §C.6.5);
- the floor, board and dispute pages show the log, and player ids to floor staff only;
  screenshots land in build/screenshots/.
"""

from __future__ import annotations

import re

import msgspec
from nats.aio.client import Client as NATS
from playwright.async_api import Browser, BrowserContext, Page, expect

from sicbo.eventstore.store import EventStore
from sicbo_contracts.illumination import IlluminationEvent, LayoutIlluminated
from sicbo_contracts.subjects import Aggregate, round_filter
from tests.browser.conftest import ConsoleErrors, screenshot
from tests.floor import browser as api_browser
from tests.integration.conftest import QUICK_LOCK_SECONDS, Floor
from tests.integration.test_gateway import accepted, opened
from tests.integration.test_gateway import sign_in as api_sign_in
from tests.integration.test_gateway_accounts import CASHIER
from tests.integration.test_settlement import wait_completed, wait_for
from tests.unit.game.oracle import offered, oracle_pay

_verdict = msgspec.json.Decoder(IlluminationEvent)
CONNECTED = re.compile(r"\bconnected", re.IGNORECASE)  # not "disconnected"


def winners(profile: str, dice: tuple[int, int, int]) -> set[str]:
    return {bet for bet in offered(profile) if oracle_pay(profile, bet, dice) is not None}


async def sign_in(page: Page, table: str, operator: str, pin: str, lang: str | None = "en") -> None:
    """The table's terminal signed in, in ``lang`` (English by default: the words most tests
    assert), or with None in the language the table chooses itself."""
    await page.goto(f"/tables/{table}/terminal" + (f"?lang={lang}" if lang else ""))
    await page.fill("#signin-operator", operator)
    await page.fill("#signin-pin", pin)
    await page.click("#signin-submit")
    await expect(page.locator("#who")).to_contain_text(operator)


async def signed_in_cashier(page: Page) -> None:
    """The cashier page ``page`` is on, signed in as the demo operator's cashier."""
    await page.fill("#signin-operator", CASHIER[0])
    await page.fill("#signin-pin", CASHIER[1])
    await page.click('#signin-form button[type="submit"]')
    await expect(page.locator("#cashier-who")).to_contain_text(CASHIER[0])


async def signed_in_player(page: Page, table: str, player: str) -> None:
    """``page`` on the table's player page, signed in as ``player``."""
    await page.goto(f"/tables/{table}/play?lang=en")  # the page in English whatever the profile
    await page.fill("#player-id", player)
    await page.click("#player-signin")
    await expect(page.locator("#player-who")).to_contain_text(player)


async def press(page: Page, action: str, phase: str) -> None:
    await page.click(f'button[data-action="{action}"]')
    await expect(page.locator("#phase")).to_have_attribute("data-phase", phase)


async def test_a_dealer_plays_a_round_and_the_layout_lights_exactly_the_winning_spots(
    browser: Browser,
    gateway: str,
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, layout_controller=True)
    dice = (2, 5, 2)  # as pressed; the result is 2 2 5
    expected = winners("cca-1992", (2, 2, 5))

    # The table's display, its own browser: signed in by an operator for the lamps only.
    display = await browser.new_context(base_url=gateway, viewport={"width": 1280, "height": 720})
    layout = console_errors.watch(await display.new_page())
    await layout.goto(f"/tables/{table}/layout?controller=1")
    await layout.fill("#display-operator", "ivan")
    await layout.fill("#display-pin", "4444")
    await layout.click("#display-signin-submit")
    await expect(layout.locator("#controller-status")).to_have_text(CONNECTED)
    await expect(layout.locator(".spot[data-bet]")).to_have_count(len(offered("cca-1992")))
    await expect(layout.locator(".spot.lit")).to_have_count(0)

    terminal = console_errors.watch(await context.new_page())
    await sign_in(terminal, table, "ana", "1111")
    await press(terminal, "round.start.v1", "started")
    await press(terminal, "round.open-betting.v1", "betting-open")
    await press(terminal, "round.close-betting.v1", "betting-closed")
    await press(terminal, "round.uncover.v1", "uncovered")
    for die in dice:
        await terminal.click(f'button[data-die="{die}"]')
    await expect(terminal.locator("#dice-echo")).to_have_text(re.compile(r"2\D+5\D+2"))
    await terminal.click("#dice-enter")
    await terminal.click('button[data-action="dice.confirm.v1"]')
    await expect(terminal.locator("#phase")).to_have_attribute(
        "data-phase", re.compile("result-confirmed|completed")
    )

    await expect(layout.locator(".spot.lit")).to_have_count(len(expected))
    lit = await layout.locator(".spot.lit").evaluate_all("spots => spots.map(s => s.dataset.bet)")
    assert set(lit) == expected
    verdict = _verdict.decode(
        (await wait_for(store, round_filter(table, Aggregate.LAMP, 1), "illuminated-v1")).data
    )
    assert isinstance(verdict, LayoutIlluminated) and set(verdict.spots) == expected
    await wait_completed(store, table, 1)
    await expect(terminal.locator("#phase")).to_have_attribute("data-phase", "completed")
    await screenshot(terminal, "terminal-dealer")
    await screenshot(layout, "layout-cca-1992-lit")
    await display.close()
    assert console_errors == []


async def test_a_player_bets_in_the_countdown_and_the_layout_locks_after_it(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    """The page takes no chip once the countdown closed betting; the service's refusal of a
    late slip is tested at the gateway (tests/integration/test_gateway.py)."""
    table = await opened(floor, nc, "online-live", betting_seconds=10)
    dealer = console_errors.watch(await context.new_page())
    await sign_in(dealer, table, "ana", "1111")
    await press(dealer, "round.start.v1", "started")

    player = console_errors.watch(await context.new_page())
    await signed_in_player(player, table, "pat")
    await press(dealer, "round.open-betting.v1", "betting-open")
    await expect(player.locator("#phase")).to_have_attribute("data-phase", "betting-open")
    await expect(player.locator("#countdown")).to_have_attribute("data-left", re.compile(r"[1-9]"))

    await player.click('button[data-chip="500"]')
    await player.click('.spot[data-bet="big"]')
    await player.click('.spot[data-bet="total:10"]')
    await expect(player.locator("#slip")).to_contain_text("Big")
    await player.click("#confirm-slip")
    await expect(player.locator("#notice")).to_have_class(re.compile(r"\bok\b"))
    await screenshot(player, "player-online-live")

    await wait_for(store, round_filter(table, Aggregate.LIFECYCLE, 1), "round-betting-closed-v1")
    await expect(player.locator("#layout")).to_have_class(re.compile(r"\blocked\b"))
    await player.click('.spot[data-bet="small"]')
    await expect(player.locator('.spot[data-bet="small"] .chip-marker')).to_have_count(0)
    await expect(player.locator("#confirm-slip")).to_be_disabled()
    await expect(player.locator("#history")).to_contain_text("Big")
    slips = [e for e in await store.read(round_filter(table, Aggregate.BETS, 1))]
    assert len(slips) == 1 and b'"pat"' in slips[0].data
    assert console_errors == []


async def test_a_dealer_does_not_see_the_supervisor_actions(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc)
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "ana", "1111")
    await expect(page.locator('button[data-action="round.start.v1"]')).to_have_count(1)
    await expect(page.locator("#supervisor-actions")).to_have_count(0)
    await expect(page.locator("#inspector-actions")).to_have_count(0)
    for action in ("round.invalidate.v1", "dice.correct.v1", "round.cancel.v1", "table.close.v1"):
        await expect(page.locator(f'[data-action="{action}"]')).to_have_count(0)

    await page.click("#signout")
    await sign_in(page, table, "sofia", "3333")
    await expect(page.locator("#supervisor-actions")).to_be_visible()
    await expect(page.locator('[data-action="round.invalidate.v1"]')).to_have_count(1)
    await screenshot(page, "terminal-supervisor")
    await page.click("#signout")
    await sign_in(page, table, "ivan", "4444")
    await expect(page.locator("#inspector-actions")).to_be_visible()
    await expect(page.locator("#supervisor-actions")).to_have_count(0)
    await expect(page.locator('button[data-action="round.start.v1"]')).to_have_count(0)
    assert console_errors == []


async def test_the_terminal_locks_when_idle(
    context: BrowserContext, floor: Floor, nc: NATS, quick_lock_gateway: str
) -> None:
    table = await opened(floor, nc)
    page = await context.new_page()
    await page.goto(f"{quick_lock_gateway}/tables/{table}/terminal?lang=en")
    await page.fill("#signin-operator", "ana")
    await page.fill("#signin-pin", "1111")
    await page.click("#signin-submit")
    await expect(page.locator("#who")).to_contain_text("ana")
    await expect(page.locator("#lock-screen")).to_be_hidden()
    await expect(page.locator("#lock-screen")).to_be_visible(
        timeout=(QUICK_LOCK_SECONDS + 5) * 1000
    )
    await screenshot(page, "terminal-locked")
    await page.fill("#unlock-pin", "1111")
    await page.click("#unlock-submit")
    await expect(page.locator("#lock-screen")).to_be_hidden()
    await press(page, "round.start.v1", "started")


async def test_floor_board_and_dispute_pages_show_the_log(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "macau-2004")
    terminal = console_errors.watch(await context.new_page())
    await sign_in(terminal, table, "sofia", "3333")
    await press(terminal, "round.start.v1", "started")
    await terminal.click('button[data-action="round.declare-no-result.v1"]')
    await terminal.select_option("#no-result-reason", "dice-not-flat")
    await terminal.click("#no-result-submit")
    await expect(terminal.locator("#phase")).to_have_attribute(
        "data-phase", re.compile("no-result|completed")
    )
    await wait_completed(store, table, 1)

    floor_page = console_errors.watch(await context.new_page())
    await floor_page.goto("/")
    card = floor_page.locator(f'.table-card[data-table="{table}"]')
    await expect(card).to_contain_text("macau-2004")
    await expect(card.locator(".phase")).to_have_attribute("data-phase", "completed")
    await expect(card.locator(".phase")).to_have_text("Result")  # in words, not the phase id
    await screenshot(floor_page, "floor")

    board = console_errors.watch(await context.new_page())
    await board.goto(f"/tables/{table}/board?lang=en")
    # The log's term stays on the element (the words a dispute quotes); the reader sees words.
    no_result = board.locator('#recall .basis[data-basis="no-result"]').first
    await expect(no_result).to_have_text("No result")
    await screenshot(board, "board")

    dispute = console_errors.watch(await context.new_page())
    await dispute.goto(f"/tables/{table}/rounds/1?lang=en")  # a 002 table's is in Chinese
    await expect(dispute.locator("#report-status")).to_contain_text(re.compile("MATCH"))
    await expect(dispute.locator("#report-status")).to_have_attribute("data-status", "MATCH")
    await expect(dispute.locator("#history")).to_contain_text("round.no-result-declared.v1")
    await screenshot(dispute, "dispute")
    assert console_errors == []


async def test_the_board_and_dispute_pages_show_player_ids_to_floor_staff_only(
    browser: Browser,
    gateway: str,
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc)
    player = "pl-visible-to-staff"
    async with api_browser(gateway) as dealer:  # the round played through the API
        await api_sign_in(dealer, "ana", "1111")
        await accepted(dealer, table, {"type": "round.start.v1", "round": 1, "tumbles": 3})
        await accepted(dealer, table, {"type": "round.open-betting.v1", "round": 1})
        slip = {"type": "bets.place-slip.v1", "round": 1, "player": player}
        await accepted(dealer, table, {**slip, "wagers": [{"bet": "big", "stake": 500}]})
        for step in ("round.close-betting.v1", "round.uncover.v1"):
            await accepted(dealer, table, {"type": step, "round": 1})
        await accepted(dealer, table, {"type": "dice.enter.v1", "round": 1, "dice": [4, 5, 6]})
        await accepted(dealer, table, {"type": "dice.confirm.v1", "round": 1})
    await wait_completed(store, table, 1)

    anyone = await browser.new_context(base_url=gateway)
    try:
        dispute = console_errors.watch(await anyone.new_page())
        await dispute.goto(f"/tables/{table}/rounds/1")
        await expect(dispute.locator("#report-status")).to_contain_text("MATCH")
        await expect(dispute.locator("#hidden-wagers")).to_contain_text("floor staff only")
        await expect(dispute.locator("#no-wagers")).to_be_hidden()
        board = console_errors.watch(await anyone.new_page())
        await board.goto(f"/tables/{table}/board?lang=en")
        await expect(board.locator(".hidden-wagers")).to_contain_text("1 wager(s)")
        for page in (dispute, board):
            assert player not in await page.content()
        await screenshot(dispute, "dispute-anonymous")
    finally:
        await anyone.close()

    terminal = console_errors.watch(await context.new_page())
    await sign_in(terminal, table, "ivan", "4444")  # floor staff: an inspector
    staff = console_errors.watch(await context.new_page())
    await staff.goto(f"/tables/{table}/rounds/1")
    await expect(staff.locator("#wagers")).to_contain_text(player)
    await expect(staff.locator("#hidden-wagers")).to_be_hidden()
    assert console_errors == []


async def test_a_supervisor_in_manual_mode_is_shown_on_the_players_page_gli_19_c_6_8_o(
    browser: Browser,
    gateway: str,
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc)
    supervisor = console_errors.watch(await context.new_page())
    await sign_in(supervisor, table, "sofia", "3333")
    await expect(supervisor.locator("#manual-status")).to_contain_text("Not in manual mode")
    await expect(supervisor.locator('[data-action="dice.correct.v1"]')).to_be_disabled()

    players = await browser.new_context(base_url=gateway, viewport={"width": 1280, "height": 900})
    player = console_errors.watch(await players.new_page())
    await signed_in_player(player, table, "pat")
    await expect(player.locator("#manual-mode")).to_be_hidden()

    await supervisor.fill("#manual-reason", "the reader disagrees")
    await supervisor.click('button[data-action="dice.enter-manual-mode.v1"]')
    await expect(supervisor.locator("#manual-status")).to_contain_text("Manual mode since")
    await expect(supervisor.locator('[data-action="dice.correct.v1"]')).to_be_enabled()
    await expect(player.locator("#manual-mode")).to_be_visible()
    await expect(player.locator("#manual-mode")).to_contain_text("the reader disagrees")
    await screenshot(player, "player-manual-mode")
    await supervisor.click('button[data-action="dice.leave-manual-mode.v1"]')
    await expect(player.locator("#manual-mode")).to_be_hidden()
    await players.close()
    assert console_errors == []
