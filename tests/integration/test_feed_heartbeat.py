"""The feed's heartbeat against a real nats-server, beside the floor's services as processes
(docs/feed.md "Heartbeat").

A heartbeat names the table's last published result exactly (a result stored while it was
made makes it read again), is stored once per interval however many replicas beat, never
moves what the feed reads as its last message (each outcome is still published once), and
expires by its ``Nats-TTL`` so the stream does not grow by one per interval. The results
service process sends them on its own.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
import pytest
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

import sicbo.results.heartbeat as heartbeat_module
from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_flush import flush_sent
from sicbo.results.feed import public_store
from sicbo.results.heartbeat import TTL_HEADER, Heartbeats, beat_number, ttl
from sicbo_contracts.results import FeedHeartbeat
from sicbo_contracts.subjects import RESULTS_STREAM, heartbeat
from tests.integration.conftest import Floor
from tests.integration.test_results_feed import assert_once_each, play, published, sources
from tests.integration.test_settlement import open_table

_beat = msgspec.json.Decoder(FeedHeartbeat)
INTERVAL = 1  # the in-process heartbeats'; the service's own is its default


def now() -> datetime:
    return datetime.now(UTC)


async def stored_beats(nc: NATS, table: str) -> list[tuple[Any, FeedHeartbeat]]:
    stored = await EventStore(nc, RESULTS_STREAM).read(heartbeat(table))
    return [(e, _beat.decode(e.data)) for e in stored]


async def test_a_heartbeat_names_the_last_result_once_per_interval_and_expires(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    await play(floor, nc, store, table_id, 1, (2, 3, 4))
    [(last, result)] = await wait_results(nc, table_id, 1)
    beats = Heartbeats(nc, public_store(nc), now, INTERVAL)
    assert table_id in await beats.tables()
    at = now()
    assert await beats.beat_table(table_id, at) == 1
    replica = Heartbeats(nc, public_store(nc), now, INTERVAL)
    assert await replica.beat_table(table_id, at) == 0  # the same interval: stored once
    [(stored, beat)] = [(e, b) for e, b in await stored_beats(nc, table_id) if b.interval_s == 1]
    assert (beat.table, beat.last_seq, beat.last_source_seq, beat.interval_s) == (
        table_id,
        last.seq,
        result.source_seq,
        INTERVAL,
    )
    assert stored.headers[TTL_HEADER] == ttl(INTERVAL)
    assert stored.headers["Nats-Msg-Id"].endswith(str(beat_number(at, INTERVAL)))

    # Results go on, published once each, between and after heartbeats.
    await play(floor, nc, store, table_id, 2, (6, 6, 1))
    got = await wait_results(nc, table_id, 2)
    assert_once_each(got, await sources(store, table_id))
    later = Heartbeats(nc, public_store(nc), lambda: at + timedelta(seconds=INTERVAL), INTERVAL)
    assert await later.beat() >= 1  # the next interval: every table with results, this one
    newest = [b for _, b in await stored_beats(nc, table_id) if b.interval_s == INTERVAL][-1]
    assert (newest.last_seq, newest.last_source_seq) == (got[-1][0].seq, got[-1][1].source_seq)

    # Expired by their TTL (3 intervals): the stream keeps a table's last few heartbeats, not
    # one per interval (the service's own, every 5 s, come and go beside these).
    def ours(beats: list[tuple[Any, FeedHeartbeat]]) -> list[int]:
        return [e.seq for e, b in beats if b.interval_s == INTERVAL]

    assert len(ours(await stored_beats(nc, table_id))) == 2
    for _ in range(300):
        if not ours(await stored_beats(nc, table_id)):
            break
        await asyncio.sleep(0.1)
    assert ours(await stored_beats(nc, table_id)) == []
    assert len(await published(nc, table_id)) == 2  # the results stay


async def test_a_result_stored_while_the_heartbeat_is_made_is_the_one_it_names(
    floor: Floor, nc: NATS, store: EventStore, table_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The heartbeat's first read of the head is stale (as if round 2's result was stored
    right after it): the server refuses the heartbeat's expectation, it reads again."""
    await open_table(floor, nc, table_id)
    await play(floor, nc, store, table_id, 1, (1, 1, 2))
    await play(floor, nc, store, table_id, 2, (3, 4, 5))
    got = await wait_results(nc, table_id, 2)
    real = heartbeat_module.last_published
    reads: list[tuple[int, int]] = []

    async def stale_first(results_store: EventStore, table: str) -> tuple[int, int]:
        head = await real(results_store, table)
        if not reads:
            head = (got[0][0].seq, got[0][1].source_seq)  # round 1's: one result behind
        reads.append(head)
        return head

    monkeypatch.setattr(heartbeat_module, "last_published", stale_first)
    beats = Heartbeats(nc, public_store(nc), now, INTERVAL)
    assert await beats.beat_table(table_id, now()) == 1
    assert len(reads) == 2  # refused once, then read again
    [beat] = [b for _, b in await stored_beats(nc, table_id) if b.interval_s == INTERVAL]
    assert (beat.last_seq, beat.last_source_seq) == (got[1][0].seq, got[1][1].source_seq)


async def test_the_results_service_sends_heartbeats_of_its_own(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    arrived: asyncio.Queue[Msg] = asyncio.Queue()
    await nc.subscribe(heartbeat(table_id), cb=arrived.put)
    await flush_sent(nc)
    await play(floor, nc, store, table_id, 1, (5, 6, 6))
    [(last, result)] = await wait_results(nc, table_id, 1)
    for _ in range(10):  # within a few of the service's intervals (5 s by default)
        beat = _beat.decode((await asyncio.wait_for(arrived.get(), 30)).data)
        if beat.last_seq == last.seq:
            break
    assert (beat.table, beat.last_seq, beat.last_source_seq) == (
        table_id,
        last.seq,
        result.source_seq,
    )


async def wait_results(nc: NATS, table: str, n: int) -> list[tuple[Any, Any]]:
    for _ in range(300):
        got = await published(nc, table)
        if len(got) >= n:
            return got
        await asyncio.sleep(0.1)
    pytest.fail(f"{table}: fewer than {n} results published")
