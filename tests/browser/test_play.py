"""The player page (issue 15 item 1) in headless Chromium against the real floor, the rounds
played by a dealer through the gateway's API so that the dice are the test's:

- the countdown ring empties to "No more bets" and the layout locks: no chip, no Confirm;
- confirmed chips stay on their spots with the round's total bet; undo, double and rebet;
- the result is held (dice, lit spots, "You won" with what the player's wagers returned)
  until the next round opens betting;
- a refusal in plain words, the service's own on the tooltip, gone at the next round;
- no Play on a land table, and its player page offers no betting.
"""

from __future__ import annotations

import re
import time

import msgspec
from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext, expect

from sicbo.eventstore.store import EventStore
from sicbo_contracts.base import KindLimits
from sicbo_contracts.lifecycle import ChangeLimits
from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.playing import MARK, at_three_sizes, dealt, result, returns_won, spot
from tests.browser.test_pages import signed_in_player
from tests.floor import browser as api_browser
from tests.integration.conftest import LIMITS, SUPERVISOR, Floor, new_id
from tests.integration.test_gateway import opened
from tests.integration.test_gateway import sign_in as api_sign_in
from tests.integration.test_settlement import ok


async def test_the_ring_empties_to_no_more_bets_and_the_layout_locks(
    context: BrowserContext, floor: Floor, nc: NATS, gateway: str, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=8)
    player = console_errors.watch(await context.new_page())
    # This device's clock an hour fast: the ring counts by the server's (the view's server_time).
    await player.clock.install()
    await player.clock.set_system_time(time.time() + 3600)
    await signed_in_player(player, table, "pat")
    ring = player.locator("#countdown")
    await expect(ring).to_have_class(re.compile(r"\bclosed\b"))
    async with api_browser(gateway) as dealer:
        await api_sign_in(dealer, "ana", "1111")
        await dealt(dealer, table, 1, "round.start.v1", "round.open-betting.v1")
    await expect(ring).to_have_class(re.compile(r"\bopen\b"))
    await expect(ring).to_have_attribute("data-left", re.compile(r"^[1-8]$"))
    await expect(player.locator("#phase")).to_have_text("Place your bets")
    first = int(await ring.get_attribute("data-left") or 0)
    offset = float(await player.locator(".ring-fill").get_attribute("stroke-dashoffset") or 0)
    await player.click('button[data-chip="500"]')
    await player.click(spot(player, "big"))
    await expect(player.locator(f"{spot(player, 'big')} {MARK}.pending")).to_have_text("5.00")
    await expect(player.locator("#confirm-slip")).to_be_enabled()
    await expect(ring).not_to_have_attribute("data-left", str(first))  # it runs down
    assert (
        float(await player.locator(".ring-fill").get_attribute("stroke-dashoffset") or 0) > offset
    )
    await screenshot(player, "play-countdown")

    await expect(ring).to_have_class(re.compile(r"\bclosed\b"), timeout=20_000)
    await expect(ring).to_contain_text("No more bets")
    await expect(player.locator("#layout")).to_have_class(re.compile(r"\blocked\b"))
    await expect(player.locator(MARK)).to_have_count(0)  # never confirmed: never a bet
    await expect(player.locator("#confirm-slip")).to_be_disabled()
    await expect(player.locator('button[data-chip="100"]')).to_be_disabled()
    await player.click(spot(player, "small"))
    await expect(player.locator(MARK)).to_have_count(0)
    await expect(player.locator("#total-bet")).to_have_text("0.00")
    await screenshot(player, "play-no-more-bets")
    assert console_errors == []


async def test_confirmed_chips_stay_with_the_total_and_undo_double_rebet(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    gateway: str,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    player = console_errors.watch(await context.new_page())
    await signed_in_player(player, table, "pat")
    total = player.locator("#total-bet")
    async with api_browser(gateway) as dealer:
        await api_sign_in(dealer, "ana", "1111")
        await dealt(dealer, table, 1, "round.start.v1", "round.open-betting.v1")
        await expect(player.locator("#confirm-slip")).to_be_disabled()  # nothing on the slip
        await player.click('button[data-chip="500"]')
        await player.click(spot(player, "big"))
        await player.click(spot(player, "total:10"))
        await player.click(spot(player, "small"))
        await player.click("#undo-slip")  # the last chip back
        await expect(player.locator(f"{spot(player, 'small')} {MARK}")).to_have_count(0)
        await expect(total).to_have_text("10.00")
        await player.click("#confirm-slip")
        await expect(player.locator("#notice")).to_have_class(re.compile(r"\bok\b"))
        for bet in ("big", "total:10"):
            await expect(player.locator(f"{spot(player, bet)} {MARK}.confirmed")).to_have_text(
                "5.00"
            )
        await expect(player.locator(f"{MARK}.pending")).to_have_count(0)
        await expect(total).to_have_text("10.00")
        await expect(player.locator("#history")).to_contain_text("Big")
        await player.reload()  # still there, from the history
        await expect(player.locator(f"{spot(player, 'big')} {MARK}.confirmed")).to_have_text("5.00")

        await player.click("#double-slip")  # the round's bets once more
        await expect(player.locator(f"{spot(player, 'big')} {MARK}.pending")).to_have_text("5.00")
        await expect(total).to_have_text("20.00")
        await player.click("#undo-slip")
        await expect(player.locator(f"{MARK}.pending")).to_have_count(0)
        await expect(total).to_have_text("10.00")
        await screenshot(player, "play-chips-confirmed")

        await result(dealer, store, table, 1, [1, 2, 3])
        await dealt(dealer, table, 2, "round.start.v1", "round.open-betting.v1")
        await expect(player.locator("#round-no")).to_have_text("2")
        await expect(player.locator("#phase")).to_have_text("Place your bets")
        await expect(player.locator(MARK)).to_have_count(0)  # a new round: nothing down yet
        await expect(total).to_have_text("0.00")
        await player.click("#rebet-slip")  # round 1's bets again
        for bet in ("big", "total:10"):
            await expect(player.locator(f"{spot(player, bet)} {MARK}.pending")).to_have_text("5.00")
        await player.click("#double-slip")  # chips on the slip doubled
        await expect(player.locator(f"{spot(player, 'big')} {MARK}.pending")).to_have_text("10.00")
        await expect(total).to_have_text("20.00")
        await at_three_sizes(player, "play-betting")
        await player.click("#confirm-slip")
        await expect(player.locator(f"{spot(player, 'total:10')} {MARK}.confirmed")).to_have_text(
            "10.00"
        )
        await expect(total).to_have_text("20.00")
    assert console_errors == []


async def test_the_result_is_held_with_what_the_player_won_until_betting_opens_again(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    gateway: str,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    player = console_errors.watch(await context.new_page())
    await signed_in_player(player, table, "pat")
    async with api_browser(gateway) as dealer:
        await api_sign_in(dealer, "ana", "1111")
        await dealt(dealer, table, 1, "round.start.v1", "round.open-betting.v1")
        await player.click('button[data-chip="500"]')
        await player.click(spot(player, "big"))  # 1:1: wins on 4 5 6
        await player.click('button[data-chip="100"]')
        await player.click(spot(player, "total:15"))  # 004: wins on 15
        await player.click(spot(player, "small"))  # loses
        await player.click("#confirm-slip")
        await expect(player.locator("#notice")).to_have_class(re.compile(r"\bok\b"))
        await result(dealer, store, table, 1, [4, 5, 6])

        box = player.locator("#result")
        await expect(box).to_be_visible()
        await expect(box.locator(".die")).to_have_count(3)
        await expect(player.locator("#win-amount")).to_be_visible()
        won = await returns_won(player, table, 1)
        assert won > 500  # the big bet's stake back and as much again, and the total's
        await expect(player.locator("#win-amount")).to_have_text(f"{won // 100}.{won % 100:02d}")
        lit = player.locator("#layout .spot.lit")
        for bet in ("big", "total:15", "odd"):
            await expect(player.locator(f"{spot(player, bet)}.lit")).to_have_count(1)
        await expect(player.locator(f"{spot(player, 'small')}.lit")).to_have_count(0)
        await screenshot(player, "play-you-won")
        await at_three_sizes(player, "play-result")

        await dealt(dealer, table, 2, "round.start.v1")  # the next round, betting not open yet
        await expect(player.locator("#round-no")).to_have_text("2")
        await expect(box).to_be_visible()
        assert await lit.count() > 0
        await dealt(dealer, table, 2, "round.open-betting.v1")
        await expect(box).to_be_hidden()
        await expect(lit).to_have_count(0)

        await player.click(spot(player, "small"))
        await player.click("#confirm-slip")
        await expect(player.locator(f"{spot(player, 'small')} {MARK}.confirmed")).to_have_count(1)
        await result(dealer, store, table, 2, [6, 6, 5])
        await expect(player.locator("#win-line")).to_have_text("No win")
    assert console_errors == []


async def test_a_refusal_is_said_plainly_and_cleared_at_the_next_round(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    gateway: str,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    lines = {"big": KindLimits(maximum=200)}
    change = ChangeLimits(
        command_id=new_id(),
        table=table,
        actor=SUPERVISOR,
        limits=msgspec.structs.replace(LIMITS, by_kind=lines),
        reason="a low line for big",
    )
    await ok(floor, nc, change)
    player = console_errors.watch(await context.new_page())
    await signed_in_player(player, table, "pat")
    notice = player.locator("#notice")
    async with api_browser(gateway) as dealer:
        await api_sign_in(dealer, "ana", "1111")
        await dealt(dealer, table, 1, "round.start.v1", "round.open-betting.v1")
        await player.click('button[data-chip="500"]')
        await player.click(spot(player, "big"))
        await player.click("#confirm-slip")
        await expect(notice).to_have_class(re.compile(r"\berror\b"))
        await expect(notice).to_have_text("Big: above the maximum of 2.00.")
        assert "§" in (await notice.get_attribute("title") or "")  # the rule, on the tooltip
        await screenshot(player, "play-refused")
        await result(dealer, store, table, 1, [1, 1, 2])
        await expect(notice).to_be_visible()  # through the result: it still tells what happened
        await dealt(dealer, table, 2, "round.start.v1", "round.open-betting.v1")
        await expect(notice).to_be_hidden()

        await player.click(spot(player, "big"))  # refused again, then the slip changed
        await player.click("#confirm-slip")
        await expect(notice).to_have_text("Big: above the maximum of 2.00.")
        await player.click("#undo-slip")
        await expect(notice).to_be_hidden()
    assert console_errors == []


async def test_no_play_on_a_land_table(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    land = await opened(floor, nc, "cca-1992")
    online = await opened(floor, nc, "online-live", betting_seconds=600)
    page = console_errors.watch(await context.new_page())
    await page.goto("/")
    for table, plays in ((land, 0), (online, 1)):
        card = page.locator(f'.table-card[data-table="{table}"]')
        await expect(card).to_be_visible()
        await expect(card.locator("a", has_text="Play")).to_have_count(plays)
    for what in ("layout", "board"):
        await page.goto(f"/tables/{online}/{what}")
        await expect(page.locator("#link-play")).to_be_visible()
        await page.goto(f"/tables/{land}/{what}")
        await expect(page.locator("#link-play")).to_be_hidden()
    await signed_in_player(page, land, "pat")
    await expect(page.locator("#land-note")).to_contain_text("takes no remote players")
    for part in ("#layout", "#confirm-slip", 'button[data-chip="100"]', "#countdown"):
        await expect(page.locator(part)).to_be_hidden()
    await screenshot(page, "play-land-table")
    assert console_errors == []
