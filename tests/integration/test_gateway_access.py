"""Who may do and see what at the gateway, against the real floor (a gateway process, the
services as processes, a real nats-server):

- a state-changing request from another origin (Origin, or without one Referer) is refused
  with 403 and reaches nothing, a valid cookie or not; the WebSocket upgrade too;
- a player is who a verified source says: bare player ids only on the demo floor; a player reads
  their own history only;
- player ids and stakes only for those entitled: anyone sees a round report's, the board's
  recall's and a table view's results and totals but no player id; a player sees their own
  wagers; floor staff see every player's.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid

import httpx
import pytest
import websockets
import websockets.exceptions  # websockets 17 loads it lazily: the attribute alone fails
from nats.aio.client import Client as NATS
from websockets.typing import Origin

from sicbo.eventstore.store import EventStore
from tests.integration.conftest import Floor
from tests.integration.test_gateway import (
    accepted,
    browser,
    error_of,
    opened,
    sign_in,
)
from tests.integration.test_settlement import wait_completed

START = {"type": "round.start.v1", "round": 1, "tumbles": 3}


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
        # eve gets her own history, naming herself or no one; naming pat is refused
        for params in ({}, {"player": "eve"}):
            history = (await eve.get(f"/api/tables/{table}/history", params=params)).json()
            assert history["player"] == "eve"
            assert [w["bet"] for s in history["slips"] for w in s["wagers"]] == ["small"]
        asked = await eve.get(f"/api/tables/{table}/history", params={"player": "pat"})
        assert error_of(asked, 403, "forbidden")["field"] == "player"
        mine = (await pat.get(f"/api/tables/{table}/history")).json()
        assert mine["player"] == "pat" and "eve" not in json.dumps(mine)
        async with browser(gateway) as anonymous:
            error_of(await anonymous.get(f"/api/tables/{table}/history"), 401, "signed-out")


async def test_a_land_table_takes_no_slip_from_a_players_device(
    gateway: str, floor: Floor, nc: NATS, store: EventStore
) -> None:
    """Its players bet with chips at the table (000 §3.10-3.11): the view says so, and a
    slip sent from a player's page is refused before it reaches the wagers service."""
    land = await opened(floor, nc, "cca-1992")
    online = await opened(floor, nc, "online-live", betting_seconds=600)
    async with browser(gateway) as dealer, browser(gateway) as pat:
        await sign_in(dealer, "ana", "1111")
        for table in (land, online):
            await accepted(dealer, table, START)
            await accepted(dealer, table, {"type": "round.open-betting.v1", "round": 1})
        assert (await pat.post("/api/player", json={"player": "pat"})).status_code == 200
        views = {t: (await pat.get(f"/api/tables/{t}")).json() for t in (land, online)}
        assert views[land]["remote_players"] is False
        assert views[online]["remote_players"] is True
        before = await store.last_sequence(f"sicbo.evt.{land}.>")
        slip = {"round": 1, "wagers": [{"bet": "big", "stake": 200}]}
        refused = error_of(
            await pat.post(f"/api/tables/{land}/slips", json={"command_id": jti(), **slip}),
            403,
            "forbidden",
        )
        assert "takes no remote players" in str(refused["reason"])
        assert await store.last_sequence(f"sicbo.evt.{land}.>") == before
        placed = await pat.post(f"/api/tables/{online}/slips", json={"command_id": jti(), **slip})
        assert placed.status_code == 200 and placed.json()["type"] == "accepted.v1", placed.text


def jti() -> str:
    return f"s-{uuid.uuid4().hex[:12]}"


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
