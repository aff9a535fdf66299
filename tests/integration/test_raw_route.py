"""The log read through the raw route (:mod:`sicbo.eventstore.raw_route`) against a real
nats-server: the same events, headers included, as through nats-py's subscription callback,
over several pages, with other reads and subscriptions on the same connection meanwhile."""

from __future__ import annotations

import asyncio
import dataclasses
import functools

import pytest
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from sicbo.eventstore import consumer_read, raw_route
from sicbo.eventstore import store as store_module
from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import READ_PAGE, EventStore
from sicbo_contracts.subjects import EVENT_STREAM

# Headers a reader must get back as nats-py parses them: spaces around a value, a colon in
# it, an empty value, a non-ASCII value.
ODD_HEADERS = {"Odd-Spaced": "  a value  ", "Odd-Colon": "a: b:c", "Odd-Empty": "", "Odd-Utf": "é"}


async def _fill(store: EventStore, table_id: str, count: int) -> None:
    for start in range(0, count, 250):
        await asyncio.gather(
            *(
                store.append(
                    f"sicbo.evt.{table_id}.lc.r{i % 3}.evt",
                    str(i).encode(),
                    headers=ODD_HEADERS if i % 7 == 0 else {"Sicbo-N": str(i)},
                )
                for i in range(start, min(count, start + 250))
            )
        )


async def test_raw_route_reads_what_the_callback_reads(
    store: EventStore, nc: NATS, table_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = READ_PAGE * 2 + 17  # three pages
    await _fill(store, table_id, count)
    other = f"{table_id}x"
    await _fill(store, other, 40)

    routed = await store.read(f"sicbo.evt.{table_id}.>")
    both = await asyncio.gather(  # two routed reads at once on one connection
        store.read(f"sicbo.evt.{table_id}.lc.r1.>"), store.read(f"sicbo.evt.{other}.>")
    )
    assert nc.__dict__["_sicbo_raw_routes"] == {}  # each read's route is gone after it

    monkeypatch.setattr(raw_route, "_SUPPORTED", False)  # as with another nats-py version
    plain = await store.read(f"sicbo.evt.{table_id}.>")
    assert raw_route.route(nc, 1, lambda subject, reply, headers, data: None) is False

    assert len(routed) == count and routed == plain
    assert [int(e.data) for e in routed] == list(range(count))  # appended in order, per 250
    odd = [e for e in routed if "Odd-Colon" in e.headers]
    assert odd and all(e.headers == {**e.headers, **_as_parsed()} for e in odd)
    assert both[0] == [e for e in plain if e.subject.endswith(".lc.r1.evt")]
    assert [int(e.data) for e in both[1]] == list(range(40))


def _as_parsed() -> dict[str, str]:
    """How nats-py hands back :data:`ODD_HEADERS`: values stripped."""
    return {name: value.strip() for name, value in ODD_HEADERS.items()}


async def test_other_subscriptions_take_the_library_path_during_a_read(
    store: EventStore, nc: NATS, table_id: str
) -> None:
    await _fill(store, table_id, 600)
    got: list[Msg] = []
    sub = await nc.subscribe(f"{table_id}.plain", cb=functools.partial(_keep, got))
    reading = asyncio.ensure_future(store.read(f"sicbo.evt.{table_id}.>"))
    for i in range(50):
        await nc.publish(f"{table_id}.plain", str(i).encode(), headers={"K": str(i)})
    events = await reading
    await nc.flush()
    for _ in range(100):
        if len(got) == 50:
            break
        await asyncio.sleep(0.02)
    await sub.unsubscribe()
    assert len(events) == 600
    assert [m.data for m in got] == [str(i).encode() for i in range(50)]
    assert [(m.headers or {}).get("K") for m in got] == [str(i) for i in range(50)]


async def _keep(into: list[Msg], msg: Msg) -> None:
    into.append(msg)


def _of_round_1(subject: str) -> bool:
    return ".r1." in subject


async def test_bulk_read_by_consumer_is_the_direct_get_read(
    store: EventStore, nc: NATS, table_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    count = READ_PAGE + 300
    await _fill(store, table_id, count)
    direct = await store.read(f"sicbo.evt.{table_id}.>")
    made: list[int] = []
    real = consumer_read.read_by_consumer

    async def counted(*args: object, **kwargs: object) -> list[StoredEvent]:
        events = await real(*args, **kwargs)  # type: ignore[arg-type]
        made.append(len(events))
        return events

    monkeypatch.setattr(store_module, "read_by_consumer", counted)
    bulk = await store.read(f"sicbo.evt.{table_id}.>", bulk=True)
    assert made == [count] and bulk == direct  # seq, subject, data, headers, time
    tail = await store.read(f"sicbo.evt.{table_id}.>", after_seq=direct[99].seq, bulk=True)
    assert tail == direct[100:]
    assert await store.read(f"sicbo.evt.{table_id}.settle.>", bulk=True) == []
    # Without headers (replay's tables): the same events, their headers alone left empty.
    bare = await store.read(f"sicbo.evt.{table_id}.>", bulk=True, headers=False)
    assert any(e.headers for e in direct) and all(not e.headers for e in bare)
    assert bare == [dataclasses.replace(e, headers={}) for e in direct]
    # With a function of the subject (replay's accounts): the headers of those it accepts.
    some = await store.read(f"sicbo.evt.{table_id}.>", bulk=True, headers=_of_round_1)
    assert some == [
        e if _of_round_1(e.subject) else dataclasses.replace(e, headers={}) for e in direct
    ]
    assert any(e.headers for e in some) and any(not e.headers for e in some)
    assert made == [count, count - 100, 0, count, count]
    info = await nc.jetstream().stream_info(EVENT_STREAM)
    await asyncio.sleep(0.2)  # the deletes were published, not awaited
    assert (await nc.jetstream().stream_info(EVENT_STREAM)).state.consumer_count <= (
        info.state.consumer_count
    )


async def test_bulk_read_falls_back_to_direct_get(
    store: EventStore, table_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _fill(store, table_id, 30)
    direct = await store.read(f"sicbo.evt.{table_id}.>")
    monkeypatch.setattr(raw_route, "_SUPPORTED", False)  # no raw route: no consumer read
    assert await store.read(f"sicbo.evt.{table_id}.>", bulk=True) == direct
