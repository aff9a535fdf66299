"""A burst published in one turn of the event loop with the services' publish (nats_publish:
written at once past WRITE_AT commands) reaches a real nats-server whole and in order: core
messages with their headers, and JetStream appends stored in the order they were sent."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from sicbo.eventstore import nats_publish
from sicbo.eventstore.store import EventStore

BURST = nats_publish.WRITE_AT * 3 + 5


@pytest.fixture
def services_publish() -> Iterator[None]:
    before = NATS._send_publish
    assert nats_publish.install()
    try:
        yield
    finally:
        NATS._send_publish = before  # type: ignore[method-assign]


async def test_a_burst_arrives_whole_and_in_order_with_its_headers(
    nc: NATS, services_publish: None
) -> None:
    got: list[Msg] = []
    done = asyncio.Event()

    async def keep(msg: Msg) -> None:
        got.append(msg)
        if len(got) == BURST:
            done.set()

    sub = await nc.subscribe("burst.test.>", cb=keep)
    await nc.flush()
    left_queued = []
    for n in range(BURST):  # no await below suspends: one turn of the loop
        await nc.publish(f"burst.test.{n}", f"body {n}".encode(), headers={"N": str(n)})
        left_queued.append(len(nc._pending))
    # Never more than WRITE_AT - 1 wait in the client: the WRITE_AT-th writes them all.
    assert max(left_queued) == nats_publish.WRITE_AT - 1
    await asyncio.wait_for(done.wait(), 10)
    await sub.unsubscribe()
    assert [m.subject for m in got] == [f"burst.test.{n}" for n in range(BURST)]
    assert [m.data for m in got] == [f"body {n}".encode() for n in range(BURST)]
    assert [m.headers for m in got] == [{"N": str(n)} for n in range(BURST)]


async def test_appends_sent_in_one_burst_are_stored_in_the_order_sent(
    nc: NATS, store: EventStore, table_id: str, services_publish: None
) -> None:
    subject = f"sicbo.evt.{table_id}.bets.1.slip-placed-v1"
    sent = [
        asyncio.ensure_future(store.append(subject, json.dumps({"n": n}).encode()))
        for n in range(BURST)
    ]
    appended = await asyncio.gather(*sent)
    seqs = [a.seq for a in appended]
    assert seqs == sorted(seqs) and len(set(seqs)) == BURST
    stored = await store.read(subject)
    assert [json.loads(e.data)["n"] for e in stored] == list(range(BURST))
    assert [e.seq for e in stored] == seqs
