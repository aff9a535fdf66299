"""The settlement service against a real nats-server, its replicas as separate processes.

(invariant) A round is settled once (DESIGN.md): the settlement is one atomic batch expecting
last sequence 0 on the round's settlement filter. Two service replicas, extra settlers racing
in this process, and a settler SIGKILLed in the middle of a big round never pay a wager twice.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec
import nats
import pytest
from nats.aio.client import Client as NATS

from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.game.profiles import parse_paytable_ref
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo.provisioning import provision
from sicbo.settlement.engine import wager_results
from sicbo.settlement.facts import TableLog
from sicbo.settlement.settler import Settler
from sicbo_contracts.base import Actor, Dice, Role
from sicbo_contracts.dice import (
    ConfirmResult,
    CorrectResult,
    EnterDice,
    EnterManualMode,
    LeaveManualMode,
)
from sicbo_contracts.lifecycle import (
    CloseBetting,
    DeclareNoResult,
    InvalidateRound,
    InvalidationReason,
    NoResultReason,
    OpenBetting,
    OpenTable,
    ReportMalfunction,
    StartRound,
    TableConfig,
    Uncover,
)
from sicbo_contracts.replies import Accepted
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementAdjusted,
    WagerOutcome,
    WagerResult,
    WagersSettled,
)
from sicbo_contracts.subjects import EVENT_STREAM, Aggregate, round_filter
from sicbo_contracts.wagers import PlaceSlip, Wager
from tests.integration.conftest import DEALER, LIMITS, OPERATOR, SUPERVISOR, Floor, new_id

# ---- driving a table ------------------------------------------------------------------------


async def ok(floor: Floor, nc: NATS, command: object) -> Accepted:
    reply = await floor.send(nc, command)
    assert isinstance(reply, Accepted), (command, reply)
    return reply


async def open_table(
    floor: Floor, nc: NATS, table: str, profile: str = "cca-1992", **cfg: Any
) -> None:
    """``cfg``: more of the TableConfig (``dual_control=True``, say)."""
    # 004 closes betting by a countdown; a long one here, the dealer closes it first.
    countdown = 600 if profile == "online-live" else None
    config = TableConfig(
        profile=profile,
        limits=LIMITS,
        betting_seconds=countdown,
        layout_controller=await floor.lamps_for(table, profile),  # 000 §2.3
        **cfg,
    )
    await ok(floor, nc, OpenTable(command_id=new_id(), table=table, actor=OPERATOR, config=config))


def random_wagers(profile: str, n: int, rng: random.Random) -> list[Wager]:
    """``n`` wagers on bets the profile offers, within the sign (LIMITS: 100 + units of 10)."""
    bets = [b.id for b in parse_paytable_ref(f"{profile}@v1").offered_bets()]
    return [Wager(bet=rng.choice(bets), stake=100 + 10 * rng.randrange(0, 40)) for _ in range(n)]


async def open_round(floor: Floor, nc: NATS, table: str, n: int) -> None:
    await ok(
        floor, nc, StartRound(command_id=new_id(), table=table, actor=DEALER, round=n, tumbles=3)
    )
    await ok(floor, nc, OpenBetting(command_id=new_id(), table=table, actor=DEALER, round=n))


async def place(
    floor: Floor, nc: NATS, table: str, n: int, player: str, wagers: Sequence[Wager]
) -> str:
    slip_id = new_id("slip")
    command = PlaceSlip(
        command_id=slip_id,
        table=table,
        actor=Actor(id=player, role=Role.PLAYER),
        round=n,
        player=player,
        wagers=list(wagers),
    )
    await ok(floor, nc, command)
    return slip_id


async def place_many(
    floor: Floor, nc: NATS, table: str, n: int, slips: Sequence[tuple[str, Sequence[Wager]]]
) -> None:
    """Slips sent 20 at a time (the wager intake service serialises a table anyway)."""
    for start in range(0, len(slips), 20):
        batch = slips[start : start + 20]
        await asyncio.gather(*(place(floor, nc, table, n, p, w) for p, w in batch))


async def close_and_uncover(floor: Floor, nc: NATS, table: str, n: int) -> None:
    await ok(floor, nc, CloseBetting(command_id=new_id(), table=table, actor=DEALER, round=n))
    await ok(floor, nc, Uncover(command_id=new_id(), table=table, actor=DEALER, round=n))


async def confirm(floor: Floor, nc: NATS, table: str, n: int, dice: Dice) -> None:
    await ok(
        floor, nc, EnterDice(command_id=new_id(), table=table, actor=DEALER, round=n, dice=dice)
    )
    await ok(floor, nc, ConfirmResult(command_id=new_id(), table=table, actor=DEALER, round=n))


async def play(
    floor: Floor,
    nc: NATS,
    table: str,
    n: int,
    slips: Sequence[tuple[str, Sequence[Wager]]],
    dice: Dice,
) -> None:
    await open_round(floor, nc, table, n)
    await place_many(floor, nc, table, n, slips)
    await close_and_uncover(floor, nc, table, n)
    await confirm(floor, nc, table, n, dice)


async def no_result(floor: Floor, nc: NATS, table: str, n: int) -> None:
    await ok(
        floor,
        nc,
        DeclareNoResult(
            command_id=new_id(),
            table=table,
            actor=DEALER,
            round=n,
            reason=NoResultReason.DICE_NOT_FLAT,
        ),
    )


async def invalidate(floor: Floor, nc: NATS, table: str, n: int, *forfeits: str) -> None:
    await ok(
        floor,
        nc,
        InvalidateRound(
            command_id=new_id(),
            table=table,
            actor=SUPERVISOR,
            round=n,
            reason=InvalidationReason.FRAUD,
            detail="marked dice found at seat 2",
            forfeits=list(forfeits),
        ),
    )


async def correct(floor: Floor, nc: NATS, table: str, n: int, dice: Dice) -> None:
    """A supervisor corrects round ``n``'s result in manual mode (GLI-19 §4.18.4, §C.6.8(o))."""
    reason = "entered 5, the die shows 6"
    await ok(
        floor,
        nc,
        EnterManualMode(command_id=new_id(), table=table, actor=SUPERVISOR, reason=reason),
    )
    await ok(
        floor,
        nc,
        CorrectResult(
            command_id=new_id(), table=table, actor=SUPERVISOR, round=n, dice=dice, reason=reason
        ),
    )
    await ok(floor, nc, LeaveManualMode(command_id=new_id(), table=table, actor=SUPERVISOR))


# ---- reading the log ------------------------------------------------------------------------


async def wait_completed(store: EventStore, table: str, n: int, seconds: float = 30) -> None:
    """Until the round's RoundCompleted is stored (settlement asked the lifecycle for it)."""
    await wait_for(
        store, round_filter(table, Aggregate.LIFECYCLE, n), "round-completed-v1", seconds
    )


async def wait_for(
    store: EventStore, subject_filter: str, suffix: str, seconds: float = 30
) -> StoredEvent:
    """The first event on the filter whose subject ends with ``suffix``, within ``seconds`` of
    wall time (a loaded machine reads slower: the bound is time, not a count of reads)."""
    deadline = time.monotonic() + seconds
    while True:
        found = [e for e in await store.read(subject_filter) if e.subject.endswith(suffix)]
        if found:
            return found[0]
        if time.monotonic() > deadline:
            pytest.fail(f"no {suffix} on {subject_filter} within {seconds} s")
        await asyncio.sleep(0.05)


_parts = msgspec.json.Decoder(WagersSettled)
_summary = msgspec.json.Decoder(RoundSettled)
_adjusted = msgspec.json.Decoder(SettlementAdjusted)


class Settlement(msgspec.Struct):
    stored: list[StoredEvent]
    results: list[WagerResult]
    summaries: list[RoundSettled]
    adjustments: list[SettlementAdjusted]


async def settlement_of(store: EventStore, table: str, n: int) -> Settlement:
    stored = await store.read(round_filter(table, Aggregate.SETTLE, n))
    results = [
        w
        for e in stored
        if e.subject.endswith("wagers-settled-v1")
        for w in _parts.decode(e.data).wagers
    ]
    summaries = [_summary.decode(e.data) for e in stored if e.subject.endswith("round-settled-v1")]
    adjusted = [_adjusted.decode(e.data) for e in stored if e.subject.endswith("adjusted-v1")]
    return Settlement(stored, results, summaries, adjusted)


async def recomputed(store: EventStore, table: str, n: int, as_of: int) -> list[WagerResult]:
    """What the engine says, from the log alone (as replay does)."""
    table_log = TableLog(table)
    for e in await store.read(f"sicbo.evt.{table}.>"):
        table_log.add_stored(e.seq, e.subject, e.data)
    facts = table_log.facts(n, as_of)
    assert facts is not None
    return wager_results(facts)


def assert_settled_once(settlement: Settlement) -> None:
    """(invariant) Exactly one RoundSettled, and every wager exactly one result."""
    assert len(settlement.summaries) == 1, settlement.summaries
    counts = Counter((r.slip_id, r.index) for r in settlement.results)
    assert counts and set(counts.values()) == {1}, [k for k, c in counts.items() if c > 1]
    assert settlement.summaries[0].wagers == len(settlement.results)


# ---- the tests ------------------------------------------------------------------------------


async def test_a_confirmed_round_is_settled_once_and_completed(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "cca-1992")
    slips = [
        ("ann", [Wager(bet="big", stake=200), Wager(bet="total:15", stake=100)]),
        ("bob", [Wager(bet="small", stake=300)]),
    ]
    # One slip after the other: the settlement follows the log's order, asserted below.
    await open_round(floor, nc, table_id, 1)
    for player, wagers in slips:
        await place(floor, nc, table_id, 1, player, wagers)
    await close_and_uncover(floor, nc, table_id, 1)
    await confirm(floor, nc, table_id, 1, (6, 4, 5))
    await wait_completed(store, table_id, 1)
    got = await settlement_of(store, table_id, 1)
    assert_settled_once(got)
    summary = got.summaries[0]
    assert [(r.player, r.bet, r.outcome, r.returned) for r in got.results] == [
        ("ann", "big", WagerOutcome.WIN, 400),
        ("ann", "total:15", WagerOutcome.WIN, 100 + 18 * 100),  # 000 §6.1: 18 to 1
        ("bob", "small", WagerOutcome.LOSE, 0),
    ]
    assert (summary.staked, summary.returned, summary.house_result) == (600, 2300, -1700)
    assert summary.dice == (4, 5, 6) and summary.players == ["ann", "bob"]
    assert got.results == await recomputed(store, table_id, 1, summary.as_of)
    # The batch carries the round's msg id; the lifecycle got the players who wagered.
    assert got.stored[0].headers["Nats-Msg-Id"] == f"settle-{table_id}-1"
    completed = await wait_for(
        store, round_filter(table_id, Aggregate.LIFECYCLE, 1), "round-completed-v1"
    )
    assert completed.headers["Sicbo-Command-Id"] == f"complete-{table_id}-1"
    body = msgspec.json.decode(completed.data)
    assert body["players"] == ["ann", "bob"]
    assert body["actor"] == {"id": "settlement", "role": "service"}


async def test_racing_settlers_settle_every_wager_exactly_once(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """Two service replicas (FLOOR_SERVICES) and five more settlers in this process all react to
    the same results, on four tables at once: each round has one settlement, each wager one
    result."""
    rng = random.Random(7)
    racers = [Settler(store, nc, lambda: datetime.now(UTC)) for _ in range(5)]
    tables = [f"{table_id}-{k}" for k in range(4)]
    profiles = ["cca-1992", "macau-2003", "macau-2004", "online-live"]

    async def table_run(table: str, profile: str) -> None:
        await open_table(floor, nc, table, profile)
        for n in (1, 2, 3):
            slips = [(f"p{i}", random_wagers(profile, 10, rng)) for i in range(30)]
            await play(floor, nc, table, n, slips, (rng.randint(1, 6), 3, rng.randint(1, 6)))
            confirmed = await wait_for(
                store, round_filter(table, Aggregate.LIFECYCLE, n), "result-confirmed-v1"
            )
            await asyncio.gather(*(r.on_event(confirmed.subject) for r in racers))
            await wait_completed(store, table, n)

    await asyncio.gather(*(table_run(t, p) for t, p in zip(tables, profiles, strict=True)))
    for table in tables:
        for n in (1, 2, 3):
            got = await settlement_of(store, table, n)
            assert_settled_once(got)
            assert len(got.results) == 300
            assert got.results == await recomputed(store, table, n, got.summaries[0].as_of)


async def test_void_rounds_are_settled_and_completed(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """No result with a refund (000 §7.5) and an invalidation with a forfeit (000 §8.5)."""
    await open_table(floor, nc, table_id, "cca-1992")
    await open_round(floor, nc, table_id, 1)
    await place(floor, nc, table_id, 1, "ann", [Wager(bet="big", stake=200)])
    await close_and_uncover(floor, nc, table_id, 1)
    await no_result(floor, nc, table_id, 1)
    await wait_completed(store, table_id, 1)
    refund = await settlement_of(store, table_id, 1)
    assert [(r.outcome, r.returned) for r in refund.results] == [(WagerOutcome.VOID, 200)]
    await open_round(floor, nc, table_id, 2)
    await place(floor, nc, table_id, 2, "ann", [Wager(bet="big", stake=200)])
    await place(floor, nc, table_id, 2, "eve", [Wager(bet="triple:6", stake=500)])
    await close_and_uncover(floor, nc, table_id, 2)
    await invalidate(floor, nc, table_id, 2, "eve")
    await wait_completed(store, table_id, 2)
    forfeit = await settlement_of(store, table_id, 2)
    assert_settled_once(forfeit)
    assert [(r.player, r.outcome, r.returned) for r in forfeit.results] == [
        ("ann", WagerOutcome.VOID, 200),
        ("eve", WagerOutcome.FORFEIT, 0),
    ]
    assert forfeit.summaries[0].house_result == 500


async def test_settles_by_the_dice_while_the_lamps_are_out_000_7_6(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "cca-1992")
    await open_round(floor, nc, table_id, 1)
    await place(floor, nc, table_id, 1, "ann", [Wager(bet="big", stake=200)])
    await close_and_uncover(floor, nc, table_id, 1)
    await ok(
        floor,
        nc,
        ReportMalfunction(
            command_id=new_id(),
            table=table_id,
            actor=DEALER,
            equipment="layout-lamps",
            detail="winning areas not lit",
            round=1,
        ),
    )
    await confirm(floor, nc, table_id, 1, (6, 6, 5))
    await wait_completed(store, table_id, 1)  # not waiting for the inspector (000 §7.7)
    got = await settlement_of(store, table_id, 1)
    assert [(r.outcome, r.returned) for r in got.results] == [(WagerOutcome.WIN, 400)]


async def test_a_correction_is_adjusted_once(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "cca-1992")
    slips = [
        ("ann", [Wager(bet="single:5", stake=100), Wager(bet="total:15", stake=100)]),
        ("bob", [Wager(bet="single:6", stake=100)]),
    ]
    await play(floor, nc, table_id, 1, slips, (5, 5, 4))
    await wait_completed(store, table_id, 1)
    await correct(floor, nc, table_id, 1, (6, 5, 4))
    corrected = await wait_for(
        store, round_filter(table_id, Aggregate.LIFECYCLE, 1), "result-corrected-v1"
    )
    racers = [Settler(store, nc, lambda: datetime.now(UTC)) for _ in range(4)]
    await asyncio.gather(*(r.on_event(corrected.subject) for r in racers))
    adjusted_event = await wait_for(
        store, round_filter(table_id, Aggregate.SETTLE, 1), "settle-adjusted-v1"
    )
    assert adjusted_event.headers["Nats-Msg-Id"] == f"adjust-{table_id}-1-{corrected.seq}"
    got = await settlement_of(store, table_id, 1)
    assert_settled_once(got)
    (adjusted,) = got.adjustments
    assert (adjusted.before, adjusted.after, adjusted.correction_seq) == (
        (4, 5, 5),
        (4, 5, 6),
        corrected.seq,
    )
    deltas = {(a.player, a.before.bet): a.delta for a in adjusted.adjustments}
    # single:5 paid 2 to 1 on two dice, now 1 to 1; total:15 now wins 18 to 1; single:6 wins.
    assert deltas == {
        ("ann", "single:5"): -100,
        ("ann", "total:15"): 1900,
        ("bob", "single:6"): 200,
    }
    assert adjusted.delta == 2000


# ---- a settler killed in the middle of a big round -------------------------------------------


async def test_a_settler_killed_mid_round_is_finished_by_another(tmp_path: Path) -> None:
    """SIGKILL the only settlement process as a 10,000-wager round's result is confirmed; a new
    process finishes the job (the message is redelivered after the consumer's ack wait): one
    settlement, every wager settled once, the round completed."""
    with LocalNatsServer(tmp_path / "nats") as server:
        nc = await nats.connect(server.url)
        procs: list[ServiceProcess] = []
        try:
            (await provision(nc)).raise_for_conflicts()
            for service in ("lifecycle", "dice", "wagers", "settlement"):
                proc = ServiceProcess(service, server.url, log_path=tmp_path / f"{service}.log")
                procs.append(proc.start())
            for proc in procs:
                await proc.wait_ready()
            floor = Floor(server.url, {}, tmp_path)
            store = EventStore(nc, EVENT_STREAM)
            table = "big1"
            rng = random.Random(11)
            await open_table(floor, nc, table, "online-live")
            await open_round(floor, nc, table, 1)
            slips = [(f"p{i % 50}", random_wagers("online-live", 200, rng)) for i in range(50)]
            await place_many(floor, nc, table, 1, slips)
            await close_and_uncover(floor, nc, table, 1)
            await confirm(floor, nc, table, 1, (2, 3, 3))
            settler = procs[-1]
            settler.kill()  # as it reads and settles the round
            killed_before = await settlement_of(store, table, 1)
            assert len(killed_before.summaries) <= 1  # the batch is atomic: all or nothing
            second = ServiceProcess("settlement", server.url, log_path=tmp_path / "settlement2.log")
            procs.append(second.start())
            await second.wait_ready()
            await wait_completed(store, table, 1, seconds=60)
            got = await settlement_of(store, table, 1)
            assert_settled_once(got)
            assert len(got.results) == 10_000 and got.summaries[0].parts == 20
            assert got.results == await recomputed(store, table, 1, got.summaries[0].as_of)
        finally:
            for proc in procs:
                proc.stop()
            await nc.close()
