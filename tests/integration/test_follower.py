"""The shell's one read path (sicbo.shell.follower) against a real nats-server: a key's state
caught up from the last sequence read, decode or skip, single-flight, a state that failed to
fold read afresh, and no action on a lagging replica's partial view."""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec
import pytest

from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.shell.follower import BehindLeader, Follower, Start
from sicbo_contracts.subjects import table_filter


class Tick(msgspec.Struct, frozen=True, tag="test.tick.v1", tag_field="type"):
    n: int


_ticks: msgspec.json.Decoder[Any] = msgspec.json.Decoder(Tick)


class CountingStore(EventStore):
    """The real store, counting reads; ``lag`` drops the newest events of the next reads, as
    a cluster replica that has not caught up answers."""

    def __init__(self, store: EventStore) -> None:
        super().__init__(store._nc, store.stream)
        self.reads: list[int] = []  # the after_seq of each read
        self.lag = 0  # reads still to answer from a lagging replica
        self.lagging_by = 1

    async def read(self, filter_subject: str, *, after_seq: int = 0) -> list[StoredEvent]:
        self.reads.append(after_seq)
        found = await super().read(filter_subject, after_seq=after_seq)
        if self.lag:
            self.lag -= 1
            return found[: max(0, len(found) - self.lagging_by)]
        return found


def _sum(total: list[int], stored: StoredEvent, tick: Tick) -> list[int]:
    return [*total, tick.n]


def ticks(store: EventStore, **kwargs: Any) -> Follower[list[int]]:
    return Follower(
        store,
        name="test",
        filter_of=table_filter,
        initial=lambda _: [],
        evolve=kwargs.pop("evolve", _sum),
        decoder=_ticks,
        **kwargs,
    )


async def tick(store: EventStore, table: str, n: int, aggregate: str = "lc") -> int:
    subject = f"sicbo.evt.{table}.{aggregate}.1.test-tick-v1"
    return (await store.append(subject, msgspec.json.encode(Tick(n=n)))).seq


@pytest.fixture
def counting(store: EventStore) -> CountingStore:
    return CountingStore(store)


async def test_the_state_is_caught_up_from_the_last_sequence_read(
    counting: CountingStore, table_id: str
) -> None:
    follower = ticks(counting)
    await tick(counting, table_id, 1)
    second = await tick(counting, table_id, 2)
    first = await follower.get(table_id)
    assert first.state == [1, 2] and first.last_seq == second
    third = await tick(counting, table_id, 3)
    again = await follower.get(table_id)
    assert again.state == [1, 2, 3] and again.last_seq == third
    assert counting.reads == [0, second]  # the second read starts after what was read


async def test_unknown_and_unwanted_events_are_skipped_but_read_past(
    counting: CountingStore, table_id: str
) -> None:
    follower = ticks(counting, wants=lambda s: s.aggregate.value == "lc")
    await tick(counting, table_id, 1)
    await counting.append(f"sicbo.evt.{table_id}.lc.1.test-newer-v9", b'{"type":"newer.v9"}')
    last = await tick(counting, table_id, 2, aggregate="bets")  # not wanted
    followed = await follower.get(table_id)
    assert followed.state == [1] and followed.last_seq == last


async def test_on_stored_sees_every_message_folded_or_not(store: EventStore, table_id: str) -> None:
    seen: list[int] = []
    follower = ticks(
        store,
        wants=lambda s: s.aggregate.value == "lc",
        on_stored=lambda _, stored: seen.append(stored.seq),
    )
    a = await tick(store, table_id, 1)
    b = await tick(store, table_id, 2, aggregate="bets")
    assert (await follower.get(table_id)).state == [1] and seen == [a, b]


async def test_a_state_that_failed_to_fold_is_read_afresh(
    counting: CountingStore, table_id: str
) -> None:
    broken = {"once": True}

    def fragile(total: list[int], stored: StoredEvent, t: Tick) -> list[int]:
        if t.n == 2 and broken.pop("once", False):
            raise ValueError("a bug")
        return [*total, t.n]

    follower = ticks(counting, evolve=fragile)
    await tick(counting, table_id, 1)
    await tick(counting, table_id, 2)
    with pytest.raises(ValueError, match="a bug"):
        await follower.get(table_id)
    assert follower.peek(table_id) is None  # nothing half-folded is kept
    assert (await follower.get(table_id)).state == [1, 2]
    assert counting.reads == [0, 0]


async def test_concurrent_gets_share_one_read(counting: CountingStore, table_id: str) -> None:
    follower = ticks(counting)
    await tick(counting, table_id, 1)
    got = await asyncio.gather(*(follower.get(table_id) for _ in range(10)))
    assert all(g.state == [1] for g in got) and len(counting.reads) == 1


async def test_a_lagging_replica_s_read_is_read_again_before_anyone_acts(
    counting: CountingStore, table_id: str
) -> None:
    follower = ticks(counting)
    await tick(counting, table_id, 1)
    last = await tick(counting, table_id, 2)
    counting.lag = 1  # the first read misses the newest event
    followed = await follower.get(table_id, consistent=True)
    assert followed.state == [1, 2] and followed.last_seq == last
    assert len(counting.reads) == 2


async def test_at_least_waits_for_the_event_that_was_delivered(
    counting: CountingStore, table_id: str
) -> None:
    follower = ticks(counting)
    last = await tick(counting, table_id, 1)
    counting.lag = 2
    followed = await follower.get(table_id, at_least=last)
    assert followed.state == [1] and len(counting.reads) == 3


async def test_a_replica_that_stays_behind_is_never_acted_on(
    counting: CountingStore, table_id: str
) -> None:
    follower = ticks(counting)
    last = await tick(counting, table_id, 1)
    counting.lag = 1_000
    with pytest.raises(BehindLeader, match=f"the stream leader holds {last}"):
        await follower.get(table_id, consistent=True)


async def test_a_start_hook_begins_a_key_part_way_and_trim_bounds_it(
    counting: CountingStore, table_id: str
) -> None:
    first = await tick(counting, table_id, 1)
    await tick(counting, table_id, 2)
    await tick(counting, table_id, 3)

    async def start(_: str) -> Start[list[int]]:
        return Start([100], first)  # as if event 1 were already folded into [100]

    def keep_two(total: list[int]) -> None:
        del total[:-2]

    follower = ticks(counting, start=start, trim=keep_two)
    assert (await follower.get(table_id)).state == [2, 3]
    assert counting.reads == [first]


async def test_keys_are_kept_apart(store: EventStore, table_id: str) -> None:
    follower = ticks(store)
    other = f"{table_id}x"
    await tick(store, table_id, 1)
    await tick(store, other, 7)
    assert (await follower.get(table_id)).state == [1]
    assert (await follower.get(other)).state == [7]


async def test_nothing_is_kept_for_a_key_the_log_has_nothing_of(
    store: EventStore, table_id: str
) -> None:
    follower = ticks(store)
    for n in range(50):  # ids anyone may send: tables never opened
        assert (await follower.get(f"{table_id}-{n}")).state == []
        async with follower.lock(f"{table_id}-{n}"):
            pass
    assert follower.keys_kept == 0 and follower.peek(f"{table_id}-0") is None
    assert len(follower._locks) == 0  # a lock lives while it is held or waited for


async def test_the_keys_kept_are_bounded_the_oldest_read_again(
    counting: CountingStore, table_id: str
) -> None:
    follower = ticks(counting, max_keys=2)
    for n in range(3):
        await tick(counting, f"{table_id}{n}", n)
        await follower.get(f"{table_id}{n}")
    assert follower.keys_kept == 2 and follower.peek(f"{table_id}0") is None
    assert (await follower.get(f"{table_id}0")).state == [0]  # read again, from its start
    assert counting.reads[-1] == 0


async def test_what_this_process_appended_is_folded_without_a_read_only_when_adjacent(
    counting: CountingStore, table_id: str
) -> None:
    follower = ticks(counting)
    await tick(counting, table_id, 1)
    await follower.get(table_id)
    own = await tick(counting, table_id, 2)
    assert follower.advance(table_id, own, own, lambda total: [*total, 2])
    reads = len(counting.reads)
    followed = await follower.get(table_id)
    assert followed.state == [1, 2] and followed.last_seq == own
    assert counting.reads[reads:] == [own]  # read on from after its own append: nothing new
    # Another writer's event lies between the state and this append: not folded, but read.
    await tick(counting, table_id, 3)
    later = await tick(counting, table_id, 4)
    assert not follower.advance(table_id, later, later, lambda total: [*total, 4])
    assert (await follower.get(table_id)).state == [1, 2, 3, 4]
    # A key never read has nothing to fold into.
    assert not follower.advance(f"{table_id}-other", later + 1, later + 1, lambda t: t)
