"""Error and empty states (issue 15 item 6) in headless Chromium against the real floor: a
page of a table never opened, a path that is no page and a round not played yet each say so
plainly and link back, in the page's language; a table with no results yet, a player with no
bets and an account with no rounds say so in words, never a blank or "Loading…"."""

from __future__ import annotations

import re
import uuid

import pytest
from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext, Page, Route, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.test_pages import signed_in_cashier, signed_in_player
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened
from tests.unit.gateway.test_i18n_catalogues import catalogue

PAGE_KINDS = ["play", "terminal", "layout", "board", "display", "rounds/1"]
LOADING = re.compile("Loading", re.IGNORECASE)


async def never_loading(page: Page) -> None:
    await expect(page.locator("body")).not_to_contain_text(LOADING)


@pytest.mark.parametrize("kind", PAGE_KINDS)
async def test_a_page_of_a_table_never_opened_says_so_and_links_back(
    context: BrowserContext, kind: str, console_errors: ConsoleErrors
) -> None:
    table = f"nope{uuid.uuid4().hex[:8]}"
    page = console_errors.watch(await context.new_page())
    answer = await page.goto(f"/tables/{table}/{kind}?lang=en")
    assert answer is not None and answer.status == 404
    await expect(page.locator("#what")).to_have_text("There is no such table")
    await expect(page.locator("#message")).to_have_text(
        f"Table {table} has never been opened on this floor, so it has no pages."
    )
    await expect(page.locator("#back")).to_have_attribute("href", "/")
    await never_loading(page)
    await page.click("#back")
    await expect(page).to_have_url(re.compile(r"/$"))
    assert console_errors == []


async def test_the_missing_page_speaks_the_readers_chosen_language(
    context: BrowserContext, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(await context.new_page())
    await page.goto("/")
    await page.evaluate("localStorage.setItem('sicbo.language', 'zh-Hant')")
    await page.goto("/tables/nope-zh/layout")  # the choice is the browser's: the script applies it
    chinese = catalogue("zh-Hant")
    await expect(page.locator("#message")).to_have_text(
        chinese["notfound.table"].replace("{table}", "nope-zh")
    )
    await expect(page.locator("#message")).to_contain_text("賭枱 nope-zh 從未")
    await expect(page.locator("#back")).to_have_text(chinese["notfound.back"])
    await expect(page.locator("#language")).to_have_value("zh-Hant")
    await screenshot(page, "not-found-table-zh-Hant")
    assert console_errors == []


async def test_a_path_that_is_no_page_says_so_escaped(
    context: BrowserContext, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(await context.new_page())
    answer = await page.goto("/tables/x/nope<b>")
    assert answer is not None and answer.status == 404
    await expect(page.locator("#what")).to_have_text("There is no page here")
    # The address as text, never as markup.
    await expect(page.locator("#message")).to_contain_text("/tables/x/nope<b> is not a page")
    await expect(page.locator("#message b")).to_have_count(0)
    await expect(page.locator("#back")).to_have_attribute("href", "/")
    await screenshot(page, "not-found-path")
    assert console_errors == []


async def test_a_round_not_played_says_so_with_the_board_and_the_floor(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc)
    page = console_errors.watch(await context.new_page())
    await page.goto(f"/tables/{table}/rounds/999")
    await expect(page.locator("#report-status")).to_have_text(
        "Round 999 has not been played at this table."
    )
    await expect(page.locator("#not-played-board")).to_have_attribute(
        "href", f"/tables/{table}/board"
    )
    await expect(page.locator("#not-played-floor")).to_have_attribute("href", "/")
    await expect(page.locator("#report-body")).to_be_hidden()
    await never_loading(page)
    await screenshot(page, "dispute-not-played")
    assert console_errors == []


async def test_a_floor_without_tables_says_so(
    context: BrowserContext, console_errors: ConsoleErrors
) -> None:
    # The session's floor has tables of other tests: this page reads a floor's answer of none.
    async def no_tables(route: Route) -> None:
        await route.fulfill(json={"server_time": "2026-01-01T00:00:00Z", "tables": []})

    page = console_errors.watch(await context.new_page())
    await page.route("**/api/floor", no_tables)
    await page.goto("/?lang=en")
    await expect(page.locator("main")).to_contain_text("No table is open.")
    await never_loading(page)
    assert console_errors == []


async def test_a_table_without_results_and_a_player_without_bets_say_so(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    display = console_errors.watch(await context.new_page())
    await display.goto(f"/tables/{table}/display?lang=en")
    await expect(display.locator("#latest")).to_have_text("No result yet at this table.")
    await never_loading(display)

    board = console_errors.watch(await context.new_page())
    await board.goto(f"/tables/{table}/board?lang=en")
    await expect(board.locator("#results")).to_have_text("No result yet at this table.")
    await expect(board.locator("#stats")).to_contain_text("No result yet.")
    await never_loading(board)

    player = console_errors.watch(await context.new_page())
    await signed_in_player(player, table, f"p{uuid.uuid4().hex[:8]}")
    await expect(player.locator("#history-empty")).to_be_visible()
    await expect(player.locator("#history-empty")).to_have_text("No bets yet.")
    await expect(player.locator("#road-empty")).to_have_text("No result yet at this table.")
    await expect(player.locator("#road-empty")).to_be_visible()
    assert console_errors == []


async def test_an_account_without_rounds_says_so(
    context: BrowserContext, console_errors: ConsoleErrors
) -> None:
    page = console_errors.watch(await context.new_page())
    await page.goto("/cashier?lang=en")
    await signed_in_cashier(page)
    await page.fill("#player", f"acme:e{uuid.uuid4().hex[:8]}")
    await page.click('#open-form button[type="submit"]')
    await expect(page.locator("#statement")).to_contain_text("No rounds played.")
    await never_loading(page)
    assert console_errors == []
