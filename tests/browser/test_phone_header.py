"""The player page's header on a phone (390x844) once signed in: the player's id and "Sign
out" are whole on the screen, neither cut off nor past its edge (a leftover of the screens
review: ``demo:player-1`` showed as ``demo:pla…`` and "Sign out" was clipped)."""

from __future__ import annotations

from nats.aio.client import Client as NATS
from playwright.async_api import Browser, expect

from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.test_pages import signed_in_player
from tests.integration.conftest import Floor
from tests.integration.test_gateway import opened

PHONE = (390, 844)
#: Each element's box and whether its content is cut (wider than the box: an ellipsis).
FIT = """(selectors) => Object.fromEntries(selectors.map((s) => {
  const n = document.querySelector(s); const b = n.getBoundingClientRect();
  const words = document.createRange(); words.selectNodeContents(n);
  const wide = words.getBoundingClientRect().width;  // the words' own width, to the subpixel
  return [s, {left: b.left, right: b.right, top: b.top, bottom: b.bottom,
    cut: n.scrollWidth > n.clientWidth || wide > b.width}];
}))"""


async def test_the_player_id_and_sign_out_are_whole_on_a_phone(
    browser: Browser, gateway: str, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    width, height = PHONE
    ctx = await browser.new_context(base_url=gateway, viewport={"width": width, "height": height})
    ctx.set_default_timeout(15_000)
    try:
        page = console_errors.watch(await ctx.new_page())
        await signed_in_player(page, table, "demo:player-1")
        await expect(page.locator("#wallet, #player-signout").last).to_be_visible()
        await screenshot(page, "play-header-390x844")
        shown = ["#player-who", "#player-signout", "#language"]
        boxes = await page.evaluate(FIT, [*shown, "header.top"])
        for selector in shown:
            box = boxes[selector]
            if selector != "#language":  # a menu's box is its own: its words are not measured
                assert not box["cut"], f"{selector} cut off: {box}"
            assert box["left"] >= 0 and box["right"] <= width + 1, f"{selector} off screen: {box}"
            assert box["bottom"] <= boxes["header.top"]["bottom"] + 1, (selector, box)
        # In the header's two lines: the player's line, with the language menu, not a third.
        assert boxes["#language"]["top"] < boxes["#player-who"]["bottom"]
        assert boxes["header.top"]["cut"] is False  # the header does not scroll sideways
    finally:
        await ctx.close()
    assert console_errors == []
