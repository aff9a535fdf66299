"""The event store against a real nats-server: expectations, dedupe, atomic batches, reads."""

from __future__ import annotations

import asyncio
import functools
import json
import time
import uuid

import nats
import pytest
from nats.aio.client import Client as NATS
from opentelemetry.sdk.trace import TracerProvider

from sicbo.eventstore.errors import WRONG_LAST_SEQUENCE, AppendConflict, DuplicateBatch
from sicbo.eventstore.records import BatchMessage, Expect, StoredEvent, last_seq_on
from sicbo.eventstore.retry import retry_on_conflict
from sicbo.eventstore.store import EventStore
from sicbo.provisioning import ProvisionReport
from sicbo_contracts.subjects import EVENT_STREAM


def lc(table: str, round_id: str = "r1", event: str = "evt") -> str:
    return f"sicbo.evt.{table}.lc.{round_id}.{event}"


def chained(events: list[StoredEvent]) -> bool:
    """Each event's recorded 'prev' is the sequence of the event before it (0 for the first)."""
    prev = 0
    for event in events:
        if json.loads(event.data)["prev"] != prev:
            return False
        prev = event.seq
    return True


async def test_append_and_read_history(store: EventStore, table_id: str) -> None:
    first = await store.append(lc(table_id, event="opened"), b"1")
    await store.append(f"sicbo.evt.{table_id}.bets.r1.placed", b"2")
    third = await store.append(lc(table_id, event="closed"), b"3")

    history = await store.read(f"sicbo.evt.{table_id}.>")
    assert [e.data for e in history] == [b"1", b"2", b"3"]
    assert [e.seq for e in history] == sorted(e.seq for e in history)
    assert history[0].seq == first.seq and history[-1].seq == third.seq
    assert history[0].subject == lc(table_id, event="opened")
    assert history[0].time.tzinfo is not None
    assert "Nats-Sequence" not in history[0].headers  # Direct Get's own headers are stripped

    lifecycle = await store.read(f"sicbo.evt.{table_id}.lc.>")
    assert [e.data for e in lifecycle] == [b"1", b"3"]
    assert [e.data for e in await store.read(f"sicbo.evt.{table_id}.>", after_seq=first.seq)] == [
        b"2",
        b"3",
    ]
    assert await store.read(f"sicbo.evt.{table_id}.settle.>") == []
    assert await store.last_sequence(f"sicbo.evt.{table_id}.lc.>") == third.seq
    assert await store.last_sequence(f"sicbo.evt.{table_id}.settle.>") == 0
    assert last_seq_on(history, f"sicbo.evt.{table_id}.bets.>") == history[1].seq


async def test_stale_writer_gets_conflict(store: EventStore, table_id: str) -> None:
    lifecycle = f"sicbo.evt.{table_id}.lc.>"
    first = await store.append(lc(table_id), b"a", expect=Expect(lifecycle, 0))

    # "Nothing yet" is refused once something exists.
    with pytest.raises(AppendConflict) as caught:
        await store.append(lc(table_id), b"b", expect=Expect(lifecycle, 0))
    assert caught.value.err_code == WRONG_LAST_SEQUENCE
    assert caught.value.actual == first.seq
    assert (caught.value.filter_subject, caught.value.expected) == (lifecycle, 0)

    second = await store.append(lc(table_id), b"c", expect=Expect(lifecycle, first.seq))
    # The writer that still believes `first` is the last one is now stale.
    with pytest.raises(AppendConflict):
        await store.append(lc(table_id), b"d", expect=Expect(lifecycle, first.seq))
    # An expectation guards a filter, not the subject written: a slip under the lifecycle guard.
    await store.append(
        f"sicbo.evt.{table_id}.bets.r1.placed", b"e", expect=Expect(lifecycle, second.seq)
    )
    assert [e.data for e in await store.read(f"sicbo.evt.{table_id}.>")] == [b"a", b"c", b"e"]


async def test_msg_id_duplicate_is_stored_once(store: EventStore, table_id: str) -> None:
    command_id = str(uuid.uuid4())
    first = await store.append(lc(table_id), b"x", msg_id=command_id)
    again = await store.append(lc(table_id), b"x", msg_id=command_id)
    assert not first.duplicate
    assert again.duplicate and again.seq == first.seq
    history = await store.read(f"sicbo.evt.{table_id}.>")
    assert len(history) == 1
    assert history[0].headers["Nats-Msg-Id"] == command_id


async def test_retried_guarded_command_is_a_duplicate(store: EventStore, table_id: str) -> None:
    """The server checks the expectation before dedupe; the store still says "duplicate"."""
    lifecycle = f"sicbo.evt.{table_id}.lc.>"
    command_id = str(uuid.uuid4())
    first = await store.append(lc(table_id), b"x", expect=Expect(lifecycle, 0), msg_id=command_id)
    retry = await store.append(lc(table_id), b"x", expect=Expect(lifecycle, 0), msg_id=command_id)
    assert retry == type(retry)(seq=first.seq, duplicate=True)
    with pytest.raises(AppendConflict):  # another command with the same stale view is refused
        await store.append(lc(table_id), b"y", expect=Expect(lifecycle, 0), msg_id="other")
    assert len(await store.read(lifecycle)) == 1


async def test_atomic_batch_commits_consecutively(store: EventStore, table_id: str) -> None:
    settle = f"sicbo.evt.{table_id}.settle.r1.>"
    items = [(f"sicbo.evt.{table_id}.settle.r1.paid", f"{i}".encode()) for i in range(20)]
    appended = await store.append_batch(items, expect=Expect(settle, 0))
    seqs = [a.seq for a in appended]
    assert seqs == list(range(seqs[0], seqs[0] + 20))
    history = await store.read(settle)
    assert [e.seq for e in history] == seqs
    assert [e.data for e in history] == [data for _, data in items]


async def test_refused_batch_stores_nothing(store: EventStore, table_id: str) -> None:
    lifecycle = f"sicbo.evt.{table_id}.lc.>"
    await store.append(lc(table_id, event="closed"), b"closed")
    stale_batch = [
        (f"sicbo.evt.{table_id}.bets.r1.placed", b"slip"),
        (lc(table_id, event="tumbled"), b"tumble"),
        (f"sicbo.evt.{table_id}.settle.r1.paid", b"pay"),
    ]
    with pytest.raises(AppendConflict):
        await store.append_batch(stale_batch, expect=Expect(lifecycle, 0))
    assert [e.data for e in await store.read(f"sicbo.evt.{table_id}.>")] == [b"closed"]


async def test_round_is_settled_once(store: EventStore, table_id: str) -> None:
    """A second settlement of the round (copy, redelivery, racing settler) is refused."""
    settle = f"sicbo.evt.{table_id}.settle.r7.>"
    batch = [(f"sicbo.evt.{table_id}.settle.r7.paid", f"slip-{i}".encode()) for i in range(20)]
    await store.append_batch(batch, expect=Expect(settle, 0), msg_id=f"settle-{table_id}-r7")

    # Same command again: dedupe answers first (10201), before the expectation.
    with pytest.raises(DuplicateBatch):
        await store.append_batch(batch, expect=Expect(settle, 0), msg_id=f"settle-{table_id}-r7")
    # Another settler's copy (different id, or none): the expectation refuses it.
    with pytest.raises(AppendConflict) as caught:
        await store.append_batch(batch, expect=Expect(settle, 0), msg_id="another-settler")
    assert caught.value.err_code == WRONG_LAST_SEQUENCE
    with pytest.raises(AppendConflict):
        await store.append_batch(batch, expect=Expect(settle, 0))
    assert len(await store.read(settle)) == 20


async def test_racing_settlers_one_wins(store: EventStore, table_id: str) -> None:
    settle = f"sicbo.evt.{table_id}.settle.r1.>"

    async def settler(name: str) -> str:
        items = [(f"sicbo.evt.{table_id}.settle.r1.paid", name.encode()) for _ in range(10)]
        try:
            await store.append_batch(items, expect=Expect(settle, 0), msg_id=name)
        except AppendConflict:
            return "refused"
        return "won"

    outcomes = await asyncio.gather(*(settler(f"{table_id}-s{i}") for i in range(5)))
    assert sorted(outcomes) == ["refused"] * 4 + ["won"]
    stored = await store.read(settle)
    assert len(stored) == 10 and len({e.data for e in stored}) == 1


async def test_batch_size_limits(store: EventStore, table_id: str) -> None:
    subject = f"sicbo.evt.{table_id}.settle.r1.paid"
    with pytest.raises(ValueError):
        await store.append_batch([])
    with pytest.raises(ValueError):
        await store.append_batch([(subject, b"")] * 1001)
    appended = await store.append_batch([(subject, b"")] * 1000)
    assert appended[-1].seq - appended[0].seq == 999


async def test_concurrent_writers_one_wins_per_round(
    nats_url: str, provisioned: ProvisionReport, table_id: str
) -> None:
    """30 writers read the last sequence, then all append against it: exactly one wins."""
    writers, rounds = 30, 5
    lifecycle = f"sicbo.evt.{table_id}.lc.>"
    conns = await asyncio.gather(*(nats.connect(nats_url) for _ in range(writers)))
    stores = [EventStore(c, EVENT_STREAM) for c in conns]

    async def write(s: EventStore, n: int, prev: int) -> bool:
        body = json.dumps({"prev": prev, "writer": n}).encode()
        try:
            await s.append(lc(table_id), body, expect=Expect(lifecycle, prev))
        except AppendConflict:
            return False
        return True

    try:
        for round_no in range(rounds):
            # Phase 1: everyone reads. Phase 2: everyone appends against what it read.
            seen = await asyncio.gather(*(s.last_sequence(lifecycle) for s in stores))
            assert len(set(seen)) == 1
            won = await asyncio.gather(*(write(s, n, seen[n]) for n, s in enumerate(stores)))
            assert sum(won) == 1, f"round {round_no}: {sum(won)} winners"
        history = await stores[0].read(lifecycle)
    finally:
        await asyncio.gather(*(c.close() for c in conns))
    assert len(history) == rounds
    assert chained(history)


async def test_retry_converges_to_gap_free_history(
    nats_url: str, provisioned: ProvisionReport, table_id: str
) -> None:
    writers, each = 30, 2
    lifecycle = f"sicbo.evt.{table_id}.lc.>"
    conns = await asyncio.gather(*(nats.connect(nats_url) for _ in range(writers)))
    try:

        async def append_next(s: EventStore, n: int, i: int) -> None:
            prev = await s.last_sequence(lifecycle)  # re-read on every attempt
            body = json.dumps({"prev": prev, "writer": n, "i": i}).encode()
            await s.append(lc(table_id), body, expect=Expect(lifecycle, prev))

        async def writer(nc: NATS, n: int) -> None:
            s = EventStore(nc, EVENT_STREAM)
            for i in range(each):
                await retry_on_conflict(functools.partial(append_next, s, n, i), attempts=200)

        await asyncio.gather(*(writer(c, n) for n, c in enumerate(conns)))
        history = await EventStore(conns[0], EVENT_STREAM).read(lifecycle)
    finally:
        await asyncio.gather(*(c.close() for c in conns))
    assert len(history) == writers * each
    assert chained(history)


async def test_retry_gives_up_after_the_bound(store: EventStore, table_id: str) -> None:
    lifecycle = f"sicbo.evt.{table_id}.lc.>"
    await store.append(lc(table_id), b"first")
    calls = 0

    async def always_stale() -> None:
        nonlocal calls
        calls += 1
        await store.append(lc(table_id), b"never", expect=Expect(lifecycle, 0))

    with pytest.raises(AppendConflict):
        await retry_on_conflict(always_stale, attempts=3)
    assert calls == 3


async def test_read_5000_messages_in_order(store: EventStore, table_id: str) -> None:
    total = 5000
    for start in range(0, total, 500):  # pipelined appends, 500 in flight
        await asyncio.gather(
            *(
                store.append(lc(table_id, f"r{i // 100}", "evt"), str(i).encode())
                for i in range(start, start + 500)
            )
        )
    began = time.perf_counter()
    history = await store.read(f"sicbo.evt.{table_id}.>")
    elapsed = time.perf_counter() - began
    print(f"read {len(history)} events in {elapsed * 1000:.0f} ms")  # informational, not timed
    assert len(history) == total
    seqs = [e.seq for e in history]
    assert seqs == sorted(seqs) and len(set(seqs)) == total
    assert sorted(int(e.data) for e in history) == list(range(total))
    # Appends were concurrent, so the stream order is the floor's order; check it is kept
    # and that paging resumes correctly from a middle sequence.
    tail = await store.read(f"sicbo.evt.{table_id}.>", after_seq=seqs[2499])
    assert [e.seq for e in tail] == seqs[2500:]


async def test_trace_context_travels_in_headers(store: EventStore, table_id: str) -> None:
    tracer = TracerProvider().get_tracer("test")
    with tracer.start_as_current_span("command") as span:
        await store.append(lc(table_id), b"x")
        await store.append_batch([(lc(table_id), b"y"), (lc(table_id), b"z")])
    trace_id = format(span.get_span_context().trace_id, "032x")
    history = await store.read(f"sicbo.evt.{table_id}.>")
    assert len(history) == 3
    assert all(trace_id in e.headers["traceparent"] for e in history)


async def test_batch_of_messages_each_with_its_own_id(store: EventStore, table_id: str) -> None:
    """Several commands' events in one atomic batch: each message keeps its own msg id and
    headers; a batch holding one id already stored is refused whole (nothing of it stored)."""
    bets = f"sicbo.evt.{table_id}.bets.>"
    lifecycle = f"sicbo.evt.{table_id}.lc.>"
    subject = f"sicbo.evt.{table_id}.bets.1.placed"

    def message(n: int) -> BatchMessage:
        return BatchMessage(subject, f"slip-{n}".encode(), f"{table_id}/s{n}", {"cmd": f"c{n}"})

    appended = await store.append_messages([message(1), message(2)], expect=Expect(lifecycle, 0))
    stored = await store.read(bets)
    assert [e.seq for e in stored] == [a.seq for a in appended]
    assert [(e.headers["Nats-Msg-Id"], e.headers["cmd"]) for e in stored] == [
        (f"{table_id}/s1", "c1"),
        (f"{table_id}/s2", "c2"),
    ]
    with pytest.raises(DuplicateBatch):  # s2 is stored: s3 is not stored either
        await store.append_messages([message(3), message(2)], expect=Expect(lifecycle, 0))
    await store.append(lc(table_id, event="closed"), b"closed")
    with pytest.raises(AppendConflict):  # the lifecycle moved on
        await store.append_messages([message(3), message(4)], expect=Expect(lifecycle, 0))
    assert [e.data for e in await store.read(bets)] == [b"slip-1", b"slip-2"]
