"""Players' money on the pages, in headless Chromium against the real floor (issue 14 item 5):

- a player launched by the demo operator's token bets from their account and sees it move:
  the balance goes down with the slip, the round's result comes, what they won shows, and the
  balance goes up; the round's balance before and after stays in the history; a deposit
  shows without a reload;
- the cashier page opens an account, shows a deposit's new balance, shows a bad amount's error
  at the amount, and launches the player as the demo operator's page does.
"""

from __future__ import annotations

import re
import uuid

from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext, expect

from sicbo.eventstore.store import EventStore
from tests.browser.conftest import ConsoleErrors, Profiles, screenshot
from tests.browser.test_pages import signed_in_cashier
from tests.floor import browser as api_browser
from tests.integration.conftest import Floor
from tests.integration.test_gateway import accepted, opened
from tests.integration.test_gateway import sign_in as api_sign_in
from tests.integration.test_gateway_accounts import CASHIER, funded
from tests.integration.test_settlement import wait_completed


async def test_a_launched_player_sees_the_balance_go_down_the_result_and_the_win(
    gateway: str,
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600, currency="EUR")
    player = f"acme:w{uuid.uuid4().hex[:8]}"
    async with api_browser(gateway) as cash, api_browser(gateway) as dealer:
        await api_sign_in(cash, *CASHIER)
        await api_sign_in(dealer, "ana", "1111")
        await funded(cash, player, 1_000)
        # The demo operator's page mints the token (sicbo.gateway.demo_launch).
        ask = {"player": player, "table": table}
        link = (await cash.post("/api/cashier/demo-launch", json=ask)).json()["url"]
        await accepted(dealer, table, {"type": "round.start.v1", "round": 1, "tumbles": 3})
        await accepted(dealer, table, {"type": "round.open-betting.v1", "round": 1})

        page = console_errors.watch(await context.new_page())
        await page.goto(f"{link}&lang=en")  # the operator names the player's language
        await expect(page).to_have_url(re.compile(rf"/tables/{table}/play\?lang=en$"))
        await expect(page.locator("#player-who")).to_have_text(player)
        balance = page.locator("#wallet")
        await expect(balance).to_have_attribute("data-minor", "1000")
        await expect(balance).to_contain_text("10.00")
        await expect(balance).to_contain_text("€")

        await page.click('button[data-chip="500"]')
        await page.click('.spot[data-bet="big"]')
        await page.click("#confirm-slip")
        await expect(page.locator("#notice")).to_have_class(re.compile(r"\bok\b"))
        await expect(balance).to_have_attribute("data-minor", "500")  # down with the slip
        await expect(page.locator("#wallet-result")).to_be_hidden()  # nothing settled yet

        for step in ("round.close-betting.v1", "round.uncover.v1"):
            await accepted(dealer, table, {"type": step, "round": 1})
        await accepted(dealer, table, {"type": "dice.enter.v1", "round": 1, "dice": [4, 5, 6]})
        await accepted(dealer, table, {"type": "dice.confirm.v1", "round": 1})
        await wait_completed(store, table, 1)

    await expect(page.locator("#last-result")).to_contain_text("15")  # the result
    result = page.locator("#wallet-result")
    await expect(result).to_be_visible()
    await expect(result).to_have_attribute("data-net", "500")
    await expect(result).to_contain_text("won €5.00")
    await expect(balance).to_have_attribute("data-minor", "1500")  # up with the win
    row = page.locator('#wallet-round-table tr[data-round="1"]')
    await expect(row).to_contain_text("€10.00")  # before
    await expect(row).to_contain_text("€15.00")  # after
    await screenshot(page, "player-wallet-won")
    # A deposit moves no table: the page hears of it from the player's own account, live.
    async with api_browser(gateway) as cash:
        await api_sign_in(cash, *CASHIER)
        deposit = {"command_id": f"cash-{uuid.uuid4().hex[:12]}", "amount": 250, "currency": "EUR"}
        answer = await cash.post(f"/api/cashier/accounts/{player}/deposits", json=deposit)
        assert answer.status_code == 200, answer.text
    await expect(balance).to_have_attribute("data-minor", "1750")
    assert console_errors == []


async def test_the_cashier_page_deposits_refuses_a_bad_amount_and_launches_the_player(
    profiles: Profiles, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600, currency="EUR")
    player = f"acme:c{uuid.uuid4().hex[:8]}"
    context = await profiles()
    page = console_errors.watch(await context.new_page())
    await page.goto("/")
    await page.click("text=Cashier")
    await expect(page).to_have_url(re.compile(r"/cashier$"))
    await signed_in_cashier(page)
    await expect(page.locator("#cashier-who")).to_contain_text("omar")

    await page.fill("#player", player)
    await page.click('#open-form button[type="submit"]')
    await expect(page.locator("#notice")).to_contain_text(f"Account opened for {player} in EUR")
    await expect(page.locator("#statement-balance")).to_have_attribute("data-minor", "0")

    await page.fill("#money-amount", "25.50")
    await page.click("#deposit")
    await expect(page.locator("#notice")).to_contain_text("Deposited €25.50")
    await expect(page.locator("#statement-balance")).to_have_attribute("data-minor", "2550")
    await expect(page.locator("#statement-balance")).to_have_text("€25.50")

    # A negative amount: the gateway's refusal, shown at the amount; nothing moved.
    await page.fill("#money-amount", "-5")
    await page.click("#deposit")
    await expect(page.locator("#money-amount-error")).to_contain_text("$.amount")
    # Over the balance: the service's refusal (its message key's words), at the amount too.
    await page.fill("#money-amount", "30")
    await page.click("#withdraw")
    await expect(page.locator("#money-amount-error")).to_have_text(
        "The amount is more than the free balance."
    )
    await page.fill("#money-amount", "ten")
    await page.click("#deposit")
    await expect(page.locator("#money-amount-error")).to_contain_text("like 50 or 12.50")
    await page.click('#player-form button[type="submit"]')
    await expect(page.locator("#statement-balance")).to_have_attribute("data-minor", "2550")
    await screenshot(page, "cashier")

    # The demo operator's page: a real launch token, once, for this player.
    await expect(page.locator("#demo-launch-box")).to_be_visible()
    await page.fill("#demo-table", table)
    await page.click('#demo-launch-form button[type="submit"]')
    player_context = await profiles()  # the player's own browser
    href = await page.locator("#demo-launch-open").get_attribute("href")
    assert href is not None and href.startswith("/launch#token=")
    played = console_errors.watch(await player_context.new_page())
    await played.goto(href)
    await expect(played).to_have_url(re.compile(rf"/tables/{table}/play$"))
    await expect(played.locator("#player-who")).to_have_text(player)
    await expect(played.locator("#wallet")).to_have_attribute("data-minor", "2550")
    assert console_errors == []
