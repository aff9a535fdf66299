"""A round driven through the lifecycle and dice capture services, as separate processes,
against a real nats-server (issue: event-sourced backbone)."""

from __future__ import annotations

import asyncio
import json

import msgspec
import pytest
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo_contracts.base import Role
from sicbo_contracts.dice import ConfirmResult, EnterDice
from sicbo_contracts.lifecycle import (
    ClearFault,
    CloseBetting,
    InvalidateRound,
    InvalidationReason,
    OpenBetting,
    OpenTable,
    ReportMalfunction,
    StartRound,
    TableConfig,
    Uncover,
)
from sicbo_contracts.replies import Accepted, Rejected
from sicbo_contracts.subjects import Aggregate, aggregate_filter
from tests.integration.conftest import (
    DEALER,
    INSPECTOR,
    LIMITS,
    OPERATOR,
    SUPERVISOR,
    Floor,
    actor,
    new_id,
)


async def lc_events(store: EventStore, table: str) -> list[dict[str, object]]:
    return [
        msgspec.json.decode(e.data)
        for e in await store.read(aggregate_filter(table, Aggregate.LIFECYCLE))
    ]


async def open_table(floor: Floor, nc: NATS, table: str, profile: str = "cca-1992", **cfg) -> None:
    cfg.setdefault("layout_controller", await floor.lamps_for(table, profile))  # 000 §2.3
    config = TableConfig(profile=profile, limits=LIMITS, **cfg)
    reply = await floor.send(
        nc, OpenTable(command_id=new_id(), table=table, actor=OPERATOR, config=config)
    )
    assert isinstance(reply, Accepted), reply


async def play_to_result(floor: Floor, nc: NATS, table: str, round_no: int) -> None:
    steps = [
        StartRound(command_id=new_id(), table=table, actor=DEALER, round=round_no, tumbles=3),
        OpenBetting(command_id=new_id(), table=table, actor=DEALER, round=round_no),
        CloseBetting(command_id=new_id(), table=table, actor=DEALER, round=round_no),
        Uncover(command_id=new_id(), table=table, actor=DEALER, round=round_no),
        EnterDice(command_id=new_id(), table=table, actor=DEALER, round=round_no, dice=(5, 2, 4)),
        ConfirmResult(command_id=new_id(), table=table, actor=DEALER, round=round_no),
    ]
    for step in steps:
        reply = await floor.send(nc, step)
        assert isinstance(reply, Accepted), (step, reply)


async def test_a_full_round_is_logged_with_actors_and_times(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    await play_to_result(floor, nc, table_id, 1)
    events = await lc_events(store, table_id)
    assert [e["type"] for e in events] == [
        "table.opened.v1",
        "round.started.v1",
        "round.betting-opened.v1",
        "round.betting-closed.v1",
        "round.uncovered.v1",
        "dice.entered.v1",
        "dice.result-confirmed.v1",
    ]
    for e in events:
        assert e["actor"]["id"] and e["actor"]["role"]
        assert e["at"].endswith("Z") or "+" in e["at"]
    entered = events[5]
    assert entered["dice"] == [5, 2, 4] and entered["announced"] == [2, 4, 5]  # 000 §5.3
    assert entered["total"] == 11
    assert events[1]["paytable"] == "cca-1992@v1"


async def test_the_settlement_service_completes_the_round_before_the_next_starts_002_art_4(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """002 art. 4: the cover goes back on only once every winner is paid. The refusal itself
    is unit-tested (the settlement service completes a round within milliseconds)."""
    await open_table(floor, nc, table_id)
    await play_to_result(floor, nc, table_id, 1)
    await wait_for(store, table_id, "round.completed.v1", seconds=20)
    await play_to_result(floor, nc, table_id, 2)
    log = await store.read(f"sicbo.evt.{table_id}.>")
    seq_of = {e.subject.split(".", 3)[3]: e.seq for e in log}
    assert seq_of["settle.1.settle-round-settled-v1"] < seq_of["lc.1.round-completed-v1"]
    assert seq_of["lc.1.round-completed-v1"] < seq_of["lc.2.round-started-v1"]


async def test_fewer_than_three_tumbles_refused_000_5_1(
    floor: Floor, nc: NATS, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    reply = await floor.send(
        nc, StartRound(command_id=new_id(), table=table_id, actor=DEALER, round=1, tumbles=2)
    )
    assert isinstance(reply, Rejected) and reply.code == "refused"
    assert "three" in reply.reason or "3" in reply.reason


async def test_the_same_command_id_takes_effect_once(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    start = StartRound(command_id=new_id(), table=table_id, actor=DEALER, round=1, tumbles=4)
    first = await floor.send(nc, start)
    second = await floor.send(nc, start)
    assert isinstance(first, Accepted) and not first.duplicate
    assert isinstance(second, Accepted) and second.duplicate
    assert second.seq == first.seq and second.events == []
    types = [e["type"] for e in await lc_events(store, table_id)]
    assert types.count("round.started.v1") == 1


async def test_concurrent_conflicting_commands_exactly_one_wins(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """Two lifecycle replicas, 20 terminals each starting the same round: one wins each time."""
    await open_table(floor, nc, table_id)
    for round_no in (1, 2, 3):
        starts = [
            StartRound(
                command_id=new_id(),
                table=table_id,
                actor=actor(Role.DEALER, f"d{i}"),
                round=round_no,
                tumbles=3,
            )
            for i in range(20)
        ]
        replies = await asyncio.gather(*(floor.send(nc, s) for s in starts))
        accepted = [r for r in replies if isinstance(r, Accepted)]
        assert len(accepted) == 1, replies
        assert all(r.code == "refused" for r in replies if isinstance(r, Rejected))
        await floor.send(
            nc,
            InvalidateRound(
                command_id=new_id(),
                table=table_id,
                actor=SUPERVISOR,
                round=round_no,
                reason=InvalidationReason.FIRE,
                detail="drill",
            ),
        )
        await wait_for_round(store, table_id, "round.completed.v1", round_no, seconds=20)
    stored = await store.read(aggregate_filter(table_id, Aggregate.LIFECYCLE))
    started = [
        json.loads(e.data)["round"] for e in stored if e.subject.endswith("round-started-v1")
    ]
    assert started == [1, 2, 3]
    assert [e.seq for e in stored] == sorted(e.seq for e in stored)


async def test_roles_are_enforced_by_the_services(floor: Floor, nc: NATS, table_id: str) -> None:
    await open_table(floor, nc, table_id)
    await floor.send(
        nc, StartRound(command_id=new_id(), table=table_id, actor=DEALER, round=1, tumbles=3)
    )
    by_dealer = await floor.send(
        nc,
        InvalidateRound(
            command_id=new_id(),
            table=table_id,
            actor=DEALER,
            round=1,
            reason=InvalidationReason.BRAWL,
            detail="fight at seat 3",
        ),
    )
    assert isinstance(by_dealer, Rejected) and by_dealer.code == "forbidden"
    fault = await floor.send(
        nc,
        ReportMalfunction(
            command_id=new_id(),
            table=table_id,
            actor=DEALER,
            equipment="layout-lamps",
            detail="spot total:9 dark",
        ),
    )
    assert isinstance(fault, Accepted)
    for who in (DEALER, SUPERVISOR):
        refused = await floor.send(
            nc, ClearFault(command_id=new_id(), table=table_id, actor=who, detail="fixed")
        )
        assert isinstance(refused, Rejected) and refused.code == "forbidden"
    cleared = await floor.send(
        nc, ClearFault(command_id=new_id(), table=table_id, actor=INSPECTOR, detail="lamp replaced")
    )
    assert isinstance(cleared, Accepted)


async def test_online_countdown_closes_betting_by_itself(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "online-live", betting_seconds=1)
    for step in (
        StartRound(command_id=new_id(), table=table_id, actor=DEALER, round=1, tumbles=3),
        OpenBetting(command_id=new_id(), table=table_id, actor=DEALER, round=1),
    ):
        assert isinstance(await floor.send(nc, step), Accepted)
    closed = await wait_for(store, table_id, "round.betting-closed.v1", seconds=15)
    assert closed["by_countdown"] is True
    assert closed["actor"] == {"id": "countdown", "role": "service"}


async def wait_for_round(
    store: EventStore, table: str, event_type: str, round_no: int | None, seconds: float
) -> dict:
    for _ in range(int(seconds * 10)):
        for e in await lc_events(store, table):
            if e["type"] == event_type and round_no in (None, e.get("round")):
                return e
        await asyncio.sleep(0.1)
    pytest.fail(f"no {event_type} on {table} within {seconds} s")


async def wait_for(store: EventStore, table: str, event_type: str, seconds: float) -> dict:
    return await wait_for_round(store, table, event_type, None, seconds)
