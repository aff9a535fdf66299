"""Wager intake against a real nats-server, the services running as separate processes.

The invariant "no wager after no more bets" (DESIGN.md, 000 §3.9) is proven three ways:
- under a flood of concurrent clients while the dealer calls "no more bets", by the log's
  stream sequences (``test_no_slip_is_stored_after_no_more_bets_under_a_flood``);
- deterministically, by a slip decided while betting was open and appended only after
  ``BettingClosed`` was stored
  (``test_a_slip_decided_before_no_more_bets_is_refused_by_the_server``);
- at the store, by the exact expectation the service states
  (``test_the_server_refuses_a_slip_expecting_the_lifecycle_before_no_more_bets``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec
import nats
import pytest
from nats.aio.client import Client as NATS

from sicbo.eventstore.errors import AppendConflict
from sicbo.eventstore.records import Appended, Expect, StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.shell.codec import encode
from sicbo.shell.commands import CommandHandler
from sicbo.wagers.service import SPEC
from sicbo_contracts.base import Actor, Event, Role
from sicbo_contracts.dice import ConfirmResult, EnterDice
from sicbo_contracts.lifecycle import (
    CloseBetting,
    DeclareNoResult,
    NoResultReason,
    OpenBetting,
    OpenTable,
    StartRound,
    TableConfig,
    Uncover,
)
from sicbo_contracts.replies import Accepted, Rejected, Reply
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementBasis,
    WagerOutcome,
    WagerResult,
    WagersSettled,
)
from sicbo_contracts.subjects import EVENT_STREAM, Aggregate, history_query, subject_of
from sicbo_contracts.wagers import (
    BetHistory,
    ChangeSlip,
    IssueColorChecks,
    Medium,
    PlaceSlip,
    SlipPlaced,
    Wager,
    WithdrawSlip,
)
from tests.integration.conftest import DEALER, LIMITS, OPERATOR, SERVICE, Floor, new_id

ALICE = Actor(id="alice", role=Role.PLAYER)
BIG = [Wager(bet="big", stake=100)]


# ---- driving the table ---------------------------------------------------------------------------


async def ok(floor: Floor, nc: NATS, command: object) -> Accepted:
    reply = await floor.send(nc, command)
    assert isinstance(reply, Accepted), (command, reply)
    return reply


async def open_table(floor: Floor, nc: NATS, table: str, profile: str = "cca-1992") -> None:
    lamps = await floor.lamps_for(table, profile)  # 000 §2.3
    config = TableConfig(profile=profile, limits=LIMITS, layout_controller=lamps)
    await ok(floor, nc, OpenTable(command_id=new_id(), table=table, actor=OPERATOR, config=config))


async def open_betting(floor: Floor, nc: NATS, table: str, n: int) -> None:
    await ok(
        floor, nc, StartRound(command_id=new_id(), table=table, actor=DEALER, round=n, tumbles=3)
    )
    await ok(floor, nc, OpenBetting(command_id=new_id(), table=table, actor=DEALER, round=n))


async def close_betting(floor: Floor, nc: NATS, table: str, n: int) -> Accepted:
    return await ok(
        floor, nc, CloseBetting(command_id=new_id(), table=table, actor=DEALER, round=n)
    )


async def finish_round(floor: Floor, nc: NATS, table: str, n: int) -> None:
    """Uncover, enter and confirm the dice; the settlement service settles and completes."""
    for step in (
        Uncover(command_id=new_id(), table=table, actor=DEALER, round=n),
        EnterDice(command_id=new_id(), table=table, actor=DEALER, round=n, dice=(2, 3, 6)),
        ConfirmResult(command_id=new_id(), table=table, actor=DEALER, round=n),
    ):
        await ok(floor, nc, step)
    await settled_and_completed(nc, table, n)


async def settled_and_completed(nc: NATS, table: str, n: int) -> None:
    """Wait for the settlement service to complete round ``n`` (bounded)."""
    store = EventStore(nc, EVENT_STREAM)
    for _ in range(200):
        if await store.read(f"sicbo.evt.{table}.lc.{n}.round-completed-v1"):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"round {n} of {table} was never completed by settlement")


def slip(
    table: str,
    n: int,
    player: str = "alice",
    wagers: Sequence[Wager] = BIG,
    slip_id: str | None = None,
) -> PlaceSlip:
    return PlaceSlip(
        command_id=slip_id or new_id("slip"),
        table=table,
        actor=Actor(id=player, role=Role.PLAYER),
        round=n,
        player=player,
        wagers=list(wagers),
    )


async def table_log(store: EventStore, table: str) -> list[tuple[StoredEvent, dict[str, Any]]]:
    return [(e, json.loads(e.data)) for e in await store.read(f"sicbo.evt.{table}.>")]


async def last_seq(store: EventStore, table: str) -> int:
    return await store.last_sequence(f"sicbo.evt.{table}.>")


# ---- (a) the late-bet race -----------------------------------------------------------------------


Send = Callable[[PlaceSlip], Awaitable[Reply]]


class Flood:
    """Clients sending slips for one round as fast as their replies come back."""

    def __init__(self, table: str, round_no: int, midway: int) -> None:
        self.table, self.round_no = table, round_no
        self.accepted = 0
        self.midway = asyncio.Event()  # set once ``midway`` slips were accepted
        self.closed = asyncio.Event()  # set once the dealer's "no more bets" is accepted
        self._midway_at = midway

    async def client(self, send: Send, player: str) -> list[tuple[PlaceSlip, Reply]]:
        """Send slips until three were refused after "no more bets" (or 3000 were sent)."""
        sent: list[tuple[PlaceSlip, Reply]] = []
        refusals = 0
        while refusals < 3 and len(sent) < 3000:
            command = slip(self.table, self.round_no, player)
            reply = await send(command)
            sent.append((command, reply))
            if isinstance(reply, Accepted):
                self.accepted += 1
                if self.accepted >= self._midway_at:
                    self.midway.set()
            elif self.closed.is_set():
                refusals += 1
        self.midway.set()  # never wait forever, even if the flood went wrong
        return sent


class CountingStore(EventStore):
    """An event store that counts the appends the server refused (expectation failed)."""

    refused = 0

    async def append(self, *args: Any, **kwargs: Any) -> Appended:
        try:
            return await super().append(*args, **kwargs)
        except AppendConflict:
            CountingStore.refused += 1
            raise


async def test_no_slip_is_stored_after_no_more_bets_under_a_flood(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """12 clients flood slips: 8 through the wager intake service process, 4 through two more
    replicas of its shell in this process (so decisions race each other and the dealer). The
    dealer calls "no more bets" mid-flood; 3 rounds. Every slip is accepted or refused as
    "betting is closed", and no SlipPlaced has a stream sequence above BettingClosed's."""
    await open_table(floor, nc, table_id)
    clients = [await nats.connect(floor.nats_url) for _ in range(10)]
    replicas = [
        CommandHandler(SPEC, CountingStore(c, EVENT_STREAM), lambda: datetime.now(UTC))
        for c in clients[8:]
    ]

    def through_service(client: NATS) -> Send:
        return lambda command: floor.send(client, command)

    def through_replica(replica: CommandHandler[Any]) -> Send:
        return lambda command: replica.handle(msgspec.json.encode(command), table_id, "player")

    senders = [through_service(c) for c in clients[:8]]
    senders += [through_replica(r) for r in replicas for _ in range(2)]
    try:
        for n in (1, 2, 3):
            await open_betting(floor, nc, table_id, n)
            flood = Flood(table_id, n, midway=150)
            tasks = [
                asyncio.create_task(flood.client(send, f"p{i}")) for i, send in enumerate(senders)
            ]
            await flood.midway.wait()
            closing = await close_betting(floor, nc, table_id, n)
            flood.closed.set()
            replies = [r for sent in await asyncio.gather(*tasks) for r in sent]

            took = {c.command_id: r for c, r in replies if isinstance(r, Accepted)}
            refused = [r for _, r in replies if isinstance(r, Rejected)]
            assert len(took) >= 150 and refused, "the race was not exercised"
            for reply in refused:
                assert reply.code == "refused" and "betting is closed" in reply.reason, reply
            assert all(not r.duplicate and r.seq < closing.seq for r in took.values())

            log = await table_log(store, table_id)
            closed_at = [
                e.seq for e, d in log if d["type"] == "round.betting-closed.v1" and d["round"] == n
            ]
            assert closed_at == [closing.seq]
            stored = {
                d["slip_id"]: e.seq
                for e, d in log
                if d["type"] == "bets.slip-placed.v1" and d["round"] == n
            }
            assert max(stored.values()) < closing.seq  # THE invariant, by stream sequence
            assert set(stored) == set(took)  # every accepted slip stored, no refused one
            await finish_round(floor, nc, table_id, n)
    finally:
        for client in clients:
            await client.close()


async def test_a_slip_decided_before_no_more_bets_is_refused_by_the_server(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """A wager intake replica decides a slip while betting is open; before its append the
    dealer's "no more bets" is stored. The server refuses the append (the lifecycle filter
    moved), the shell re-reads, and the slip is refused: nothing is stored."""
    await open_table(floor, nc, table_id)
    await open_betting(floor, nc, table_id, 1)
    calls: list[int] = []

    async def dealer_calls_no_more_bets(events: Sequence[Event]) -> None:
        calls.append(len(events))
        if len(calls) == 1:
            await close_betting(floor, nc, table_id, 1)

    handler = CommandHandler(
        SPEC, store, lambda: datetime.now(UTC), before_append=dealer_calls_no_more_bets
    )
    reply = await handler.handle(msgspec.json.encode(slip(table_id, 1)), table_id, "player")
    assert calls == [1]  # decided once to accept, on the open round
    assert isinstance(reply, Rejected) and "betting is closed" in reply.reason, reply
    types = [d["type"] for _, d in await table_log(store, table_id)]
    assert "bets.slip-placed.v1" not in types


async def test_a_slip_decided_on_a_reused_state_after_no_more_bets_is_refused_and_not_stored(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """000 §3.9 with wager intake's state reuse (``reuse_state_for``, here an hour so that it
    certainly applies): the replica's state still shows betting open after "no more bets" is
    stored; its first try is refused by the server (the lifecycle filter moved), the next try
    reads, and the slip is refused "betting is closed". Nothing is stored after the call."""
    await open_table(floor, nc, table_id)
    await open_betting(floor, nc, table_id, 1)
    reused = dataclasses.replace(SPEC, reuse_state_for=3600.0)
    replica = CommandHandler(reused, CountingStore(nc, EVENT_STREAM), lambda: datetime.now(UTC))
    first = await replica.handle(msgspec.json.encode(slip(table_id, 1)), table_id, "player")
    assert isinstance(first, Accepted)
    closing = await close_betting(floor, nc, table_id, 1)
    refused_before = CountingStore.refused
    late = await replica.handle(msgspec.json.encode(slip(table_id, 1)), table_id, "player")
    assert isinstance(late, Rejected) and "betting is closed" in late.reason, late
    assert CountingStore.refused == refused_before + 1  # decided on the reused state first
    placed = [
        e.seq for e, d in await table_log(store, table_id) if d["type"] == "bets.slip-placed.v1"
    ]
    assert placed == [first.seq] and first.seq < closing.seq


async def test_the_server_refuses_a_slip_expecting_the_lifecycle_before_no_more_bets(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    await open_betting(floor, nc, table_id, 1)
    lc_filter = SPEC.expect_filter(table_id)
    assert lc_filter == f"sicbo.evt.{table_id}.lc.>"
    seen = await store.last_sequence(lc_filter)  # BettingOpened: what a decision saw
    await close_betting(floor, nc, table_id, 1)
    late = SlipPlaced(
        table=table_id,
        actor=ALICE,
        at=datetime.now(UTC),
        round=1,
        slip_id="late-1",
        player="alice",
        wagers=BIG,
    )
    with pytest.raises(AppendConflict):
        await store.append(
            subject_of(late, Aggregate.BETS),
            encode(late),
            expect=Expect(lc_filter, seen),
            msg_id="late-1",
        )


# ---- (b) each command takes effect once ----------------------------------------------------------


async def test_a_retried_slip_is_a_duplicate_and_stored_once(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    await open_betting(floor, nc, table_id, 1)
    command = slip(table_id, 1)
    first = await floor.send(nc, command)
    again = await asyncio.gather(*(floor.send(nc, command) for _ in range(5)))
    assert isinstance(first, Accepted) and not first.duplicate
    for reply in again:
        assert isinstance(reply, Accepted) and reply.duplicate and reply.seq == first.seq
    placed = [d for _, d in await table_log(store, table_id) if d["type"] == "bets.slip-placed.v1"]
    assert [d["slip_id"] for d in placed] == [command.command_id]


async def test_changes_to_one_slip_version_from_two_replicas_store_one_then_redecide(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """Two replicas (two shells with their own state) move the same slip at once: a change
    and a withdrawal both decided on version 1. The server stores one msg id per version, so
    the withdrawal is re-decided on the changed slip and records the changed wagers."""
    await open_table(floor, nc, table_id)
    await open_betting(floor, nc, table_id, 1)
    placed = slip(table_id, 1, slip_id=new_id("slip"))
    await ok(floor, nc, placed)
    changed = [Wager(bet="small", stake=300)]
    change = ChangeSlip(
        command_id=new_id(),
        table=table_id,
        actor=ALICE,
        round=1,
        player="alice",
        slip_id=placed.command_id,
        wagers=changed,
    )
    other = CommandHandler(SPEC, store, lambda: datetime.now(UTC))
    raced: list[Reply] = []

    async def other_replica_first(events: Sequence[Event]) -> None:
        if not raced:
            raced.append(await other.handle(msgspec.json.encode(change), table_id, "player"))

    replica = CommandHandler(
        SPEC, store, lambda: datetime.now(UTC), before_append=other_replica_first
    )
    withdraw = WithdrawSlip(
        command_id=new_id(),
        table=table_id,
        actor=ALICE,
        round=1,
        player="alice",
        slip_id=placed.command_id,
    )
    reply = await replica.handle(msgspec.json.encode(withdraw), table_id, "player")
    assert isinstance(raced[0], Accepted) and isinstance(reply, Accepted), (raced, reply)
    log = await table_log(store, table_id)
    moved = [
        (e.headers.get("Nats-Msg-Id"), d)
        for e, d in log
        if d["type"] in ("bets.slip-changed.v1", "bets.slip-withdrawn.v1")
    ]
    assert [m for m, _ in moved] == [
        f"{table_id}/{placed.command_id}#v2",
        f"{table_id}/{placed.command_id}#v3",
    ]
    assert moved[1][1]["before"] == [
        {"bet": "small", "stake": 300, "medium": "chips", "color": None, "token": None}
    ]


# ---- (c) bad commands append nothing -------------------------------------------------------------


async def test_bad_slips_are_refused_and_append_nothing(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    await open_betting(floor, nc, table_id, 1)
    elsewhere = f"{table_id}x"
    await open_table(floor, nc, elsewhere)
    await ok(
        floor,
        nc,
        IssueColorChecks(
            command_id=new_id(),
            table=elsewhere,
            actor=DEALER,
            player="alice",
            color="red",
            marker_value=100,
            count=10,
        ),
    )
    before = await last_seq(store, table_id)
    good = slip(table_id, 1)
    body = json.loads(msgspec.json.encode(good))

    def with_wager(**wager: object) -> bytes:
        return json.dumps({**body, "command_id": new_id(), "wagers": [wager]}).encode()

    cases: list[tuple[bytes, str, str]] = [
        (b'{"type": "bets.place-slip.v1", "command_id": ', "invalid", "malformed JSON"),
        (with_wager(bet="lucky-seven", stake=100), "refused", "wagers[0].bet:"),
        (with_wager(bet="odd", stake=100), "refused", "not offered under 'cca-1992'"),
        (with_wager(bet="big", stake=0), "invalid", "$.wagers[0].stake"),
        (with_wager(bet="big", stake=-5), "invalid", "$.wagers[0].stake"),
        (with_wager(bet="big", stake=100, medium="color", color="red"), "refused", "000 §3.4"),
        (
            with_wager(bet="big", stake=100, medium="promo", color="red"),
            "refused",
            "wagers[0].color:",
        ),
        (with_wager(bet="big", stake=100, medium="promo"), "refused", "wagers[0].token:"),
        (
            with_wager(bet="big", stake=100, medium="promo", token="tk-none"),
            "refused",
            "no promotional token 'tk-none'",
        ),
        (with_wager(bet="big", stake=105), "refused", "units of 10"),
        (with_wager(bet="big", stake=100_010), "refused", "maximum"),
    ]
    for raw, code, words in cases:
        reply = await floor.send(nc, good, raw=raw)
        assert isinstance(reply, Rejected) and reply.code == code, (raw, reply)
        assert words in reply.reason or words == reply.field, (raw, reply)
        assert await last_seq(store, table_id) == before, raw
    inspector = PlaceSlip(
        command_id=new_id(),
        table=table_id,
        actor=Actor(id="i-1", role=Role.INSPECTOR),
        round=1,
        player="alice",
        wagers=BIG,
    )
    reply = await floor.send(nc, inspector)
    assert isinstance(reply, Rejected) and reply.code == "forbidden"
    assert await last_seq(store, table_id) == before


async def test_a_carried_slip_is_locked_through_the_services_macau_2003(
    floor: Floor, nc: NATS, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "macau-2003")
    await open_betting(floor, nc, table_id, 1)
    placed = slip(table_id, 1)
    await ok(floor, nc, placed)
    await close_betting(floor, nc, table_id, 1)
    await ok(floor, nc, Uncover(command_id=new_id(), table=table_id, actor=DEALER, round=1))
    await ok(
        floor,
        nc,
        DeclareNoResult(
            command_id=new_id(),
            table=table_id,
            actor=DEALER,
            round=1,
            reason=NoResultReason.DICE_NOT_FLAT,
        ),
    )
    await settled_and_completed(nc, table_id, 1)
    await open_betting(floor, nc, table_id, 2)
    withdraw = WithdrawSlip(
        command_id=new_id(),
        table=table_id,
        actor=ALICE,
        round=2,
        player="alice",
        slip_id=placed.command_id,
    )
    reply = await floor.send(nc, withdraw)
    assert isinstance(reply, Rejected) and "002/2003 art. 3(3)" in reply.reason, reply


# ---- (d) the bet history (004 "Rekod Pertaruhan") ------------------------------------------------


async def test_the_bet_history_lists_a_players_slips_newest_first_with_settlements(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    await open_betting(floor, nc, table_id, 1)
    mine = [slip(table_id, 1, slip_id=new_id(f"a{n}")) for n in range(3)]
    for command in [mine[0], slip(table_id, 1, "bob"), mine[1], mine[2]]:
        await ok(floor, nc, command)
    await ok(
        floor,
        nc,
        WithdrawSlip(
            command_id=new_id(),
            table=table_id,
            actor=ALICE,
            round=1,
            player="alice",
            slip_id=mine[1].command_id,
        ),
    )
    await close_betting(floor, nc, table_id, 1)
    # Settlement is another service: its events are appended here as it would append them.
    results = [
        WagerResult(
            slip_id=c.command_id,
            index=0,
            player="alice",
            bet="big",
            stake=100,
            medium=Medium.CHIPS.value,
            outcome=WagerOutcome.WIN,
            winnings=100,
            returned=200,
        )
        for c in (mine[0], mine[2])
    ]
    settlement: list[Event] = [
        WagersSettled(
            table=table_id, actor=SERVICE, at=datetime.now(UTC), round=1, part=1, wagers=results
        ),
        RoundSettled(
            table=table_id,
            actor=SERVICE,
            at=datetime.now(UTC),
            round=1,
            basis=SettlementBasis.RESULT,
            paytable="cca-1992@v1",
            dice=(2, 4, 6),
            wagers=2,
            parts=1,
            staked=200,
            returned=400,
            house_result=-200,
        ),
    ]
    for evt in settlement:
        await store.append(subject_of(evt, Aggregate.SETTLE), encode(evt))

    async def ask(query: bytes) -> BetHistory | Rejected:
        msg = await nc.request(history_query(table_id), query, timeout=10)
        return msgspec.json.decode(msg.data, type=BetHistory | Rejected)

    answer = await ask(b'{"player": "alice", "limit": 10}')
    assert isinstance(answer, BetHistory), answer
    assert [s.slip_id for s in answer.slips] == [c.command_id for c in reversed(mine)]
    newest, withdrawn, oldest = answer.slips
    assert withdrawn.status == "withdrawn" and withdrawn.settlements == []
    for record in (newest, oldest):
        (settled,) = record.settlements
        assert settled.basis == "result" and settled.dice == (2, 4, 6)
        assert [r.returned for r in settled.results] == [200]
    limited = await ask(b'{"player": "alice", "limit": 1}')
    assert isinstance(limited, BetHistory) and [s.slip_id for s in limited.slips] == [
        mine[2].command_id
    ]
    bad = await ask(b'{"player": "alice", "limit": 0}')
    assert isinstance(bad, Rejected) and bad.code == "invalid" and bad.field == "$.limit"
