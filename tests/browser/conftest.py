"""Browser tests: the floor's pages in a real headless Chromium (Debian's ``chromium``, driven by
Playwright's Python API), against the gateway and the services as processes on a real
nats-server. Screenshots of the pages go to build/screenshots/ (not in git).

Chromium is not optional here: without it these tests fail and say how to install it
(``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest
from playwright.async_api import Browser, BrowserContext, ConsoleMessage, Page, async_playwright

SCREENSHOTS = Path(__file__).resolve().parents[2] / "build" / "screenshots"
#: Without the background-networking flags Chromium keeps dialling Google's hosts, which this
#: closed network refuses; --no-sandbox because CI runs as root.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def chromium_path() -> str:
    path = os.environ.get("SICBO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).exists():
        pytest.fail(
            "the browser tests need Debian's chromium: `apt-get install chromium` (CI's .ci/run"
            " does), or point SICBO_CHROMIUM at a Chromium binary"
        )
    return path


@pytest.fixture(scope="session")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        chromium = await pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            await chromium.close()


#: Chromium logs every 4xx answer as a console error; the pages handle those (signed out,
#: a refused bet), so only other errors count.
_ANSWERED_4XX = re.compile(r"^Failed to load resource: the server responded with a status of 4\d\d")


class ConsoleErrors(list[str]):
    """The page's console errors and uncaught exceptions: a page that logs one fails."""

    def watch(self, page: Page) -> Page:
        page.on("console", self._on_console)
        page.on("pageerror", lambda e: self.append(str(e)))
        return page

    def _on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error" and not _ANSWERED_4XX.match(message.text):
            self.append(message.text)


Profiles = Callable[[], Awaitable[BrowserContext]]


@pytest.fixture
async def profiles(browser: Browser, gateway: str) -> AsyncIterator[Profiles]:
    """Makes fresh browser profiles (each its own cookies: another person) on the session's
    gateway, tablet-sized; each closed after the test."""
    made: list[BrowserContext] = []

    async def profile() -> BrowserContext:
        ctx = await browser.new_context(base_url=gateway, viewport={"width": 1280, "height": 900})
        ctx.set_default_timeout(15_000)
        made.append(ctx)
        return ctx

    try:
        yield profile
    finally:
        for ctx in made:
            await ctx.close()


@pytest.fixture
async def context(profiles: Profiles) -> BrowserContext:
    """A fresh browser profile (its own cookies) on the session's gateway, tablet-sized."""
    return await profiles()


@pytest.fixture
def console_errors() -> ConsoleErrors:
    return ConsoleErrors()


async def screenshot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    await page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
