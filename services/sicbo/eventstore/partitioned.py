"""The floor's log over K streams, one per partition of the tables: the one place that maps a
table to its stream (:mod:`sicbo_contracts.subjects`, "the partitioned log").

:class:`FloorLog` is an :class:`~sicbo.eventstore.store.EventStore` to everything above it:
the same appends, expectations, batches and reads, in the floor's own subjects. Below, each
call goes to the stream of the table its subject or filter names, with the partition token
appended to subjects and to filters that do not end in ``>``, and taken off every subject read
back. A table's events are all in one stream, so everything that is per table (a command's
expectation, an atomic batch, a follower's sequences, a round's settlement) holds as on one
stream; sequences are the partition stream's and compare within a table only. A read of every
table (replay, ``sicbo.evt.>``) reads each stream in turn. With K = 1 use the plain
:class:`EventStore` on ``SICBO`` (:func:`open_floor_log` does): nothing is rewritten.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from nats.aio.client import Client as NATS
from nats.js.client import JetStreamContext

from sicbo.eventstore.records import Appended, BatchMessage, Expect, HeadersWanted, StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo_contracts.subjects import (
    EVENTS_ALL,
    partition_of,
    partition_stream,
    partition_token,
    without_partition,
)

_EVENT_PREFIX = ("sicbo", "evt")


class FloorLog(EventStore):
    """The floor's events in ``partitions`` streams (K > 1), routed by table."""

    def __init__(
        self,
        js_or_nc: NATS | JetStreamContext,
        partitions: int,
        *,
        timeout: float = 5.0,
        carry_trace: bool = True,
    ) -> None:
        if partitions < 2:
            raise ValueError("a FloorLog has 2 partitions or more; K = 1 is the EventStore")
        super().__init__(
            js_or_nc, partition_stream(0, partitions), timeout=timeout, carry_trace=carry_trace
        )
        self.partitions = partitions
        self.streams = tuple(
            EventStore(js_or_nc, partition_stream(p, partitions), timeout=timeout,
                       carry_trace=carry_trace)
            for p in range(partitions)
        )  # fmt: skip

    # -- where a table lives --------------------------------------------------------------

    def partition(self, table: str) -> int:
        return partition_of(table, self.partitions)

    def stream_of(self, table: str) -> str:
        return partition_stream(self.partition(table), self.partitions)

    def _table_of(self, subject: str, what: str) -> str | None:
        parts = subject.split(".")
        if tuple(parts[:2]) != _EVENT_PREFIX and subject != EVENTS_ALL:
            raise ValueError(f"{what} {subject!r} is not a floor event subject (sicbo.evt.…)")
        table = parts[2] if len(parts) > 2 else ">"
        return None if table in ("*", ">") else table

    def _one_table(self, subject: str, what: str) -> int:
        table = self._table_of(subject, what)
        if table is None:
            raise ValueError(
                f"{what} {subject!r} names no table: with {self.partitions} partitions an"
                " append or an expectation is on one table's stream"
            )
        return self.partition(table)

    def _stored(self, subject: str, partition: int) -> str:
        """The subject or filter as the partition's stream holds it."""
        if subject.endswith(">"):
            return subject
        return f"{subject}.{partition_token(partition, self.partitions)}"

    def _expect_on(self, expect: Expect | None, partition: int) -> Expect | None:
        if expect is None:
            return None
        if self._one_table(expect.filter_subject, "an expectation filter") != partition:
            raise ValueError(
                f"expectation on {expect.filter_subject!r} is about another table's stream"
                f" than the append's ({self.stream_of_partition(partition)})"
            )
        return Expect(self._stored(expect.filter_subject, partition), expect.last_sequence)

    def stream_of_partition(self, partition: int) -> str:
        return self.streams[partition].stream

    # -- appending ------------------------------------------------------------------------

    async def append(
        self,
        subject: str,
        data: bytes,
        *,
        expect: Expect | None = None,
        msg_id: str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Appended:
        p = self._one_table(subject, "subject")
        return await self.streams[p].append(
            self._stored(subject, p),
            data,
            expect=self._expect_on(expect, p),
            msg_id=msg_id,
            headers=headers,
        )

    async def append_messages(
        self, messages: Sequence[BatchMessage], *, expect: Expect | None = None
    ) -> list[Appended]:
        if not messages:
            raise ValueError("an atomic batch needs at least one message")
        partitions = {self._one_table(m.subject, "subject") for m in messages}
        if len(partitions) != 1:
            raise ValueError("an atomic batch is on one stream: every message of one partition")
        (p,) = partitions
        staged = [
            BatchMessage(self._stored(m.subject, p), m.data, m.msg_id, m.headers) for m in messages
        ]
        return await self.streams[p].append_messages(staged, expect=self._expect_on(expect, p))

    # -- reading --------------------------------------------------------------------------

    async def read(
        self,
        filter_subject: str,
        *,
        after_seq: int = 0,
        bulk: bool = False,
        headers: HeadersWanted = True,
    ) -> list[StoredEvent]:
        """One table's stream for a filter naming a table; every stream in turn otherwise
        (partition by partition, each in its order: sequences are per stream)."""
        table = self._table_of(filter_subject, "filter")
        if table is not None:
            p = self.partition(table)
            return _unpartitioned(
                await self.streams[p].read(
                    self._stored(filter_subject, p),
                    after_seq=after_seq,
                    bulk=bulk,
                    headers=headers,
                )
            )
        if after_seq:
            raise ValueError(
                f"after_seq on {filter_subject!r}: a sequence is one stream's, and this filter"
                f" reads all {self.partitions} partitions"
            )
        found: list[StoredEvent] = []
        for p, store in enumerate(self.streams):
            found.extend(
                _unpartitioned(
                    await store.read(self._stored(filter_subject, p), bulk=bulk, headers=headers)
                )
            )
        return found

    async def last_sequence(self, filter_subject: str) -> int:
        p = self._one_table(filter_subject, "filter")
        return await self.streams[p].last_sequence(self._stored(filter_subject, p))

    async def get(self, seq: int, *, table: str | None = None) -> StoredEvent | None:
        if table is None:
            raise ValueError(f"get({seq}) names no table: a sequence is one partition stream's")
        found = await self.streams[self.partition(table)].get(seq)
        return None if found is None else _unpartitioned([found])[0]


def _unpartitioned(events: list[StoredEvent]) -> list[StoredEvent]:
    return [
        StoredEvent(e.seq, without_partition(e.subject), e.data, e.headers, e.time) for e in events
    ]
