"""004 "Ralat Pengendalian" on the running floor (services as processes, a real nats-server): an
online round suspended mid-betting keeps its betting time. Its first deadline passes without
closing betting, the supervisor resumes the round, a slip is taken, and the countdown closes
betting at the resumed deadline."""

from __future__ import annotations

import asyncio
from datetime import datetime

import msgspec
from nats.aio.client import Client as NATS
from nats.js.errors import NoKeysError

from sicbo.eventstore.store import EventStore
from sicbo.lifecycle.countdown import Deadline, key_of
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.lifecycle import OpenBetting, ReportMalfunction, StartRound
from sicbo_contracts.replies import Accepted, Rejected
from sicbo_contracts.resumption import ResumeRound
from sicbo_contracts.subjects import TIMERS_BUCKET
from sicbo_contracts.wagers import PlaceSlip, Wager
from tests.integration.conftest import DEALER, SUPERVISOR, Floor, new_id
from tests.integration.test_round_services import lc_events, open_table, wait_for

ALICE = Actor(id="alice", role=Role.PLAYER)


def slip(table: str) -> PlaceSlip:
    return PlaceSlip(
        command_id=new_id("slip"),
        table=table,
        actor=ALICE,
        round=1,
        player="alice",
        wagers=[Wager(bet="big", stake=100)],
    )


async def fired(nc: NATS, key: str, seconds: float = 30) -> None:
    """Wait until the countdown has fired the deadline under ``key`` (and dropped it)."""
    kv = await nc.jetstream().key_value(TIMERS_BUCKET)
    for _ in range(int(seconds * 10)):
        try:
            keys = await kv.keys()
        except NoKeysError:
            keys = []
        if key not in keys:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"the countdown never fired {key}")


async def test_004_a_suspended_online_round_resumes_with_its_betting_time(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "online-live", betting_seconds=6)
    for step in (
        StartRound(command_id=new_id(), table=table_id, actor=DEALER, round=1, tumbles=3),
        OpenBetting(command_id=new_id(), table=table_id, actor=DEALER, round=1),
        ReportMalfunction(
            command_id=new_id(),
            table=table_id,
            actor=DEALER,
            equipment="video-stream",
            detail="the stream froze",
        ),
    ):
        assert isinstance(await floor.send(nc, step), Accepted), step
    opened = await wait_for(store, table_id, "round.betting-opened.v1", seconds=5)
    first = datetime.fromisoformat(str(opened["closes_at"]))

    # The first deadline passes while suspended: the countdown fires it, and it closes nothing.
    await fired(nc, key_of(Deadline(table=table_id, round=1, closes_at=first)))
    types = [e["type"] for e in await lc_events(store, table_id)]
    assert "round.betting-closed.v1" not in types, types
    refused = await floor.send(nc, slip(table_id))
    assert isinstance(refused, Rejected) and "suspended" in refused.reason

    resume = ResumeRound(
        command_id=new_id(), table=table_id, actor=SUPERVISOR, round=1, detail="stream back"
    )
    reply = await floor.send(nc, resume)
    assert isinstance(reply, Accepted), reply
    assert reply.events == ["table.fault-cleared.v1", "round.betting-resumed.v1"]
    resumed = await wait_for(store, table_id, "round.betting-resumed.v1", seconds=5)
    second = datetime.fromisoformat(str(resumed["closes_at"]))
    assert second > first

    taken = await floor.send(nc, slip(table_id))
    assert isinstance(taken, Accepted), taken

    closed = await wait_for(store, table_id, "round.betting-closed.v1", seconds=30)
    assert closed["by_countdown"] is True
    assert datetime.fromisoformat(str(closed["at"])) >= second
    log = await store.read(f"sicbo.evt.{table_id}.>")
    seq = {msgspec.json.decode(e.data)["type"]: e.seq for e in log}
    assert seq["bets.slip-placed.v1"] < seq["round.betting-closed.v1"]
