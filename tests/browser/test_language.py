"""The pages in the language of the table's rules (issue 15 item 4), in headless Chromium
against the real floor:

- a Macau table's layout (002) is in Traditional Chinese with the seed's bet names (小, 大,
  三軍, 圍骰, 全骰; 2003's 全圍), its amounts in the table's currency;
- the online table's player page (004) is in Malay (Kecil, Besar, Ganjil, Genap);
- the language switch turns the page into English, and the choice stays on reload;
- a cca-1992 table (000) is in English.
"""

from __future__ import annotations

from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.playing import at_three_sizes, spot
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened


async def test_a_macau_table_layout_is_in_chinese_with_the_seed_bet_names(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "macau-2004", currency="MOP")
    page = console_errors.watch(await context.new_page())
    await page.set_viewport_size({"width": 1400, "height": 900})
    await page.goto(f"/tables/{table}/layout")
    await expect(page.locator("html")).to_have_attribute("lang", "zh-Hant")
    # 002/2004 art. 5: 小, 大, 單, 雙, 全骰 on the spots; 三軍 and 圍骰 name the dice spots.
    await expect(page.locator(f"{spot(page, 'small')} .spot-label")).to_have_text("小")
    await expect(page.locator(f"{spot(page, 'big')} .spot-label")).to_have_text("大")
    await expect(page.locator(f"{spot(page, 'odd')} .spot-label")).to_have_text("單")
    await expect(page.locator(f"{spot(page, 'even')} .spot-label")).to_have_text("雙")
    await expect(page.locator(f"{spot(page, 'any-triple')} .spot-label")).to_have_text("全骰")
    await expect(page.locator(f"{spot(page, 'triple:4')} .spot-label")).to_have_text("圍骰 4")
    await expect(page.locator(f"{spot(page, 'single:6')} .spot-label")).to_have_text("三軍 6")
    await expect(page.locator(f"{spot(page, 'combo:1-2')} .spot-label")).to_have_text("長牌 1-2")
    await expect(page.locator(f"{spot(page, 'double:3')} .spot-label")).to_have_text("短牌 3-3")
    await expect(page.locator(".group-title").first).to_contain_text("小")
    await expect(page.locator("body")).not_to_contain_text("Small")
    await screenshot(page, "layout-macau-2004-zh")
    assert console_errors == []


async def test_the_2003_edition_says_its_own_name_for_any_triple(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "macau-2003")
    page = console_errors.watch(await context.new_page())
    await page.goto(f"/tables/{table}/layout")
    await expect(page.locator(f"{spot(page, 'any-triple')} .spot-label")).to_have_text("全圍")
    await screenshot(page, "layout-macau-2003-zh")
    assert console_errors == []


async def test_the_online_table_is_in_malay_and_the_switch_to_english_stays(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600, currency="EUR")
    page = console_errors.watch(await context.new_page())
    await page.set_viewport_size({"width": 1400, "height": 900})
    await page.goto(f"/tables/{table}/play")
    await page.fill("#player-id", "siti")
    await page.click("#player-signin")
    await expect(page.locator("html")).to_have_attribute("lang", "ms")
    for bet, name in (("small", "Kecil"), ("big", "Besar"), ("odd", "Ganjil"), ("even", "Genap")):
        await expect(page.locator(f"{spot(page, bet)} .spot-label")).to_have_text(name)
    await expect(page.locator("#confirm-slip")).to_have_text("Sahkan")
    # The table's money: its limits in euros (Intl's own way of writing them).
    await expect(page.locator('#signs [data-sign="limits"]')).to_contain_text("€")
    await at_three_sizes(page, "play-online-ms")  # the Malay words fit a phone too

    await page.select_option("#language", "en")
    await expect(page.locator("html")).to_have_attribute("lang", "en")
    await expect(page.locator(f"{spot(page, 'small')} .spot-label")).to_have_text("Small")
    await expect(page.locator("#confirm-slip")).to_have_text("Confirm")
    await page.reload()
    await expect(page.locator(f"{spot(page, 'big')} .spot-label")).to_have_text("Big")
    await expect(page.locator("#language")).to_have_value("en")
    await expect(page.locator('#signs [data-sign="limits"]')).to_contain_text("€")
    assert console_errors == []


async def test_a_cca_table_and_the_floor_are_in_english(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "cca-1992")
    page = console_errors.watch(await context.new_page())
    await page.goto(f"/tables/{table}/layout")
    await expect(page.locator(f"{spot(page, 'small')} .spot-label")).to_have_text("Small")
    await expect(page.locator(f"{spot(page, 'triple:2')} .spot-label")).to_have_text("Triple 2")
    await page.goto("/")
    await expect(page.locator("html")).to_have_attribute("lang", "en")
    assert console_errors == []
