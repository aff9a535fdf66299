"""A player launched by their operator, in headless Chromium: the operator's site opens
``/launch#token=...&table=...``; the player lands on the table's play page as
``<operator>:<player>`` in the token's currency, with the token gone from the address and the
history, and bets. The same link a second time is refused, naming the claim (docs/launch.md)."""

from __future__ import annotations

import re
import time
import urllib.parse

from nats.aio.client import Client as NATS
from playwright.async_api import Browser, BrowserContext, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.floor import browser as api_browser
from tests.integration.conftest import Floor
from tests.integration.test_gateway import accepted, opened
from tests.integration.test_gateway import sign_in as api_sign_in
from tests.support.launch import Issuers


def launch_url(token: str, table: str, lang: str = "en") -> str:
    """The operator's link; it names the player's language (the page's words are asserted)."""
    return "/launch#" + urllib.parse.urlencode({"token": token, "table": table, "lang": lang})


async def test_a_player_launched_by_token_lands_on_the_play_page_and_bets(
    browser: Browser,
    gateway: str,
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    launch_issuers: Issuers,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    async with api_browser(gateway) as dealer:
        await api_sign_in(dealer, "ana", "1111")
        await accepted(dealer, table, {"type": "round.start.v1", "round": 1, "tumbles": 3})
        await accepted(dealer, table, {"type": "round.open-betting.v1", "round": 1})

    link = launch_url(launch_issuers.token("lea", now=time.time(), currency="GBP"), table)
    player = console_errors.watch(await context.new_page())
    await player.goto(link)
    await expect(player).to_have_url(re.compile(rf"/tables/{table}/play\?lang=en$"))
    await expect(player.locator("#player-who")).to_have_text("acme:lea")
    await expect(player.locator("#player-currency")).to_have_text("GBP")
    await expect(player.locator("#signin-box")).to_be_hidden()

    await player.click('button[data-chip="500"]')
    await player.click('.spot[data-bet="big"]')
    await player.click("#confirm-slip")
    await expect(player.locator("#notice")).to_have_class(re.compile(r"\bok\b"))
    await expect(player.locator("#history")).to_contain_text("Big")
    await screenshot(player, "player-launched")
    await player.go_back()  # the launch left no entry holding the token behind
    assert "token" not in player.url

    # The same link again, in another browser: refused, and nobody is signed in there.
    other = await browser.new_context(base_url=gateway)
    again = await other.new_page()
    await again.goto(link)
    await expect(again.locator("#notice")).to_contain_text("used already")
    assert "token" not in again.url
    assert (await again.request.get("/api/player")).status == 401
    await other.close()
    assert console_errors == []
