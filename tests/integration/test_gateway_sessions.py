"""The gateway's trust boundaries against the real floor (a gateway process, the services as
processes, a real nats-server):

- sessions live in the gateway: a cookie saved before sign-out is refused after it, and
  appends nothing; a supervisor's revoke ends another operator's sessions on every replica (the
  second gateway process plays the other replica), a display's socket too;
- a state-changing request from another origin (Origin, or without one Referer) is refused
  with 403 and reaches nothing, a valid cookie or not; the WebSocket upgrade too;
- a player is who a verified source says: bare player ids only on the demo floor; a player reads
  their own history only;
- a player is who a verified source says: bare player ids only on the demo floor; a player reads
  their own history only;
- player ids and stakes only for those entitled: anyone sees a round report's, the board's
  recall's and a table view's results and totals but no player id; a player sees their own
  wagers; floor staff see every player's;
- sign-in throttling slows guessing per (id, client) and per client, unknown ids too, and locks
  nobody out: a stranger's wrong PINs from elsewhere do not stop the real operator (the tests
  play the ingress: the session's gateway believes their X-Forwarded-For).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import AsyncIterator

import httpx
import pytest
import websockets
from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout
from websockets.typing import Origin

from sicbo.eventstore.store import EventStore
from sicbo.gateway.throttle import FREE_FAILURES
from sicbo_contracts.subjects import layout_ping
from tests.integration.conftest import Floor
from tests.integration.test_gateway import (
    accepted,
    answers_for_the_layout,
    browser,
    error_of,
    opened,
    send,
    sign_in,
)
from tests.integration.test_settlement import wait_completed

START = {"type": "round.start.v1", "round": 1, "tumbles": 3}


@pytest.fixture
async def web(gateway: str) -> AsyncIterator[httpx.AsyncClient]:
    async with browser(gateway) as client:
        yield client


async def signed_out_within(web: httpx.AsyncClient, seconds: float = 10) -> None:
    """Until the browser's operator session is refused (another replica hears of a revoke as
    NATS delivers it)."""
    deadline = time.monotonic() + seconds
    while (answer := await web.get("/api/session")).status_code == 200:
        if time.monotonic() > deadline:
            pytest.fail(f"still signed in after {seconds} s: {answer.text}")
        await asyncio.sleep(0.05)
    error_of(answer, 401, "signed-out")


# ---- sessions ---------------------------------------------------------------------------------


async def test_a_cookie_saved_before_sign_out_is_refused_after_it_and_appends_nothing(
    web: httpx.AsyncClient, gateway: str, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc)
    await sign_in(web, "ana", "1111")
    saved = httpx.Cookies(web.cookies)
    assert [c.value for c in web.cookies.jar if len(c.value) >= 43]  # a token, nothing else
    assert "ana" not in "".join(c.value for c in web.cookies.jar)
    assert (await web.delete("/api/session")).json() == {"signed_out": True}
    before = await store.last_sequence(f"sicbo.evt.{table}.>")
    async with browser(gateway, saved) as replayed:
        error_of(await send(replayed, table, START), 401, "signed-out")
        error_of(await replayed.get("/api/session"), 401, "signed-out")
    assert await store.last_sequence(f"sicbo.evt.{table}.>") == before

    # A new sign-in is a new token: the one before it is worth nothing either.
    await sign_in(web, "ana", "1111")
    first = httpx.Cookies(web.cookies)
    await sign_in(web, "ana", "1111")
    async with browser(gateway, first) as old:
        error_of(await send(old, table, START), 401, "signed-out")
    await accepted(web, table, START)


async def test_a_supervisors_revoke_ends_an_operators_sessions_on_every_replica(
    gateway: str, quick_lock_gateway: str, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc)
    async with (
        browser(gateway) as ana_here,
        browser(gateway) as ana_there_too,
        browser(quick_lock_gateway) as ana_elsewhere,  # the other replica
        browser(gateway) as ben,
        browser(gateway) as sofia,
    ):
        for web in (ana_here, ana_there_too, ana_elsewhere):
            await sign_in(web, "ana", "1111")
        await sign_in(ben, "ben", "2222")
        await sign_in(sofia, "sofia", "3333")

        revoke = "/api/sessions/revoke"
        refused = error_of(await ben.post(revoke, json={"operator": "ana"}), 403, "forbidden")
        assert "only their own" in str(refused["reason"])
        bad = error_of(await sofia.post(revoke, json={"operator": "a b"}), 400, "invalid")
        assert bad["field"] == "operator"
        error_of(await sofia.post(revoke, json={}), 400, "invalid")
        error_of(await sofia.post(revoke, json={"operator": "nobody"}), 404, "not-found")

        answer = await sofia.post(revoke, json={"operator": "ana"})
        # both of hers here (and any an earlier test left on the session's gateway)
        assert answer.json()["operator"] == "ana" and answer.json()["ended_here"] >= 2
        before = await store.last_sequence(f"sicbo.evt.{table}.>")
        for web in (ana_here, ana_there_too):
            error_of(await send(web, table, START), 401, "signed-out")
        await signed_out_within(ana_elsewhere)
        assert await store.last_sequence(f"sicbo.evt.{table}.>") == before
        await accepted(ben, table, START)  # other operators carry on

        # Anyone may end their own sessions everywhere; nobody else's but a supervisor.
        assert (await ben.post(revoke, json={"operator": "ben"})).json()["ended_here"] >= 1
        error_of(await ben.get("/api/session"), 401, "signed-out")
        await sign_in(ana_here, "ana", "1111")  # ana signs in again at once: no lockout
        assert (await sofia.get("/api/session")).json()["operator"] == "sofia"


async def test_a_revoked_display_grant_stops_answering_for_the_layout(
    gateway: str, floor: Floor, nc: NATS
) -> None:
    table = await opened(floor, nc, layout_controller=True)
    async with browser(gateway) as display, browser(gateway) as sofia:
        assert (
            await display.post("/api/display", json={"operator": "ivan", "pin": "4444"})
        ).json() == {"display": "ivan"}
        await sign_in(sofia, "sofia", "3333")
        cookie = "; ".join(f"{k}={v}" for k, v in display.cookies.items())
        ws_url = gateway.replace("http://", "ws://") + f"/api/tables/{table}/layout-controller"
        async with websockets.connect(
            ws_url, additional_headers={"cookie": cookie}, origin=Origin(gateway)
        ) as page:
            await answers_for_the_layout(nc, table)
            revoked = await sofia.post("/api/sessions/revoke", json={"operator": "ivan"})
            assert revoked.json()["ended_here"] >= 1, revoked.text
            with pytest.raises((NoRespondersError, NatsTimeout)):  # the page answers no more
                await nc.request(layout_ping(table), b"", timeout=1)
            with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                await asyncio.wait_for(page.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        error_of(await display.get("/api/display"), 401, "signed-out")


def client_address() -> str:
    """A client address of this test's own (the throttle's state is the session gateway's)."""
    n = uuid.uuid4().int
    return f"10.{n % 250 + 1}.{n // 250 % 250 + 1}.{n // 62_500 % 250 + 1}"


async def try_pin(web: httpx.AsyncClient, operator: str, pin: str, client: str) -> httpx.Response:
    return await web.post(
        "/api/session",
        json={"operator": operator, "pin": pin},
        headers={"x-forwarded-for": client},
    )


# ---- players ----------------------------------------------------------------------------------


async def test_a_bare_player_id_is_refused_outside_demo_mode(quick_lock_gateway: str) -> None:
    async with browser(quick_lock_gateway) as web:  # a real floor's gateway: no --demo-players
        refused = error_of(await web.post("/api/player", json={"player": "pat"}), 403, "forbidden")
        assert "launched by their operator" in str(refused["reason"])
        error_of(await web.get("/api/player"), 401, "signed-out")


async def test_a_player_reads_their_own_history_only(gateway: str, floor: Floor, nc: NATS) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    async with browser(gateway) as dealer, browser(gateway) as pat, browser(gateway) as eve:
        await sign_in(dealer, "ana", "1111")
        await accepted(dealer, table, START)
        await accepted(dealer, table, {"type": "round.open-betting.v1", "round": 1})
        for web, player, bet in ((pat, "pat", "big"), (eve, "eve", "small")):
            assert (await web.post("/api/player", json={"player": player})).status_code == 200
            slip = {"command_id": f"s-{uuid.uuid4().hex[:12]}", "round": 1}
            placed = await web.post(
                f"/api/tables/{table}/slips",
                json={**slip, "wagers": [{"bet": bet, "stake": 200}]},
            )
            assert placed.status_code == 200, placed.text
        # eve asks for pat's history every way a page could: she gets her own
        for params in ({}, {"player": "pat"}):
            history = (await eve.get(f"/api/tables/{table}/history", params=params)).json()
            assert history["player"] == "eve"
            assert [w["bet"] for s in history["slips"] for w in s["wagers"]] == ["small"]
        mine = (await pat.get(f"/api/tables/{table}/history")).json()
        assert mine["player"] == "pat" and "eve" not in json.dumps(mine)
        async with browser(gateway) as anonymous:
            error_of(await anonymous.get(f"/api/tables/{table}/history"), 401, "signed-out")


# ---- who sees player ids ------------------------------------------------------------------------


async def recall_of_round(web: httpx.AsyncClient, table: str, round_no: int) -> dict[str, object]:
    """The board's recall of the round, once the board service has read its settlement."""
    deadline = time.monotonic() + 10
    while True:
        recall = (await web.get(f"/api/tables/{table}/board")).json()["recall"]
        for played in recall["rounds"]:
            if played["round"] == round_no and played["settled"]:
                return dict(played)
        if time.monotonic() > deadline:
            pytest.fail(f"the board did not recall round {round_no} of {table}: {recall}")
        await asyncio.sleep(0.1)


async def test_player_ids_and_stakes_only_for_those_entitled(
    web: httpx.AsyncClient, gateway: str, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc)
    pat, eve = (f"pl-{uuid.uuid4().hex[:10]}" for _ in range(2))
    await sign_in(web, "ana", "1111")  # floor staff
    await accepted(web, table, {"type": "table.take-seat.v1", "player": pat, "seat": 1})
    await accepted(web, table, START)
    await accepted(web, table, {"type": "round.open-betting.v1", "round": 1})
    for player, bet, stake in ((pat, "big", 500), (eve, "small", 300)):
        slip = {"type": "bets.place-slip.v1", "round": 1, "player": player}
        await accepted(web, table, {**slip, "wagers": [{"bet": bet, "stake": stake}]})
    for step in ("round.close-betting.v1", "round.uncover.v1"):
        await accepted(web, table, {"type": step, "round": 1})
    await accepted(web, table, {"type": "dice.enter.v1", "round": 1, "dice": [4, 5, 6]})
    await accepted(web, table, {"type": "dice.confirm.v1", "round": 1})
    await wait_completed(store, table, 1)

    async with browser(gateway) as anonymous, browser(gateway) as player:
        assert (await player.post("/api/player", json={"player": pat})).status_code == 200
        seen: dict[str, list[str]] = {}
        for who, client in (("staff", web), ("player", player), ("anyone", anonymous)):
            report = (await client.get(f"/api/tables/{table}/rounds/1")).json()
            recall = await recall_of_round(client, table, 1)
            view = (await client.get(f"/api/tables/{table}")).json()
            floor_view = next(
                t for t in (await client.get("/api/floor")).json()["tables"] if t["table"] == table
            )
            text = json.dumps([report, recall, view, floor_view])
            seen[who] = [p for p in (pat, eve) if p in text]
            assert report["status"] == "MATCH" and report["staked"] == 800, report
            assert recall["staked"] == 800 and list(recall["final_dice"]) == [4, 5, 6]
            if who == "staff":
                assert {w["player"] for w in report["wagers"]} == {pat, eve}
                assert view["seats"] == {"1": pat} and report["hidden"]["wagers"] == 0
            elif who == "player":
                assert [w["player"] for w in recall["wagers"]] == [pat]
                assert report["hidden"] == {"wagers": 1, "staked": 300, "returned": 0}
            else:
                assert report["wagers"] == recall["wagers"] == []
                assert recall["hidden"]["wagers"] == report["hidden"]["wagers"] == 2
                assert view["seats"] == {"1": "another player"}
        assert seen == {"staff": [pat, eve], "player": [pat], "anyone": []}


# ---- origins ----------------------------------------------------------------------------------

EVIL = "https://evil.example"


async def test_a_cross_origin_post_with_a_valid_cookie_is_refused_and_appends_nothing(
    web: httpx.AsyncClient, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc)
    await sign_in(web, "ana", "1111")
    log = f"sicbo.evt.{table}.>"
    before = await store.last_sequence(log)
    command = {"command_id": f"x-{uuid.uuid4().hex[:12]}", **START}
    for headers in (
        {"origin": EVIL},
        {"origin": "null"},
        {"origin": EVIL, "referer": f"{web.base_url}/tables/{table}/terminal"},
        {"origin": "", "referer": f"{EVIL}/page"},
    ):
        refused = await web.post(f"/api/tables/{table}/commands", json=command, headers=headers)
        assert refused.status_code == 403, (headers, refused.text)
        body = refused.json()
        assert body["error"] == body["code"] == "cross-origin" and body["reason"], body
    async with httpx.AsyncClient(base_url=str(web.base_url), cookies=web.cookies) as bare:
        error_of(
            await bare.post(f"/api/tables/{table}/commands", json=command), 403, "cross-origin"
        )
        error_of(await bare.delete("/api/session"), 403, "cross-origin")  # no forced sign-out
        error_of(
            await bare.post("/api/session", json={"operator": "ana", "pin": "1111"}),
            403,
            "cross-origin",
        )
    assert await store.last_sequence(log) == before
    assert (await web.get("/api/session")).json()["operator"] == "ana"  # reads need no Origin

    # The same origin passes: by Origin, or by Referer when a browser sent no Origin.
    await accepted(web, table, START)
    open_betting = {"type": "round.open-betting.v1", "round": 1}
    answer = await web.post(
        f"/api/tables/{table}/commands",
        json={"command_id": f"x-{uuid.uuid4().hex[:12]}", **open_betting},
        headers={"origin": "", "referer": f"{web.base_url}/tables/{table}/terminal"},
    )
    assert answer.status_code == 200 and answer.json()["type"] == "accepted.v1", answer.text


async def test_a_cross_origin_websocket_upgrade_is_refused(
    web: httpx.AsyncClient, gateway: str, floor: Floor, nc: NATS
) -> None:
    table = await opened(floor, nc, layout_controller=True)
    await sign_in(web, "ana", "1111")
    cookie = "; ".join(f"{k}={v}" for k, v in web.cookies.items())
    ws_url = gateway.replace("http://", "ws://") + f"/api/tables/{table}/layout-controller"
    with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
        async with websockets.connect(
            ws_url, additional_headers={"cookie": cookie}, origin=Origin(EVIL)
        ):
            pass
    assert refused.value.response.status_code == 403
    assert b"cross-origin" in refused.value.response.body


# ---- sign-in throttling -----------------------------------------------------------------------


async def test_repeated_failures_of_one_id_from_one_client_wait_with_retry_after(
    web: httpx.AsyncClient,
) -> None:
    client = client_address()
    for _ in range(FREE_FAILURES):
        error_of(await try_pin(web, "ben", "0000", client), 401, "bad-pin")
    refused = await try_pin(web, "ben", "2222", client)  # even the right PIN waits here
    body = error_of(refused, 429, "too-many-attempts")
    assert int(refused.headers["retry-after"]) >= 1
    assert "try again" in str(body["reason"])


async def test_a_strangers_wrong_pins_do_not_stop_the_real_operator(
    web: httpx.AsyncClient,
) -> None:
    stranger = client_address()
    for _ in range(FREE_FAILURES):
        error_of(await try_pin(web, "omar", "0000", stranger), 401, "bad-pin")
    error_of(await try_pin(web, "omar", "0000", stranger), 429, "too-many-attempts")
    # omar, at his own terminal: not slowed by the stranger's guesses
    answer = await try_pin(web, "omar", "5555", client_address())
    assert answer.status_code == 200 and answer.json()["operator"] == "omar", answer.text
    error_of(await try_pin(web, "omar", "5555", stranger), 429, "too-many-attempts")


async def test_an_unknown_id_is_slowed_too(web: httpx.AsyncClient) -> None:
    client = client_address()
    for _ in range(FREE_FAILURES):
        error_of(await try_pin(web, "no-such-operator", "1234", client), 401, "bad-pin")
    refused = await try_pin(web, "no-such-operator", "1234", client)
    error_of(refused, 429, "too-many-attempts")
    assert int(refused.headers["retry-after"]) >= 1
    await sign_in(web, "ana", "1111")  # other ids from other clients are not affected
