"""The cashier page in a cashier's words (a leftover of the screens review): no standard's
number ("ISO 4217"), no path of the repository ("docs/launch.md"), no event type of the log
("funds-deposited") and no role prefix of an id ("operator:omar") on the page; each entry of
a statement named as a cashier would name it, and who made it by their name."""

from __future__ import annotations

import uuid

import pytest
from playwright.async_api import Browser, expect

from tests.browser.conftest import ConsoleErrors
from tests.browser.test_pages import signed_in_cashier
from tests.integration.test_gateway_accounts import CASHIER

#: What only the floor's engineers know, in any language.
INTERNAL = ("ISO 4217", "docs/", ".md", "funds-deposited", "account.", ".v1")
#: Each entry's name, by the page's language.
DEPOSIT = {"en": "Deposit", "ms": "Deposit", "zh-Hant": "存款"}
OPENED = {"en": "Account opened", "ms": "Akaun dibuka", "zh-Hant": "開立賬戶"}


@pytest.mark.parametrize("lang", ["en", "ms", "zh-Hant"])
async def test_the_cashier_page_shows_no_internal_terms(
    browser: Browser, gateway: str, console_errors: ConsoleErrors, lang: str
) -> None:
    ctx = await browser.new_context(base_url=gateway)
    ctx.set_default_timeout(15_000)
    try:
        page = console_errors.watch(await ctx.new_page())
        await page.goto(f"/cashier?lang={lang}")
        await signed_in_cashier(page)
        await page.fill("#player", f"acme:w{uuid.uuid4().hex[:8]}")
        await page.click('#open-form button[type="submit"]')
        await page.fill("#money-amount", "25.50")
        await page.click("#deposit")
        lines = page.locator("#statement-lines tbody tr")
        await expect(lines).to_have_count(2)  # the deposit, newest first, then the opening
        deposit, opening = lines.nth(0).locator("td"), lines.nth(1).locator("td")
        await expect(deposit.nth(1)).to_have_text(DEPOSIT[lang])
        await expect(opening.nth(1)).to_have_text(OPENED[lang])
        await expect(deposit.nth(5)).to_have_text(CASHIER[0])  # the cashier, by name
        # Everything the page holds, hidden parts too (the demo's launch box among them).
        words = await page.locator("body").text_content() or ""
        assert [term for term in INTERNAL if term in words] == []
        assert f"operator:{CASHIER[0]}" not in words
    finally:
        await ctx.close()
    assert console_errors == []
