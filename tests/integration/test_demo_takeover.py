"""A person takes a demo table over from `make run`'s simulated dealer and hands it back
(sicbo_contracts.demo), against the real floor: the simulator finishes the round it plays, plays
no other until handed back, then plays on from whatever the person left."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable

import msgspec
import pytest
from nats.aio.client import Client as NATS

from sicbo.demo.client import FloorClient
from sicbo.demo.dealer import LEFT_OVER, SimulatedDealer
from sicbo.demo.run import answer_takeovers, simulated_table
from sicbo.demo.tables import DEALER as SIMULATED_DEALER
from sicbo.demo.tables import DemoTable
from sicbo.eventstore.store import EventStore
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.demo import Control, TakeoverRequest
from sicbo_contracts.lifecycle import (
    DeclareNoResult,
    NoResultDeclared,
    NoResultReason,
    StartRound,
    TableConfig,
)
from sicbo_contracts.replies import Accepted
from sicbo_contracts.subjects import (
    Aggregate,
    DemoAsk,
    aggregate_filter,
    demo,
    round_filter,
)
from tests.integration.conftest import LIMITS, SUPERVISOR, Floor, new_id
from tests.integration.test_settlement import wait_completed

_control = msgspec.json.Decoder(Control)
_no_result = msgspec.json.Decoder(NoResultDeclared)


async def ask(nc: NATS, subject: str) -> Control:
    return _control.decode((await nc.request(subject, b"{}", timeout=5)).data)


async def started_rounds(store: EventStore, table: str) -> list[tuple[int, str]]:
    """(round, actor id) of every RoundStarted of the table, in log order."""
    return [
        (body["round"], body["actor"]["id"])
        for e in await store.read(aggregate_filter(table, Aggregate.LIFECYCLE))
        if e.subject.endswith("round-started-v1")
        for body in [json.loads(e.data)]
    ]


async def stopped(sim: SimulatedDealer, playing: asyncio.Task[None]) -> None:
    """Stop the simulator for good (a cancellation alone can be lost in Python 3.11)."""
    sim.stop()
    playing.cancel()
    done, _ = await asyncio.wait({playing}, timeout=30)
    assert done, "the simulator did not stop"
    with contextlib.suppress(asyncio.CancelledError):
        await playing


async def rounds_until(
    store: EventStore,
    table: str,
    done: Callable[[list[tuple[int, str]]], bool],
    what: str,
    seconds: float = 30,
) -> list[tuple[int, str]]:
    """The table's started rounds once ``done`` holds for them, within ``seconds`` of wall time."""
    deadline = time.monotonic() + seconds
    while True:
        rounds = await started_rounds(store, table)
        if done(rounds):
            return rounds
        if time.monotonic() > deadline:
            pytest.fail(f"{table}: {what} within {seconds} s; rounds started: {rounds}")
        await asyncio.sleep(0.1)


async def test_the_demo_dealer_steps_aside_and_plays_on_when_handed_back(
    nc: NATS, store: EventStore, floor: Floor
) -> None:
    table = new_id("demo")[:32]
    lamps = await floor.lamps_for(table, "cca-1992")  # 000 §2.3
    config = TableConfig(profile="cca-1992", limits=LIMITS, layout_controller=lamps)
    demo_table = DemoTable(table, config)
    sim = simulated_table(
        FloorClient(nc),
        demo_table,
        lambda line: None,
        seed=7,
        betting_seconds=0.2,
        no_result_every=1000,
    )
    await answer_takeovers(nc, [sim.control])
    playing = asyncio.create_task(sim.run())
    try:
        await rounds_until(store, table, bool, "the demo dealer never started a round")
        before = await ask(nc, demo(table, DemoAsk.CONTROL))
        assert before.status == "demo" and before.by is None
        reply = await nc.request(
            demo(table, DemoAsk.TAKEOVER), msgspec.json.encode(TakeoverRequest(by="ana")), timeout=5
        )
        control = _control.decode(reply.data)
        assert control.status in ("after-round", "yours") and control.by == "ana"
        last = max(n for n, _ in await started_rounds(store, table))
        await wait_completed(store, table, last)
        await asyncio.sleep(1.0)  # the simulator would have started another round by now
        assert await ask(nc, demo(table, DemoAsk.CONTROL)) == Control(status="yours", by="ana")
        assert max(n for n, _ in await started_rounds(store, table)) == last

        person = Actor(id="ana", role=Role.DEALER)
        start = StartRound(
            command_id=new_id(), table=table, actor=person, round=last + 1, tumbles=3
        )
        assert isinstance(await floor.send(nc, start), Accepted)
        assert (last + 1, "ana") in await started_rounds(store, table)

        released = _control.decode(
            (await nc.request(demo(table, DemoAsk.RELEASE), b"{}", timeout=5)).data
        )
        assert released.status == "released"
        assert (await ask(nc, demo(table, DemoAsk.CONTROL))).status == "demo"
        # the person's round is voided by "no result" (000 §7.3; no rule but 004's after a
        # fault cancels a round into refunds), then the demo plays on
        rounds = await rounds_until(
            store,
            table,
            lambda rounds: any(n > last + 1 for n, _ in rounds),
            "the demo dealer did not play on",
        )
        assert any(n > last + 1 and who == SIMULATED_DEALER.id for n, who in rounds), rounds
        voided = [
            _no_result.decode(e.data)
            for e in await store.read(round_filter(table, Aggregate.LIFECYCLE, last + 1))
            if e.subject.endswith("no-result-declared-v1")
        ]
        assert [(v.actor.role, v.detail, v.consequence) for v in voided] == [
            (Role.SUPERVISOR, LEFT_OVER, "refund")  # 000 §7.5
        ]
    finally:
        await stopped(sim, playing)


async def test_a_press_in_the_middle_of_a_demo_round_does_not_stop_the_demo(
    nc: NATS, store: EventStore, floor: Floor
) -> None:
    table = new_id("demo")[:32]
    lamps = await floor.lamps_for(table, "cca-1992")  # 000 §2.3
    config = TableConfig(profile="cca-1992", limits=LIMITS, layout_controller=lamps)
    demo_table = DemoTable(table, config)
    notices: list[str] = []
    sim = simulated_table(
        FloorClient(nc),
        demo_table,
        lambda line: None,
        seed=3,
        betting_seconds=0.5,
        no_result_every=1000,
        notice=notices.append,
    )
    playing = asyncio.create_task(sim.run())
    try:
        voided = None
        deadline = time.monotonic() + 30
        # The game supervisor announces "no result" in the round the demo dealer is playing
        # (000 §7.2): the dealer's next command is refused.
        while voided is None:
            assert time.monotonic() < deadline, "no demo round could be voided in 30 s"
            rounds = await started_rounds(store, table)
            if rounds:
                n = max(r for r, _ in rounds)
                no_result = DeclareNoResult(
                    command_id=new_id(),
                    table=table,
                    actor=SUPERVISOR,
                    round=n,
                    reason=NoResultReason.TUMBLER_FAULT,
                )
                if isinstance(await floor.send(nc, no_result), Accepted):
                    voided = n
            await asyncio.sleep(0.02)
        await rounds_until(
            store,
            table,
            lambda rounds: any(r > voided for r, _ in rounds),
            "the demo dealer did not play on after the no result",
        )
        assert not playing.done()
        assert any("starts over" in text for text in notices), notices
    finally:
        await stopped(sim, playing)
