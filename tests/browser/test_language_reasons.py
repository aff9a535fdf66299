"""The services' reasons and the dispute view in the reader's language, and the supervisor's
limits in money (issue 15 item 4), in headless Chromium against the real floor:

- a round button the lifecycle would refuse is off with the lifecycle's reason, written from
  its message key in Malay, Chinese or English (never its citation or config name);
- the cancellation's reason on the online (004) terminal, in Malay by default;
- the dispute view's sentences in Chinese and Malay;
- the supervisor's limit fields shown and typed in the table's money, sent in minor units.
"""

from __future__ import annotations

import json
import re

from nats.aio.client import Client as NATS
from playwright.async_api import BrowserContext, expect

from sicbo.eventstore.store import EventStore
from sicbo.replay.report import round_report
from sicbo_contracts.invalidation import InvalidationReason
from sicbo_contracts.lifecycle import InvalidateRound, StartRound
from sicbo_contracts.subjects import Aggregate, round_filter, table_filter, table_level
from sicbo_contracts.wagers import Wager
from tests.browser.conftest import ConsoleErrors, screenshot
from tests.browser.test_pages import sign_in
from tests.integration.conftest import DEALER, LIMITS, SUPERVISOR, Floor, new_id
from tests.integration.test_gateway import opened
from tests.integration.test_settlement import ok, play, wait_completed, wait_for

TUMBLE = 'button[data-action="round.start.v1"]'


async def test_a_refused_tumble_says_the_lifecycles_reason_in_the_dealers_language(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    """000 §8.4 with dual control: round 1 paid, its invalidation proposed, the next round may
    not start until a second supervisor decides: the Tumble button is off and says so."""
    table = await opened(floor, nc, "cca-1992", dual_control=True)
    await play(floor, nc, table, 1, [("ann", [Wager(bet="big", stake=200)])], (2, 3, 5))
    await wait_completed(store, table, 1)
    invalidate = InvalidateRound(
        command_id=new_id(),
        table=table,
        actor=SUPERVISOR,
        round=1,
        reason=InvalidationReason.BRAWL,
        detail="a fight at seat 3",
    )
    await ok(floor, nc, invalidate)
    await wait_for(store, round_filter(table, Aggregate.LIFECYCLE, 1), "invalidation-proposed-v1")
    by = SUPERVISOR.id
    said = {
        "ms": f"Pembatalan pusingan 1 oleh {by} menunggu penyelia kedua: luluskan atau tolak"
        " dahulu.",
        "zh-Hant": f"{by} 提出的第 1 局作廢正等待第二位主管：請先批准或拒絕。",  # noqa: RUF001
        "en": f"An invalidation of round 1 by {by} waits for a second supervisor: approve or"
        " reject it first.",
    }
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "ana", "1111", "ms")
    for lang, words in said.items():
        await page.goto(f"/tables/{table}/terminal?lang={lang}")  # her session kept
        await expect(page.locator("#who")).to_contain_text("ana")
        await expect(page.locator("html")).to_have_attribute("lang", lang)
        tumble = page.locator(TUMBLE)
        await expect(tumble).to_be_disabled()
        await expect(tumble).to_have_attribute("title", words)
        await expect(tumble.locator(".why")).to_have_text(words)  # for a tap, not only hover
        await screenshot(page, f"terminal-refused-tumble-{lang}")
    assert console_errors == []


async def test_the_online_terminal_says_why_no_cancellation_in_malay(
    context: BrowserContext, floor: Floor, nc: NATS, console_errors: ConsoleErrors
) -> None:
    """004 "Ralat Pengendalian": a round is cancelled only while suspended."""
    table = await opened(floor, nc, "online-live", betting_seconds=600, currency="EUR")
    start = StartRound(command_id=new_id(), table=table, actor=DEALER, round=1, tumbles=3)
    await ok(floor, nc, start)
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "sofia", "3333", None)  # the table's own language: Malay
    await expect(page.locator("html")).to_have_attribute("lang", "ms")
    await expect(page.locator("#cancel-unavailable")).to_have_text(
        "Tiada pembatalan sekarang: Pusingan 1 tidak digantung: laporkan masalah dahulu,"
        " kemudian batalkan jika ia tidak dapat dibaiki dengan segera."
    )
    await expect(page.locator("#cancel-unavailable")).not_to_contain_text("ReportMalfunction")
    assert console_errors == []


async def test_the_dispute_view_speaks_chinese_and_malay(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "cca-1992")
    await play(floor, nc, table, 1, [("pat", [Wager(bet="big", stake=200)])], (2, 3, 5))
    await wait_completed(store, table, 1)
    report = round_report(await store.read(table_filter(table)), table, 1)
    page = console_errors.watch(await context.new_page())

    await page.goto(f"/tables/{table}/rounds/1?lang=zh-Hant")
    status = page.locator("#report-status")
    await expect(status).to_have_text("相符")
    await expect(status).to_have_attribute("data-status", "MATCH")  # the report's own term
    replayed = page.locator("#replayed")
    await expect(replayed).to_contain_text(
        f"按結算服務讀取的日誌重演結算：至日誌序號 {report.as_of}，骰子為 2-3-5。"  # noqa: RUF001
    )
    await expect(replayed).to_contain_text("其後沒有任何更正或取消。")
    await expect(page.locator("#summary")).to_contain_text("莊家結果")
    await expect(page.locator("#summary")).to_contain_text(f"日誌序號 {report.as_of}")
    await expect(page.locator("#no-findings")).to_have_text(
        "沒有發現：本局事件未違反任何記錄不變條件。"  # noqa: RUF001 (the catalogue's colon)
    )
    body = page.locator("body")
    for english in ("Replayed up to", "No correction", "House result", "MATCH", "recomputed"):
        await expect(body).not_to_contain_text(english)
    await screenshot(page, "dispute-zh")

    await page.goto(f"/tables/{table}/rounds/1?lang=ms")
    await expect(page.locator("#report-status")).to_have_text("SEPADAN")
    await expect(page.locator("#replayed")).to_contain_text(
        f"hingga jujukan log {report.as_of}, dengan dadu 2-3-5."
    )
    await expect(page.locator("#replayed")).to_contain_text(
        "Tiada pembetulan atau pembatalan selepasnya."
    )
    await expect(page.locator("body")).not_to_contain_text("Replayed up to")
    assert console_errors == []


async def test_the_supervisors_limits_are_shown_and_typed_in_the_tables_money(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    table = await opened(floor, nc, "macau-2004", currency="MOP")
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "sofia", "3333", "en")
    form = page.locator('[data-form="table.change-limits.v1"]')
    # the table's sign (LIMITS, minor units) in patacas: 100 -> 1.00, 100000 -> 1000.00
    assert (LIMITS.minimum, LIMITS.maximum, LIMITS.unit) == (100, 100_000, 10)
    await expect(page.locator("#limits-minimum")).to_have_value("1.00")
    await expect(page.locator("#limits-maximum")).to_have_value("1000.00")
    await expect(page.locator("#limits-unit")).to_have_value("0.10")
    await expect(form).to_contain_text("Amounts in MOP, e.g. 12.50")
    await expect(form).not_to_contain_text("minor units")
    await page.fill("#limits-minimum", "2.50")
    await expect(form.locator(".money-echo").first).to_have_text("MOP 2.50")
    await page.fill("#limits-reason", "busy evening")
    await page.click('button[data-action="table.change-limits.v1"]')
    # 000 §4.3: a higher minimum needs its sign first; the reason in words, not the rule's
    await expect(page.locator("#notice")).to_have_text(
        "A higher minimum needs a sign of the new minimum and its time of change, shown at"
        " the table at least 20 minutes before."
    )
    await page.fill("#limits-minimum", "0.50")  # lowering it: any time
    await page.fill("#limits-maximum", "1500")
    await page.fill("#limits-reason", "quiet evening")
    await page.click('button[data-action="table.change-limits.v1"]')
    await expect(page.locator("#notice")).to_have_class(re.compile(r"\bok\b"))  # accepted
    changed = await wait_for(store, table_level(table), "table-limits-changed-v1")
    after = json.loads(changed.data)["after"]
    assert (after["minimum"], after["maximum"], after["unit"]) == (50, 150_000, 10)
    await screenshot(page, "terminal-limits-in-money")

    await page.fill("#limits-minimum", "2.505")  # more decimals than a pataca has
    await page.fill("#limits-reason", "again")
    await page.click('button[data-action="table.change-limits.v1"]')
    invalid = await page.eval_on_selector("#limits-minimum", "(input) => input.validity.valid")
    assert invalid is False  # the form is not sent: nothing but the first change is stored
    changes = [
        e for e in await store.read(table_level(table)) if e.subject.endswith("limits-changed-v1")
    ]
    assert len(changes) == 1
    assert console_errors == []


async def test_a_lamp_fault_is_told_in_words_not_as_the_services_detail(
    context: BrowserContext,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    console_errors: ConsoleErrors,
) -> None:
    """000 §7.6-7.7: no controller answers for the lamps, the result is a lamp fault and the
    table is suspended; the terminal says so in Malay, its equipment by name, not its id."""
    table = await opened(floor, nc, "cca-1992", layout_controller=True)  # none answers
    await play(floor, nc, table, 1, [], (1, 3, 4))
    fault = await wait_for(store, round_filter(table, Aggregate.LAMP, 1), "illumination-fault-v1")
    assert json.loads(fault.data)["timed_out"] is True
    page = console_errors.watch(await context.new_page())
    await sign_in(page, table, "ana", "1111", "ms")
    await expect(page.locator("#round-info")).to_contain_text(
        "Kerosakan: lampu susun atur tidak menjawab"
    )
    await expect(page.locator("#suspended")).to_contain_text("lampu susun atur")
    await expect(page.locator("#suspended")).not_to_contain_text("layout-lamps")
    await expect(page.locator("#round-info")).not_to_contain_text(json.loads(fault.data)["detail"])
    await screenshot(page, "terminal-lamp-fault-ms")
    assert console_errors == []
