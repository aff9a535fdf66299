"""The gateway's own errors and the refusals that had no message key, in the reader's language
(issue 15 item 4), and the player page's header in Malay on a phone (item 5), in headless
Chromium against the real floor:

- a wrong PIN at the terminal's sign-in, from the gateway's key (session.bad-pin);
- a slip refused for a bet that does not exist (wager.bad-bet), on the player page;
- the Malay header of the player page on a 390x844 phone in two lines, its language menu wide
  enough for "Bahasa Melayu".
"""

from __future__ import annotations

import json

from nats.aio.client import Client as NATS
from playwright.async_api import Browser, BrowserContext, Page, Route, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.playing import dealt, spot
from tests.browser.test_pages import signed_in_player
from tests.floor import browser as api_browser
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened
from tests.integration.test_gateway import sign_in as api_sign_in

PHONE = {"width": 390, "height": 844}


async def test_a_wrong_pin_at_the_terminal_is_said_in_chinese_and_malay(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "cca-1992")
    said = {
        "zh-Hant": "員工編號不存在或密碼錯誤。",
        "ms": "ID operator tidak dikenali atau PIN salah.",
    }
    page = console_errors.watch(await context.new_page())
    for lang, words in said.items():
        await page.goto(f"/tables/{table}/terminal?lang={lang}")
        await page.fill("#signin-operator", "ana")
        await page.fill("#signin-pin", "9999")
        async with page.expect_response("**/api/session") as answer:
            await page.click("#signin-submit")
        body = await (await answer.value).json()
        assert body["reason_key"] == "session.bad-pin"  # the key the page wrote it from
        await expect(page.locator("#notice")).to_have_text(words)
        await screenshot(page, f"terminal-bad-pin-{lang}")
    assert console_errors == []


async def bet_no_such_bet(route: Route) -> None:
    """The page's slip with its bet's id replaced by one no table offers (a total of 99)."""
    slip = json.loads(route.request.post_data or "{}")
    for wager in slip.get("wagers", []):
        wager["bet"] = "total:99"
    await route.continue_(post_data=json.dumps(slip))


async def test_a_slip_refused_for_a_bet_that_does_not_exist_in_chinese_and_malay(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    gateway: str,
    console_errors: ConsoleErrors,
) -> None:
    """The wagers service refused such a slip in English only before (now wager.bad-bet)."""
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    said = {
        "zh-Hant": "你的注碼未被接受：沒有這種注項。",  # noqa: RUF001 (the catalogue's colon)
        "ms": "Taruhan anda tidak diletakkan: Tiada pertaruhan sedemikian.",
    }
    page = console_errors.watch(await context.new_page())
    await page.route("**/slips", bet_no_such_bet)
    async with api_browser(gateway) as dealer:
        await api_sign_in(dealer, "ana", "1111")
        await dealt(dealer, table, 1, "round.start.v1", "round.open-betting.v1")
        await signed_in_player(page, table, "pat-words")
        for lang, words in said.items():
            await page.goto(f"/tables/{table}/play?lang={lang}")  # her session kept
            await expect(page.locator("html")).to_have_attribute("lang", lang)
            await expect(page.locator("#player-who")).to_contain_text("pat-words")
            await page.click('button[data-chip="100"]')
            await page.click(spot(page, "big"))
            await page.click("#confirm-slip")
            notice = page.locator("#notice")
            await expect(notice).to_have_text(words)
            assert "total:99" in (await notice.get_attribute("title") or "")  # the English
            await screenshot(page, f"play-no-such-bet-{lang}")
            await page.click("#undo-slip")
    assert console_errors == []


#: The header's children as the screen shows them: the distinct lines their boxes sit on, and
#: the language menu's width beside what its chosen name needs (text, padding and its arrow).
HEADER = """() => {
  const header = document.querySelector("header.top");
  const shown = [...header.children].filter((e) => e.getClientRects().length > 0);
  const tops = [];
  for (const e of shown) {
    const box = e.getBoundingClientRect();
    if (!tops.some((top) => Math.abs(top - box.top) < box.height / 2)) tops.push(box.top);
  }
  const menu = header.querySelector("#language");
  const style = getComputedStyle(menu);
  const pen = document.createElement("canvas").getContext("2d");
  pen.font = style.font;
  const name = menu.options[menu.selectedIndex].text;
  const needs = pen.measureText(name).width + parseFloat(style.paddingLeft)
    + parseFloat(style.paddingRight) + parseFloat(style.borderLeftWidth) * 2;
  return { lines: tops.length, name, width: menu.getBoundingClientRect().width, needs,
    right: Math.max(...[...header.querySelectorAll("*")].map((e) => e.getBoundingClientRect()
      .right)),
    screen: window.innerWidth };
}"""
#: Chromium's arrow of a <select> (px): what its box holds beside the chosen name.
ARROW = 16


async def phone_header(page: Page) -> dict[str, float]:
    await expect(page.locator("#who-box")).to_be_visible()
    result: dict[str, float] = await page.evaluate(HEADER)
    return result


async def test_the_malay_player_header_on_a_phone_takes_two_lines_and_its_menu_reads(
    browser: Browser, gateway: str, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    ctx = await browser.new_context(base_url=gateway, viewport=PHONE)
    ctx.set_default_timeout(15_000)
    try:
        page = console_errors.watch(await ctx.new_page())
        await page.goto(f"/tables/{table}/play?lang=ms")
        await page.fill("#player-id", "pat-phone")
        await page.click("#player-signin")
        await expect(page.locator("#player-who")).to_contain_text("pat-phone")
        for lang, name in (("ms", "Bahasa Melayu"), ("zh-Hant", "中文"), ("en", "English")):
            await page.goto(f"/tables/{table}/play?lang={lang}")  # the session kept
            header = await phone_header(page)
            await screenshot(page, f"play-header-{lang}-390x844")
            assert header["name"] == name
            assert header["lines"] <= 2, (lang, header)
            # the menu's whole name: "Bahasa Melayu", not "Bahasa I"
            assert header["width"] >= header["needs"] + ARROW, (lang, header)
            assert header["right"] <= header["screen"] + 1, (lang, header)  # nothing off-screen
    finally:
        await ctx.close()
    assert console_errors == []
