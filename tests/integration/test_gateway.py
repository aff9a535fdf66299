"""The web gateway's API against the real floor: a gateway process, the services as processes,
a real nats-server (never a mock).

- sign-in by id and PIN; every command is stamped with the signed-in operator, so the browser
  cannot claim a role; a role's commands only (a dealer cannot invalidate, 000 §8.4);
- bad input (which field, why) changes nothing in the log;
- the idle lock (GLI-19 §C.6.5, shortened here);
- a player bets during the countdown and is refused after it (004), and reads their history;
- the table view, the board, the dispute report, live changes, and a page as the table's
  layout controller (000 §2.3): what it reports lit is what the log records.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import httpx
import msgspec
import pytest
import websockets
from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout
from websockets.typing import Origin

from sicbo.eventstore.store import EventStore
from sicbo.gateway.changes import QUEUE_SIZE, ChangeHub
from sicbo.gateway.floor import GatewayFloor
from sicbo.illumination.lamps import winning_spots
from sicbo.infra.nats_flush import flush_sent
from sicbo.replay.report import round_report
from sicbo_contracts.illumination import IlluminationEvent, IlluminationFault, LayoutIlluminated
from sicbo_contracts.lifecycle import OpenTable, TableConfig
from sicbo_contracts.subjects import Aggregate, layout_ping, round_filter
from tests.floor import browser
from tests.integration.conftest import LIMITS, OPERATOR, QUICK_LOCK_SECONDS, Floor, new_id
from tests.integration.test_settlement import ok, wait_completed, wait_for

_verdict = msgspec.json.Decoder(IlluminationEvent)


async def opened(floor: Floor, nc: NATS, profile: str = "cca-1992", **config: object) -> str:
    """A new table of ``profile``; given ``layout_controller`` the test brings its own lamps (a
    page), else a healthy controller answers where the rules require them (000 §2.3)."""
    table = new_id("web")[:32]
    if "layout_controller" not in config:
        config["layout_controller"] = await floor.lamps_for(table, profile)
    cfg = TableConfig(profile=profile, limits=LIMITS, **config)  # type: ignore[arg-type]
    await ok(floor, nc, OpenTable(command_id=new_id(), table=table, actor=OPERATOR, config=cfg))
    return table


async def sign_in(web: httpx.AsyncClient, operator: str, pin: str) -> dict[str, object]:
    answer = await web.post("/api/session", json={"operator": operator, "pin": pin})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def send(web: httpx.AsyncClient, table: str, body: dict[str, object]) -> httpx.Response:
    return await web.post(f"/api/tables/{table}/commands", json={"command_id": new_id(), **body})


async def accepted(web: httpx.AsyncClient, table: str, body: dict[str, object]) -> None:
    answer = await send(web, table, body)
    assert answer.status_code == 200 and answer.json()["type"] == "accepted.v1", answer.text


async def corrected_by_hand(
    web: httpx.AsyncClient, table: str, correction: dict[str, object]
) -> None:
    """A supervisor signed in corrects a result in manual mode (GLI-19 §4.18.4, §C.6.8(o))."""
    await accepted(web, table, {"type": "dice.enter-manual-mode.v1", "reason": "misread"})
    await accepted(web, table, correction)
    await accepted(web, table, {"type": "dice.leave-manual-mode.v1"})


async def play_to_result(web: httpx.AsyncClient, table: str, n: int, dice: list[int]) -> None:
    await accepted(web, table, {"type": "round.start.v1", "round": n, "tumbles": 3})
    for step in ("round.open-betting.v1", "round.close-betting.v1", "round.uncover.v1"):
        await accepted(web, table, {"type": step, "round": n})
    await accepted(web, table, {"type": "dice.enter.v1", "round": n, "dice": dice})
    await accepted(web, table, {"type": "dice.confirm.v1", "round": n})


async def answers_for_the_layout(nc: NATS, table: str, seconds: float = 10) -> None:
    """Until the table's layout pings are answered: the gateway serves a page as controller."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(NoRespondersError, NatsTimeout):
            await nc.request(layout_ping(table), b"", timeout=0.2)
            return
        await asyncio.sleep(0.05)
    pytest.fail(f"nobody answered for the layout of {table} within {seconds} s")


def error_of(answer: httpx.Response, status: int, code: str) -> dict[str, object]:
    assert answer.status_code == status, answer.text
    body = dict(answer.json())
    assert body["code"] == code, body
    return body


# ---- sign-in ----------------------------------------------------------------------------------


async def test_sign_in_needs_a_listed_operator_and_the_right_pin(web: httpx.AsyncClient) -> None:
    error_of(await web.get("/api/session"), 401, "signed-out")
    error_of(
        await web.post("/api/session", json={"operator": "ana", "pin": "9999"}), 401, "bad-pin"
    )
    error_of(
        await web.post("/api/session", json={"operator": "nobody", "pin": "1111"}), 401, "bad-pin"
    )
    assert (
        error_of(await web.post("/api/session", json={"operator": "ana"}), 400, "invalid")["field"]
        == "pin"
    )
    assert (
        error_of(await web.post("/api/session", json={"pin": "1111"}), 400, "invalid")["field"]
        == "operator"
    )
    error_of(await web.post("/api/session", content=b"{not json"), 400, "invalid")
    error_of(await web.post("/api/session", json=["ana", "1111"]), 400, "invalid")
    error_of(await web.get("/api/session"), 401, "signed-out")

    session = await sign_in(web, "sofia", "3333")
    assert session["role"] == "supervisor"
    assert "round.invalidate.v1" in session["actions"]  # type: ignore[operator]
    assert (await web.get("/api/session")).json()["operator"] == "sofia"
    assert (await web.delete("/api/session")).status_code == 200
    error_of(await web.get("/api/session"), 401, "signed-out")


# ---- commands ---------------------------------------------------------------------------------


async def test_a_dealer_plays_a_round_and_the_log_names_the_signed_in_operator(
    web: httpx.AsyncClient, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc)
    await sign_in(web, "ana", "1111")
    await play_to_result(web, table, 1, [6, 2, 2])
    await wait_completed(store, table, 1)

    actors = {
        (json.loads(e.data)["actor"]["id"], json.loads(e.data)["actor"]["role"])
        for e in await store.read(round_filter(table, Aggregate.LIFECYCLE, 1))
        if e.subject.split(".")[-1] != "round-completed-v1"  # the settlement's, a service
    }
    assert actors == {("ana", "dealer")}
    view = (await web.get(f"/api/tables/{table}")).json()
    assert view["round"]["phase"] == "completed"
    assert view["last_result"] == {"round": 1, "dice": [2, 2, 6], "total": 10}


async def test_commands_a_role_may_not_send_are_refused_and_change_nothing(
    web: httpx.AsyncClient, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc)
    log = f"sicbo.evt.{table}.>"
    error_of(
        await send(web, table, {"type": "round.start.v1", "round": 1, "tumbles": 3}),
        401,
        "signed-out",
    )
    await sign_in(web, "ana", "1111")
    before = await store.last_sequence(log)
    body = error_of(
        await send(
            web, table, {"type": "round.invalidate.v1", "round": 1, "reason": "fire", "detail": "x"}
        ),
        403,
        "forbidden",
    )
    assert "dealer" in str(body["reason"])
    await sign_in(web, "ivan", "4444")  # an inspector does not run rounds
    error_of(
        await send(web, table, {"type": "round.start.v1", "round": 1, "tumbles": 3}),
        403,
        "forbidden",
    )
    assert await store.last_sequence(log) == before


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        (
            {
                "type": "round.start.v1",
                "round": 1,
                "tumbles": 3,
                "actor": {"id": "x", "role": "supervisor"},
            },
            400,
            "$.actor",
        ),
        ({"type": "round.start.v1", "round": 1, "tumbles": 3, "table": "other"}, 400, "$.table"),
        ({"round": 1, "tumbles": 3}, 400, "$.type"),
        ({"type": "round.start.v1", "round": "one", "tumbles": 3}, 400, "$.round"),
        ({"type": "round.start.v1", "round": 0, "tumbles": 3}, 400, "$.round"),
        ({"type": "round.start.v1", "round": 1, "tumbles": 3, "colour": "red"}, 400, None),
        ({"type": "dice.enter.v1", "round": 1, "dice": [1, 2, 7]}, 400, "$.dice[2]"),
        ({"type": "dice.enter.v1", "round": 1, "dice": [1, 2]}, 400, "$.dice"),
        ({"type": "no.such.v1", "round": 1}, 403, None),
    ],
)
async def test_bad_commands_name_the_field_and_change_nothing(
    web: httpx.AsyncClient,
    floor: Floor,
    nc: NATS,
    store: EventStore,
    body: dict[str, object],
    status: int,
    field: str | None,
) -> None:
    table = await opened(floor, nc)
    await sign_in(web, "ana", "1111")
    before = await store.last_sequence(f"sicbo.evt.{table}.>")
    answer = await send(web, table, body)
    assert answer.status_code == status, answer.text
    assert answer.json()["reason"]
    if field is not None:
        assert answer.json()["field"] == field
    assert await store.last_sequence(f"sicbo.evt.{table}.>") == before


async def test_refusals_carry_the_rule_and_bad_table_ids_are_invalid(
    web: httpx.AsyncClient, floor: Floor, nc: NATS
) -> None:
    table = await opened(floor, nc)
    await sign_in(web, "ana", "1111")
    answer = await send(web, table, {"type": "round.start.v1", "round": 1, "tumbles": 2})
    assert answer.status_code == 409
    assert answer.json()["code"] == "refused" and "000 §5.1" in answer.json()["reason"]
    error_of(
        await send(web, "bad.table", {"type": "round.start.v1", "round": 1, "tumbles": 3}),
        400,
        "invalid",
    )
    error_of(await web.get("/api/tables/never-opened-table"), 404, "not-found")


async def test_the_terminal_locks_when_unused(
    floor: Floor, nc: NATS, quick_lock_gateway: str
) -> None:
    table = await opened(floor, nc)
    async with browser(quick_lock_gateway) as web:
        await sign_in(web, "ana", "1111")
        await accepted(web, table, {"type": "round.start.v1", "round": 1, "tumbles": 3})
        await asyncio.sleep(QUICK_LOCK_SECONDS + 0.5)
        body = error_of(
            await send(web, table, {"type": "round.open-betting.v1", "round": 1}), 401, "locked"
        )
        assert "GLI-19" in str(body["reason"])
        await sign_in(web, "ana", "1111")  # the PIN again
        await accepted(web, table, {"type": "round.open-betting.v1", "round": 1})


# ---- players ----------------------------------------------------------------------------------


async def test_a_player_bets_in_the_countdown_and_is_refused_after_it(
    web: httpx.AsyncClient, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=3)
    slip = {"round": 1, "wagers": [{"bet": "big", "stake": 200}]}
    error_of(
        await web.post(f"/api/tables/{table}/slips", json={"command_id": new_id(), **slip}),
        401,
        "signed-out",
    )
    error_of(await web.post("/api/player", json={"player": "bad player!"}), 400, "invalid")
    assert (await web.post("/api/player", json={"player": "pat"})).json() == {"player": "pat"}

    await sign_in(web, "ana", "1111")
    await accepted(web, table, {"type": "round.start.v1", "round": 1, "tumbles": 3})
    await accepted(web, table, {"type": "round.open-betting.v1", "round": 1})
    placed = await web.post(f"/api/tables/{table}/slips", json={"command_id": new_id(), **slip})
    assert placed.status_code == 200 and placed.json()["type"] == "accepted.v1", placed.text
    assert (
        error_of(
            await web.post(
                f"/api/tables/{table}/slips", json={"command_id": new_id(), **slip, "player": "eve"}
            ),
            403,
            "forbidden",
        )["field"]
        == "$.player"
    )
    bad_bet = {"command_id": new_id(), "round": 1, "wagers": [{"bet": "total:3", "stake": 200}]}
    refused = error_of(await web.post(f"/api/tables/{table}/slips", json=bad_bet), 409, "refused")
    assert "wagers[0].bet" in str(refused["reason"]) and "4..17" in str(refused["reason"])

    await wait_for(store, round_filter(table, Aggregate.LIFECYCLE, 1), "round-betting-closed-v1")
    late = await web.post(f"/api/tables/{table}/slips", json={"command_id": new_id(), **slip})
    assert late.status_code == 409, late.text
    assert "betting" in late.json()["reason"].lower()

    history = (await web.get(f"/api/tables/{table}/history")).json()
    assert history["player"] == "pat"
    assert [s["round"] for s in history["slips"]] == [1]
    assert history["slips"][0]["placed_by"] == {"id": "pat", "role": "player"}


# ---- reads ------------------------------------------------------------------------------------


async def lit(store: EventStore, table: str, n: int, verdicts: int = 1) -> None:
    """The layout's verdicts on round ``n`` are stored (000 §2.3): they are part of the round's
    history, so a report read before them would not be the final one."""
    for _ in range(100):
        if len(await store.read(round_filter(table, Aggregate.LAMP, n))) >= verdicts:
            return
        await asyncio.sleep(0.1)
    pytest.fail(f"{table} round {n}: fewer than {verdicts} lamp verdict(s) in 10 s")


async def test_floor_board_and_dispute_report(
    web: httpx.AsyncClient, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc)
    await sign_in(web, "ana", "1111")
    error_of(await web.get(f"/api/tables/{table}/rounds/1"), 404, "not-found")
    error_of(await web.get(f"/api/tables/{table}/rounds/0"), 400, "invalid")
    error_of(await web.get(f"/api/tables/{table}/rounds/x"), 400, "invalid")
    await play_to_result(web, table, 1, [1, 1, 1])
    await wait_completed(store, table, 1)
    await lit(store, table, 1)

    tables = {t["table"]: t for t in (await web.get("/api/floor")).json()["tables"]}
    assert tables[table]["profile"] == "cca-1992"
    report = (await web.get(f"/api/tables/{table}/rounds/1")).json()
    assert report["status"] == "MATCH" and report["dice"] == [1, 1, 1]
    for _ in range(100):  # the board service catches up with the log on its own
        board = (await web.get(f"/api/tables/{table}/board")).json()
        if board["stats"]["results"]:
            break
        await asyncio.sleep(0.1)
    assert [r["dice"] for r in board["stats"]["results"]] == [[1, 1, 1]]
    assert board["stats"]["triples"] == 1
    assert [r["round"] for r in board["recall"]["rounds"]] == [1]
    layout = (await web.get(f"/api/tables/{table}/layout")).json()
    assert layout["paytable"] == "cca-1992@v1"
    assert sum(len(g["spots"]) for g in layout["groups"]) == 50

    # The report is kept until the round's own history grows: a correction shows at once,
    # and the kept report is the one replay computes from the whole log.
    await play_to_result(web, table, 2, [2, 3, 4])
    assert (await web.get(f"/api/tables/{table}/rounds/1")).json() == report
    await wait_completed(store, table, 2)
    kept = (await web.get(f"/api/tables/{table}/rounds/2")).json()
    assert kept["final_dice"] == [2, 3, 4]
    await sign_in(web, "sofia", "3333")
    correction = {"type": "dice.correct.v1", "round": 2, "dice": [2, 3, 5], "reason": "misread"}
    await corrected_by_hand(web, table, correction)
    await wait_for(store, round_filter(table, Aggregate.SETTLE, 2), "settle-adjusted-v1")
    await lit(store, table, 2, verdicts=2)  # the corrected result is lit too
    again = (await web.get(f"/api/tables/{table}/rounds/2")).json()
    assert again["final_dice"] == [2, 3, 5]
    fresh = round_report(await store.read(f"sicbo.evt.{table}.>"), table, 2)
    # an operator signed in: nothing hidden (sicbo.gateway.redaction)
    assert again.pop("hidden") == {"wagers": 0, "staked": 0, "returned": 0}
    assert again == json.loads(msgspec.json.encode(fresh))


async def test_pages_are_served_and_bad_table_ids_are_not(
    web: httpx.AsyncClient, floor: Floor, nc: NATS
) -> None:
    table = await opened(floor, nc)
    for page in ("terminal", "layout", "board", "display", "play", "rounds/3"):
        answer = await web.get(f"/tables/{table}/{page}")
        assert answer.status_code == 200 and "<html" in answer.text.lower(), page
        # A table never opened: a page saying so, not the page that would wait for it.
        never = await web.get(f"/tables/never-{table[4:]}/{page}")
        assert never.status_code == 404 and "has never been opened" in never.text, page
    assert (await web.get("/")).status_code == 200
    assert (await web.get("/tables/a.b/terminal")).status_code == 400
    assert (await web.get("/healthz")).json() == {"ok": True}


async def test_changes_stream_to_the_page(web: httpx.AsyncClient, floor: Floor, nc: NATS) -> None:
    table = await opened(floor, nc)
    await sign_in(web, "ana", "1111")
    async with web.stream("GET", "/api/events", params={"table": table}) as events:
        lines = events.aiter_lines()
        assert await anext(lines) == ": connected"
        await accepted(web, table, {"type": "round.start.v1", "round": 1, "tumbles": 3})
        change = None
        async with asyncio.timeout(10):
            async for line in lines:
                if line.startswith("data: "):
                    change = json.loads(line[6:])
                    break
    assert change == {"table": table, "aggregate": "lc", "round": 1, "type": "round-started-v1"}
    error_of(await web.get("/api/events", params={"table": "a.b"}), 400, "invalid")


async def test_a_display_grant_lights_a_layout_but_sends_no_command(
    gateway: str, floor: Floor, nc: NATS
) -> None:
    table = await opened(floor, nc, layout_controller=True)
    async with browser(gateway) as display:
        error_of(await display.get("/api/display"), 401, "signed-out")
        error_of(
            await display.post("/api/display", json={"operator": "ana", "pin": "0"}), 401, "bad-pin"
        )
        assert (
            await display.post("/api/display", json={"operator": "ana", "pin": "1111"})
        ).json() == {"display": "ana"}
        error_of(
            await send(display, table, {"type": "round.start.v1", "round": 1, "tumbles": 3}),
            401,
            "signed-out",
        )
        cookie = "; ".join(f"{k}={v}" for k, v in display.cookies.items())
        ws_url = gateway.replace("http://", "ws://") + f"/api/tables/{table}/layout-controller"
        async with websockets.connect(
            ws_url, additional_headers={"cookie": cookie}, origin=Origin(gateway)
        ):
            await answers_for_the_layout(nc, table)  # the page is the table's controller
        assert (await display.delete("/api/display")).status_code == 200
        error_of(await display.get("/api/display"), 401, "signed-out")


async def test_a_player_bets_chips_only_and_bodies_are_bounded(
    web: httpx.AsyncClient, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    await web.post("/api/player", json={"player": "pat"})
    before = await store.last_sequence(f"sicbo.evt.{table}.>")
    promo = {
        "command_id": new_id(),
        "round": 1,
        "wagers": [{"bet": "big", "stake": 100, "medium": "promo"}],
    }
    assert (
        error_of(await web.post(f"/api/tables/{table}/slips", json=promo), 400, "invalid")["field"]
        == "$.wagers[0].medium"
    )
    error_of(
        await web.post(f"/api/tables/{table}/slips", content=b"[" + b"1," * 40_000 + b"1]"),
        413,
        "too-large",
    )
    error_of(
        await web.post("/api/tables/never-opened-x/slips", json={"round": 1, "wagers": []}),
        404,
        "not-found",
    )
    assert await store.last_sequence(f"sicbo.evt.{table}.>") == before


async def test_takeover_without_a_demo_dealer_is_immediate(
    web: httpx.AsyncClient, floor: Floor, nc: NATS
) -> None:
    table = await opened(floor, nc)
    error_of(await web.post(f"/api/tables/{table}/takeover"), 401, "signed-out")
    await sign_in(web, "ana", "1111")
    assert (await web.get(f"/api/tables/{table}/control")).json()["status"] == "none"
    assert (await web.post(f"/api/tables/{table}/takeover")).json()["status"] == "yours"
    assert (await web.post(f"/api/tables/{table}/release")).json()["status"] == "released"


# ---- a page as the layout controller -----------------------------------------------------------


async def test_a_page_is_the_layout_controller_and_a_dark_spot_is_a_fault(
    web: httpx.AsyncClient, gateway: str, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc, layout_controller=True)
    await sign_in(web, "ana", "1111")
    ws_url = gateway.replace("http://", "ws://") + f"/api/tables/{table}/layout-controller"
    async with websockets.connect(
        ws_url, origin=Origin(gateway)
    ) as anonymous:  # no display without an operator
        with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
            await asyncio.wait_for(anonymous.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    cookie = "; ".join(f"{k}={v}" for k, v in web.cookies.items())
    async with websockets.connect(
        ws_url, additional_headers={"cookie": cookie}, origin=Origin(gateway)
    ) as page:

        async def light(drop: str | None) -> list[str]:
            request = json.loads(await asyncio.wait_for(page.recv(), 20))
            assert request["type"] == "light"
            lit = [s for s in request["spots"] if s != drop]
            await page.send(
                json.dumps({"type": "lit", "request_id": request["request_id"], "lit": lit})
            )
            return list(request["spots"])

        await answers_for_the_layout(nc, table)
        await play_to_result(web, table, 1, [4, 5, 6])
        asked = await light(drop=None)
        assert set(asked) == set(winning_spots("cca-1992@v1", (4, 5, 6)))
        verdict = _verdict.decode(
            (await wait_for(store, round_filter(table, Aggregate.LAMP, 1), "illuminated-v1")).data
        )
        assert isinstance(verdict, LayoutIlluminated) and set(verdict.spots) == set(asked)
        await wait_completed(store, table, 1)

        await play_to_result(web, table, 2, [4, 5, 6])
        await light(drop="big")  # the page failed to show "big"
        fault = _verdict.decode(
            (await wait_for(store, round_filter(table, Aggregate.LAMP, 2), "fault-v1")).data
        )
        assert isinstance(fault, IlluminationFault) and fault.missing == ["big"]
    view = (await web.get(f"/api/tables/{table}")).json()
    for _ in range(50):
        if view["suspended"] is not None:
            break
        await asyncio.sleep(0.1)
        view = (await web.get(f"/api/tables/{table}")).json()
    assert view["suspended"] is not None and view["fault"]


async def test_pages_watching_one_table_share_one_subscription(nc: NATS) -> None:
    hub = ChangeHub(nc)
    subject = f"sicbo.evt.{new_id('hub')}.>"
    async with hub.watch(subject) as first, hub.watch(subject) as second:
        assert hub.subscriptions == 1
        await nc.publish(subject.replace(">", "lc.1.round-started-v1"), b"{}")
        got = [await asyncio.wait_for(q.get(), 5) for q in (first, second)]
        assert [m.subject.rsplit(".", 1)[1] for m in got] == ["round-started-v1"] * 2
        for _ in range(QUEUE_SIZE + 10):  # a page that never reads only loses old changes
            await nc.publish(subject.replace(">", "lc.1.x"), b"{}")
        await flush_sent(nc)
        await asyncio.sleep(0.2)
        assert first.qsize() == QUEUE_SIZE
    assert hub.subscriptions == 0


async def round_history_done(store: EventStore, table: str, n: int) -> None:
    """Until the round's history has every event it gets without anyone's further act: its
    RoundCompleted (the settlement's) and its lamps' verdict (the illumination service's, on
    the ResultConfirmed, independently of the settlement: it may be stored after the
    RoundCompleted on a busy machine, and a report made before it is rightly made again)."""
    await wait_completed(store, table, n)
    await wait_for(store, round_filter(table, Aggregate.LAMP, n), "layout-illuminated-v1")


async def test_a_kept_round_report_is_read_again_only_when_its_round_changes(
    web: httpx.AsyncClient, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc)
    await sign_in(web, "ana", "1111")
    await play_to_result(web, table, 1, [1, 2, 3])
    await round_history_done(store, table, 1)
    reader = GatewayFloor(nc)
    whole_table_reads = 0
    read_all = reader.store.read_all

    async def counted(**kwargs: Any) -> Any:
        nonlocal whole_table_reads
        whole_table_reads += 1
        return await read_all(**kwargs)

    reader.store.read_all = counted  # type: ignore[method-assign]
    first = await reader.round_report(table, 1)
    assert await reader.round_report(table, 1) == first and whole_table_reads == 1
    await play_to_result(web, table, 2, [4, 5, 6])  # another round's events
    await round_history_done(store, table, 2)
    assert await reader.round_report(table, 1) == first and whole_table_reads == 1
    before = await reader.round_report(table, 2)
    assert whole_table_reads == 2
    await sign_in(web, "sofia", "3333")
    await corrected_by_hand(
        web, table, {"type": "dice.correct.v1", "round": 2, "dice": [4, 5, 5], "reason": "misread"}
    )
    await wait_for(store, round_filter(table, Aggregate.SETTLE, 2), "settle-adjusted-v1")
    after = await reader.round_report(table, 2)
    assert whole_table_reads == 3
    assert before.final_dice == (4, 5, 6) and after.final_dice == (4, 5, 5)
