"""Every page runs under the gateway's Content-Security-Policy (issue 25 item 6) in headless
Chromium against the real floor: no page needs an inline script, eval or a frame, so the
policy refuses nothing the pages do (a refusal is a console error, which fails the test), and
a page framed by another site is not shown."""

from __future__ import annotations

import pytest
from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext

from tests.browser.conftest import ConsoleErrors
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened

TABLE_PAGES = ["play", "terminal", "layout", "board", "display", "rounds/1"]


@pytest.mark.parametrize("path", ["/", "/cashier", *(f"/tables/{{t}}/{k}" for k in TABLE_PAGES)])
async def test_each_page_runs_within_its_policy(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors, path: str
) -> None:
    table = await opened(floor, nc, "macau-2003")
    page = console_errors.watch(await context.new_page())
    policy: list[str] = []
    page.on("console", lambda m: policy.append(m.text) if "Content Security" in m.text else None)
    answer = await page.goto(path.format(t=table) + ("&" if "?" in path else "?") + "lang=en")
    assert answer is not None and answer.status in (200, 404)
    assert "script-src 'self'" in answer.headers["content-security-policy"]
    await page.wait_for_load_state("networkidle")
    assert policy == [] and console_errors == []


async def test_a_page_framed_by_another_site_is_not_shown(
    context: BrowserContext, gateway: str
) -> None:
    page = await context.new_page()
    blocked: list[str] = []
    page.on("console", lambda m: blocked.append(m.text))
    await page.set_content(f'<iframe src="{gateway}/cashier"></iframe>')  # waits for its load
    assert any("frame-ancestors" in text for text in blocked), blocked
    assert await page.frames[-1].locator("#player").count() == 0  # nothing of the page shown
