"""The dealer terminal and the statistics board in the language of the table's rules (issue 15
item 4), in headless Chromium against the real floor:

- a macau-2004 terminal (002) shows its phase and buttons in Traditional Chinese without being
  asked, and so does the table's board;
- the supervisor's forms say what they do in words, the rule they follow only on the tooltip;
- the online table's terminal (004) is in Malay, and the switch to English stays on reload.
"""

from __future__ import annotations

from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext, expect

from sicbo.eventstore.store import EventStore
from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.test_pages import sign_in
from tests.browser.test_table_displays import played
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened

HANDLE = 'button[data-action="round.start.v1"]'
OPEN = 'button[data-action="round.open-betting.v1"]'
CLOSE = 'button[data-action="round.close-betting.v1"]'


async def test_a_macau_2004_terminal_and_board_are_in_chinese_by_default(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "macau-2004", currency="MOP")
    page = console_errors.watch(await context.new_page())
    await page.goto(f"/tables/{table}/terminal")
    await expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    await expect(page.locator("#signin-submit")).to_have_text("登入")
    await sign_in(page, table, "ana", "1111", lang=None)
    await expect(page.locator("#phase")).to_have_text("沒有牌局")
    await expect(page.locator(HANDLE)).to_contain_text("搖骰")
    await page.click(HANDLE)
    await expect(page.locator("#phase")).to_have_attribute("data-phase", "started")
    await expect(page.locator("#phase")).to_have_text("已搖骰")
    await expect(page.locator(OPEN)).to_contain_text("請客投注")
    await page.click(OPEN)
    await expect(page.locator("#phase")).to_have_text("請客投注")
    await expect(page.locator(CLOSE)).to_contain_text("停止投注")
    await expect(page.locator("#dice-enter")).to_contain_text("輸入")
    await expect(page.locator("#player-chips h2")).to_have_text("枱面上的玩家籌碼")
    body = page.locator("body")
    for english in ("Tumble", "Place your bets", "No more bets", "Sign out", "Round"):
        await expect(body).not_to_contain_text(english)
    for width, height in ((768, 1024), (1400, 900)):
        await page.set_viewport_size({"width": width, "height": height})
        await screenshot(page, f"terminal-macau-2004-zh-{width}x{height}")

    board = console_errors.watch(await context.new_page())
    await board.goto(f"/tables/{table}/board")
    await expect(board.locator("html")).to_have_attribute("lang", "zh-Hant")
    await expect(board.locator("#stats-title")).to_have_text("統計")
    await expect(board.locator("#results-title")).to_have_text("最近結果")
    await expect(board.locator("#results")).to_contain_text("本枱尚未有結果")
    await expect(board.locator("body")).not_to_contain_text("Statistics")

    # A board with results: the marks, the counts and the recall in the seed's words.
    played_table = await opened(floor, nc, "macau-2004", currency="MOP")
    await played(floor, nc, store, played_table, [(1, 2, 3), (4, 4, 4), (2, 5, 6)])
    await board.goto(f"/tables/{played_table}/board")
    await expect(board.locator("#results .bead")).to_have_count(3)
    await expect(board.locator('#results .bead[data-round="3"] .mk.big')).to_have_text("大")
    await expect(board.locator('#results .bead[data-round="2"] .mk.triple')).to_have_text("圍")
    await expect(board.locator("#stats-counts .hbar.big .hbar-label")).to_have_text("大")
    await expect(board.locator('#recall details[data-round="3"] .r-no')).to_have_text("第 3 局")
    confirmed = board.locator('#recall .basis[data-basis="result"]').first
    await expect(confirmed).to_have_text("開骰結果")
    await expect(board.locator("body")).not_to_contain_text("Round")
    await screenshot(board, "board-macau-2004-zh")
    assert console_errors == []


async def test_the_supervisors_forms_keep_their_rules_on_the_tooltip(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "macau-2004", currency="MOP")
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "sofia", "3333", lang=None)
    close = page.locator('[data-form="table.close.v1"]')
    await expect(close.locator("h3")).to_have_text("關枱")
    await expect(close.locator(".hint")).to_have_attribute("title", "000 §8.8")
    await expect(page.locator("#supervisor-actions")).not_to_contain_text("§")
    await page.set_viewport_size({"width": 1400, "height": 900})
    await screenshot(page, "terminal-supervisor-macau-2004-zh")
    assert console_errors == []


async def test_the_online_terminal_is_in_malay_and_the_switch_to_english_stays(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600, currency="EUR")
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "ana", "1111", lang=None)
    await expect(page.locator("html")).to_have_attribute("lang", "ms")
    await expect(page.locator("#phase")).to_have_text("Tiada pusingan")
    await expect(page.locator("#signout")).to_have_text("Log keluar")
    await screenshot(page, "terminal-online-ms")

    await page.select_option("#language", "en")
    await expect(page.locator("html")).to_have_attribute("lang", "en")
    await expect(page.locator("#phase")).to_have_text("No round")
    await page.reload()
    await expect(page.locator("#signout")).to_have_text("Sign out")
    await expect(page.locator("#language")).to_have_value("en")
    await expect(page.locator("#phase")).to_have_text("No round")
    assert console_errors == []
