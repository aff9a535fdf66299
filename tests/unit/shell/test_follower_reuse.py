"""A follower hands out a key's state without a catch-up read (``max_age``) only while it was
whole as of a read begun less than ``max_age`` ago and holds every append this process made
for the key; otherwise, and always without ``max_age``, it reads first (wager intake's
``reuse_state_for``, docs/architecture.md)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import msgspec

from sicbo.eventstore.records import StoredEvent
from sicbo.shell.follower import Follower
from tests.support.stream import FakeStore, Stored, list_follower


class Noted(msgspec.Struct, frozen=True, tag="test.noted.v1", tag_field="type"):
    table: str
    n: int


NOW = datetime(2026, 12, 1, tzinfo=UTC)
SUBJECT = "sicbo.evt.T1.lc.0.test-noted-v1"


def noted(seq: int, n: int) -> Stored:
    return Stored(seq, SUBJECT, msgspec.json.encode(Noted(table="T1", n=n)), NOW)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def follower(store: FakeStore, clock: Clock) -> Follower[list[int]]:
    return list_follower(store, msgspec.json.Decoder(Noted), lambda event: event.n, clock=clock)


async def test_a_recent_whole_state_is_reused_and_an_old_one_is_read_again() -> None:
    store, clock = FakeStore([noted(1, 1)]), Clock()
    f = follower(store, clock)
    assert (await f.get("T1", max_age=0.025)).state == [1]  # nothing kept: read
    store.extend([noted(2, 2)])  # another writer's event
    clock.now += 0.010
    assert (await f.get("T1", max_age=0.025)).state == [1]  # read 10 ms ago: reused
    assert len(store.reads) == 1
    assert (await f.get("T1")).state == [1, 2]  # no max_age: always read
    clock.now += 0.030
    store.extend([noted(3, 3)])
    assert (await f.get("T1", max_age=0.025)).state == [1, 2, 3]  # read 30 ms ago: read again
    assert len(store.reads) == 3


async def test_own_appends_folded_without_a_read_keep_the_state_reusable() -> None:
    store, clock = FakeStore([noted(1, 1)]), Clock()
    f = follower(store, clock)
    await f.get("T1")
    store.extend([noted(2, 2)])  # this process's own append, right after what was read
    assert f.advance("T1", 2, 2, lambda state: [*state, 2])
    assert (await f.get("T1", max_age=0.025)).state == [1, 2]
    assert len(store.reads) == 1


async def test_an_own_append_not_folded_makes_the_next_caller_read() -> None:
    """Another writer's event lies between (seq 2): this process's append (seq 3) cannot be
    folded without a read, and a state without it is never reused."""
    store, clock = FakeStore([noted(1, 1)]), Clock()
    f = follower(store, clock)
    await f.get("T1")
    store.extend([noted(2, 2), noted(3, 3)])
    assert not f.advance("T1", 3, 3, lambda state: [*state, 3])
    assert (await f.get("T1", max_age=0.025)).state == [1, 2, 3]
    assert len(store.reads) == 2


class HeldStore(FakeStore):
    """Reads that wait until ``release`` is set: an append's ack arrives during them."""

    def __init__(self, stored: list[Stored]) -> None:
        super().__init__(stored)
        self.begun, self.release = asyncio.Event(), asyncio.Event()

    async def read(self, filter_subject: str, *, after_seq: int = 0) -> list[StoredEvent]:
        found = await super().read(filter_subject, after_seq=after_seq)
        self.begun.set()
        await self.release.wait()
        return found


async def test_own_appends_acknowledged_during_a_read_are_folded_when_it_ends() -> None:
    """The read's snapshot ends at seq 1; this process's appends 2 and 3 are acknowledged
    while it is under way (3 first): both are folded after it, in order, and the state is
    then reused without another read."""
    store, clock = HeldStore([noted(1, 1)]), Clock()
    f = follower(store, clock)
    reading = asyncio.create_task(f.get("T1"))
    await store.begun.wait()  # the read has begun (its snapshot: seq 1)
    store.extend([noted(2, 2), noted(3, 3)])
    assert not f.advance("T1", 3, 3, lambda state: [*state, 3])  # waits for the read, and 2
    assert not f.advance("T1", 2, 2, lambda state: [*state, 2])
    store.release.set()
    assert (await reading).state == [1, 2, 3]
    assert (await f.get("T1", max_age=0.025)).state == [1, 2, 3]
    assert len(store.reads) == 1


async def test_after_an_append_of_unknown_outcome_the_next_caller_reads() -> None:
    """An append that timed out may be stored: its state is not reused, however recent."""
    store, clock = FakeStore([noted(1, 1)]), Clock()
    f = follower(store, clock)
    await f.get("T1")
    store.extend([noted(2, 2)])  # this process's append, its ack lost
    f.read_next_time("T1")
    assert (await f.get("T1", max_age=0.025)).state == [1, 2]
    assert len(store.reads) == 2
