"""The public results feed against a real nats-server, its service as a separate process.

Only what the floor's log stores is published (GLI-19 §C.6.4(d)); each stored outcome of a
round (result, void, invalidation, cancellation, correction) becomes exactly one message on
``sicbo.results.<table>``, in log order, also when the feed is SIGKILLed and restarted, when
two replicas and several in-process feeds race, and for a redelivery long after the fact.
"""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_flush import flush_sent
from sicbo.infra.processes import ServiceProcess
from sicbo.results.feed import Feed
from sicbo.results.project import is_source, winners
from sicbo_contracts.base import Dice
from sicbo_contracts.dice import ConfirmResult, EnterDice
from sicbo_contracts.lifecycle import CancelRound, ReportMalfunction
from sicbo_contracts.results import PublicResult, ResultStatus, RoundResult
from sicbo_contracts.subjects import (
    EVENT_STREAM,
    RESULTS_STREAM,
    Aggregate,
    aggregate_filter,
    results,
)
from tests.integration.conftest import DEALER, SUPERVISOR, Floor, new_id
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    correct,
    invalidate,
    no_result,
    ok,
    open_round,
    open_table,
    wait_completed,
)

_result = msgspec.json.Decoder(PublicResult)


# ---- reading what was published ---------------------------------------------------------------


async def published(nc: NATS, table: str) -> list[tuple[StoredEvent, RoundResult]]:
    stored = await EventStore(nc, RESULTS_STREAM).read(results(table))
    return [(e, _result.decode(e.data)) for e in stored]


async def sources(store: EventStore, table: str) -> list[StoredEvent]:
    """The table's stored outcomes in the floor's log: what must be published, once each."""
    return [
        e
        for e in await store.read(aggregate_filter(table, Aggregate.LIFECYCLE))
        if is_source(e.subject)
    ]


async def wait_published(
    nc: NATS, table: str, n: int, seconds: float = 30
) -> list[tuple[StoredEvent, RoundResult]]:
    for _ in range(int(seconds * 10)):
        got = await published(nc, table)
        if len(got) >= n:
            return got
        await asyncio.sleep(0.1)
    pytest.fail(f"{table}: {len(await published(nc, table))} results, wanted {n}")


async def feed_passed(nc: NATS, seq: int, seconds: float = 60) -> None:
    """Until the results-feed consumer has acknowledged everything up to ``seq``: the feed has
    handled those events, whatever it made of them."""
    js = nc.jetstream()
    for _ in range(int(seconds * 10)):
        info = await js.consumer_info(EVENT_STREAM, "results-feed")
        if info.ack_floor is not None and (info.ack_floor.stream_seq or 0) >= seq:
            return
        await asyncio.sleep(0.1)
    pytest.fail(f"the results feed did not get past sequence {seq} in {seconds} s")


def assert_once_each(
    got: list[tuple[StoredEvent, RoundResult]], expected: list[StoredEvent]
) -> None:
    """(invariant) One message per stored outcome, in log order, with its msg id."""
    assert [r.source_seq for _, r in got] == [e.seq for e in expected]
    assert [e.headers["Nats-Msg-Id"] for e, _ in got] == [f"result-{e.seq}" for e in expected]


async def play(floor: Floor, nc: NATS, store: EventStore, table: str, n: int, dice: Dice) -> None:
    """One round to its confirmed result, then settled (the next round may start)."""
    await open_round(floor, nc, table, n)
    await close_and_uncover(floor, nc, table, n)
    await confirm(floor, nc, table, n, dice)
    await wait_completed(store, table, n)


# ---- the tests --------------------------------------------------------------------------------


async def test_nothing_is_published_before_the_result_is_stored(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    await open_round(floor, nc, table_id, 1)
    await close_and_uncover(floor, nc, table_id, 1)  # uncovered: no result yet
    entered = await ok(
        floor,
        nc,
        EnterDice(command_id=new_id(), table=table_id, actor=DEALER, round=1, dice=(3, 3, 5)),
    )  # entered and echoed, not confirmed
    await feed_passed(nc, entered.seq)
    assert await published(nc, table_id) == []
    await ok(floor, nc, ConfirmResult(command_id=new_id(), table=table_id, actor=DEALER, round=1))
    [(stored, result)] = await wait_published(nc, table_id, 1)
    [source] = await sources(store, table_id)
    assert (result.status, result.round, result.dice, result.total) == (
        ResultStatus.RESULT,
        1,
        (3, 3, 5),
        11,
    )
    assert result.winning_bets == winners("cca-1992@v1", (3, 3, 5))
    assert (result.paytable, result.source_seq) == ("cca-1992@v1", source.seq)
    assert stored.headers["Nats-Msg-Id"] == f"result-{source.seq}"


async def test_one_message_per_round_and_per_correction(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "macau-2004")
    rolls = {1: (1, 2, 3), 2: (5, 5, 4), 3: (6, 6, 6)}
    for n, dice in rolls.items():
        await play(floor, nc, store, table_id, n, dice)
        if n == 2:  # only the current round's result can be corrected
            await correct(floor, nc, table_id, 2, (6, 5, 4))
            await correct(floor, nc, table_id, 2, (6, 5, 3))
    got = await wait_published(nc, table_id, 5)
    expected = await sources(store, table_id)
    assert len(expected) == 5
    await feed_passed(nc, expected[-1].seq)
    got = await published(nc, table_id)
    assert_once_each(got, expected)
    summary = [(r.round, r.status, r.dice, r.corrects) for _, r in got]
    assert summary == [
        (1, ResultStatus.RESULT, (1, 2, 3), None),
        (2, ResultStatus.RESULT, (4, 5, 5), None),
        (2, ResultStatus.CORRECTION, (4, 5, 6), (4, 5, 5)),
        (2, ResultStatus.CORRECTION, (3, 5, 6), (4, 5, 6)),
        (3, ResultStatus.RESULT, (6, 6, 6), None),
    ]
    assert all(r.paytable == "macau-2004@v1" for _, r in got)
    assert got[3][1].winning_bets == winners("macau-2004@v1", (3, 5, 6))
    assert got[4][1].winning_bets == winners("macau-2004@v1", (6, 6, 6))
    assert "big" not in got[4][1].winning_bets  # a triple kills big (000 §3.1.2.2)


async def test_void_invalidated_and_cancelled_rounds_are_published_with_their_status(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    await open_round(floor, nc, table_id, 1)
    await close_and_uncover(floor, nc, table_id, 1)
    await no_result(floor, nc, table_id, 1)
    await wait_completed(store, table_id, 1)
    await open_round(floor, nc, table_id, 2)
    await close_and_uncover(floor, nc, table_id, 2)
    await invalidate(floor, nc, table_id, 2)
    await wait_completed(store, table_id, 2)
    got = await wait_published(nc, table_id, 2)
    assert_once_each(got, await sources(store, table_id))
    assert [(r.round, r.status, r.reason, r.dice, r.winning_bets) for _, r in got] == [
        (1, ResultStatus.VOID, "dice-not-flat", None, []),
        (2, ResultStatus.INVALIDATED, "fraud", None, []),
    ]
    # Only 004 cancels a round, suspended for a problem with no quick fix ("Ralat Pengendalian").
    online = f"{table_id}-online"
    await open_table(floor, nc, online, "online-live")
    await open_round(floor, nc, online, 1)
    jammed = ReportMalfunction(
        command_id=new_id(), table=online, actor=DEALER, equipment="tumbler", detail="jammed"
    )
    await ok(floor, nc, jammed)
    cancel = CancelRound(
        command_id=new_id(), table=online, actor=SUPERVISOR, round=1, reason="tumbler jammed"
    )
    await ok(floor, nc, cancel)
    got = await wait_published(nc, online, 1)
    assert_once_each(got, await sources(store, online))
    assert [(r.round, r.status, r.reason, r.dice, r.winning_bets) for _, r in got] == [
        (1, ResultStatus.CANCELLED, "tumbler jammed", None, []),
    ]


async def test_000_8_4_an_invalidation_after_the_result_is_published_and_supersedes_it(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """A supervisor invalidates a round already paid: partners get the invalidation after the
    result it supersedes (same round, a later source sequence), then the next round's."""
    await open_table(floor, nc, table_id)
    await play(floor, nc, store, table_id, 1, (2, 3, 5))
    await invalidate(floor, nc, table_id, 1)
    await play(floor, nc, store, table_id, 2, (1, 1, 4))
    got = await wait_published(nc, table_id, 3)
    assert_once_each(got, await sources(store, table_id))
    assert [(r.round, r.status, r.reason, r.dice) for _, r in got] == [
        (1, ResultStatus.RESULT, None, (2, 3, 5)),
        (1, ResultStatus.INVALIDATED, "fraud", None),
        (2, ResultStatus.RESULT, None, (1, 1, 4)),
    ]
    assert got[0][1].source_seq < got[1][1].source_seq
    # It names the paid result it supersedes; the next round's result replaces nothing.
    assert [r.supersedes for _, r in got] == [None, got[0][1].source_seq, None]


async def test_racing_feeds_and_an_old_redelivery_publish_each_outcome_once(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """The service replica and five feeds in this process all handle every outcome of three
    tables at once; then a fresh feed (no cache, as after a restart) gets the oldest outcome
    again, as a redelivery long past the duplicate window would: it does not even try."""
    tables = [f"{table_id}-{k}" for k in range(3)]
    log_store, results_store = EventStore(nc, EVENT_STREAM), EventStore(nc, RESULTS_STREAM)
    racers = [Feed(log_store, results_store, lambda: datetime.now(UTC)) for _ in range(5)]

    async def table_run(table: str) -> None:
        await open_table(floor, nc, table)
        for n in (1, 2, 3):
            await play(floor, nc, store, table, n, (n, 4, 6))
            for source in await sources(store, table):
                await asyncio.gather(*(r.on_event(source.subject, source.seq) for r in racers))

    await asyncio.gather(*(table_run(t) for t in tables))
    for table in tables:
        expected = await sources(store, table)
        await feed_passed(nc, expected[-1].seq)
        assert_once_each(await published(nc, table), expected)

    attempts: list[Msg] = []

    async def attempted(msg: Msg) -> None:
        attempts.append(msg)

    sub = await nc.subscribe(results(tables[0]), cb=attempted)
    oldest = (await sources(store, tables[0]))[0]
    fresh = Feed(log_store, results_store, lambda: datetime.now(UTC))
    assert await fresh.on_event(oldest.subject, oldest.seq) == 0
    await flush_sent(nc)
    await asyncio.sleep(0.2)
    await sub.unsubscribe()
    assert attempts == []  # no publish attempt at all: the guard, not the msg id, stopped it
    assert len(await published(nc, tables[0])) == 3


async def test_a_feed_killed_and_restarted_with_a_second_replica_publishes_no_duplicates(
    floor: Floor, nc: NATS, store: EventStore, table_id: str, tmp_path: Path
) -> None:
    """SIGKILL the feed the moment results are confirmed on eight tables at once, play on
    while no feed runs, restart it with a second replica and play on; once the consumer has
    acknowledged everything (what the killed process held is redelivered after the 30 s ack
    wait), each outcome is published once."""
    tables = [f"{table_id}-{k}" for k in range(8)]
    await asyncio.gather(*(open_table(floor, nc, t) for t in tables))

    async def rounds(table: str, numbers: range) -> None:
        for n in numbers:
            await play(floor, nc, store, table, n, (n % 6 + 1, 2, 5))

    async def uncovered(table: str, n: int) -> None:
        await open_round(floor, nc, table, n)
        await close_and_uncover(floor, nc, table, n)

    await asyncio.gather(*(rounds(t, range(1, 3)) for t in tables))
    await asyncio.gather(*(uncovered(t, 3) for t in tables))
    await asyncio.gather(*(confirm(floor, nc, t, 3, (3, 3, 4)) for t in tables))
    [killed] = floor.processes["results"]
    killed.kill()  # as it works through the results just confirmed
    held = (await nc.jetstream().consumer_info(EVENT_STREAM, "results-feed")).num_ack_pending
    await asyncio.gather(*(wait_completed(store, t, 3) for t in tables))
    await asyncio.gather(*(rounds(t, range(4, 5)) for t in tables))  # published by nobody yet
    replicas = [
        ServiceProcess("results", floor.nats_url, log_path=tmp_path / f"results-{n}.log").start()
        for n in (1, 2)
    ]
    floor.processes["results"] = replicas  # the session's floor stops them at the end
    for proc in replicas:
        await proc.wait_ready()
    await asyncio.gather(*(rounds(t, range(5, 7)) for t in tables))
    await asyncio.gather(*(correct(floor, nc, t, 6, (1, 1, 1)) for t in tables))
    last = max([(await sources(store, t))[-1].seq for t in tables])
    await feed_passed(nc, last, seconds=90)
    for table in tables:
        expected = await sources(store, table)
        assert len(expected) == 7
        assert_once_each(await published(nc, table), expected)
    print(f"the killed feed held {held} unacknowledged messages; they were redelivered")
    replicas[1].stop()  # the rest of the session runs with one feed, as it started
    floor.processes["results"] = replicas[:1]


async def test_sicbo_results_tail_prints_the_last_results_then_new_ones(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    for n, dice in ((1, (2, 2, 2)), (2, (1, 3, 6))):
        await play(floor, nc, store, table_id, n, dice)
    await wait_published(nc, table_id, 2)
    tail = [sys.executable, "-m", "sicbo.cli.main", "results", "tail", "--table", table_id]
    tail += ["--nats", floor.nats_url]
    plain = await asyncio.create_subprocess_exec(
        *tail, "--last", "1", "--count", "1", stdout=asyncio.subprocess.PIPE
    )
    out, _ = await asyncio.wait_for(plain.communicate(), 30)
    assert out.decode().startswith(f"{table_id} round 2 result 1 3 6 (10) wins: ")
    as_json = await asyncio.create_subprocess_exec(
        *tail, "--last", "2", "--count", "4", "--json", stdout=asyncio.subprocess.PIPE
    )
    assert as_json.stdout is not None
    first = await asyncio.wait_for(as_json.stdout.readline(), 30)  # replayed: it is running
    await open_round(floor, nc, table_id, 3)
    await close_and_uncover(floor, nc, table_id, 3)
    await no_result(floor, nc, table_id, 3)
    await wait_completed(store, table_id, 3)
    await play(floor, nc, store, table_id, 4, (6, 5, 4))
    rest, _ = await asyncio.wait_for(as_json.communicate(), 30)
    lines = [first.decode(), *rest.decode().splitlines()]
    got = [_result.decode(line) for line in lines]
    assert [(r.round, r.status, r.dice) for r in got] == [
        (1, ResultStatus.RESULT, (2, 2, 2)),
        (2, ResultStatus.RESULT, (1, 3, 6)),
        (3, ResultStatus.VOID, None),
        (4, ResultStatus.RESULT, (4, 5, 6)),
    ]
    assert as_json.returncode == 0
