"""The player page's sign-in box in each language: its example id is one the demo plays with
(``demo:player-1``, not ``player-7``), and the demo's note reads as one sentence, with no
space before its closing parenthesis (the screens review found "juruwang )." in Malay)."""

from __future__ import annotations

import re

import pytest
from nats.aio.client import Client as NATS
from playwright.async_api import Browser, expect

from tests.browser.conftest import ConsoleErrors
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened


@pytest.mark.parametrize("lang", ["en", "ms", "zh-Hant"])
async def test_the_sign_in_box_names_a_demo_id_and_its_note_has_no_stray_space(
    browser: Browser,
    gateway: str,
    floor: Floor,
    nc: NATS,
    console_errors: ConsoleErrors,
    lang: str,
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    ctx = await browser.new_context(base_url=gateway)
    ctx.set_default_timeout(15_000)
    try:
        page = console_errors.watch(await ctx.new_page())
        await page.goto(f"/tables/{table}/play?lang={lang}")
        box = page.locator("#signin-box")
        await expect(box).to_be_visible()
        await expect(page.locator("html")).to_have_attribute("lang", lang)
        placeholder = await page.locator("#player-id").get_attribute("placeholder")
        assert placeholder is not None and "demo:player-1" in placeholder, placeholder
        note = await box.locator("p.muted").inner_text()
        assert "demo:player-1" in note
        assert not re.search(r"\s[)\uff09]", note), note  # ")" or a full-width one
        assert "  " not in note, note
    finally:
        await ctx.close()
    assert console_errors == []
