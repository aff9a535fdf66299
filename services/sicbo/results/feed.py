"""The results feed shell: project a table's stored outcomes onto its public subject, once each.

The public subject ``sicbo.results.<table>`` is a projection of the table's lifecycle log: its
source events (:mod:`.project`) in log order, one message each. Whatever message of a table
arrives (a first delivery, a redelivery, another replica's share, an event long past), the feed
brings the projection up to that event:

1. it knows (or reads) the last message on the table's results subject and the source sequence
   that message was made from;
2. its follower reads the table's lifecycle events after that source sequence from the log
   (only stored events are ever published: GLI-19 §C.6.4(d)), at least up to the event, and
   it publishes each source event not published yet, in order;
3. every publish expects the last sequence of the table's results subject as read
   (``Nats-Expected-Last-Subject-Sequence``) and carries ``Nats-Msg-Id: result-<source seq>``.

A message that replaces an earlier one of its round names it (``supersedes``: the source
sequence of the round's latest earlier outcome), from the outcomes of the round the fold has
seen since its ``RoundStarted``, or else from the round's own events in the log (a correction
of a round long past).

The feed reads and expects the exact subject ``sicbo.results.<table>``, never a wildcard:
the table's heartbeats (``sicbo.results.<table>.heartbeat``, :mod:`.heartbeat`) live beside it
on the same stream and never move what the feed reads as its last message.

So the server itself makes each message exist once: a replica that raced ahead makes the
others' expectation fail (they re-read and find the event published), a retry inside the
duplicate window is a duplicate, and a redelivery older than the window finds its source
sequence at or below the last published one and publishes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import msgspec
from nats.aio.client import Client as NATS

from sicbo.eventstore.errors import AppendConflict
from sicbo.eventstore.partitioned import FloorLog
from sicbo.eventstore.records import Expect, StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.results.project import (
    ROUND_STARTED,
    is_source,
    round_result,
    round_started_decoder,
    source_decoder,
    superseded,
)
from sicbo.shell.codec import encode
from sicbo.shell.follower import Follower, Start
from sicbo.shell.quarantine import admitted
from sicbo.shell.reacting import NotDone
from sicbo_contracts.base import DECODE_ERRORS
from sicbo_contracts.results import RoundResult
from sicbo_contracts.subjects import (
    RESULTS_STREAM,
    Aggregate,
    aggregate_filter,
    parse_event_subject,
    results,
    round_filter,
)
from sicbo_contracts.subjects import event as event_subject

log = logging.getLogger(__name__)

#: Read-publish cycles before a job is handed back for redelivery (each conflict costs one).
ATTEMPTS = 8
#: Paytable references kept per table: rounds this far behind the newest are re-read if needed.
KEEP_ROUNDS = 50


#: The feed's own messages, as partners read them: a message on ``sicbo.results.<table>`` that
#: is not one (a forged or misdirected entry) is skipped (sicbo.shell.quarantine).
_head = msgspec.json.Decoder(RoundResult)
_HEAD_READER = "results (feed head)"


def public_store(nc: NATS) -> EventStore:
    """The public results stream as the feed appends to it: without the floor's trace context
    (``traceparent``), since partners read it and the floor's insides stay inside."""
    return EventStore(nc, RESULTS_STREAM, carry_trace=False)


def msg_id(source_seq: int, table: str | None = None) -> str:
    """The result's command id: its source's sequence, which on a partitioned log is one
    partition stream's, so there the table's name is in it too (two tables of two streams
    share sequences)."""
    return f"result-{source_seq}" if table is None else f"result-{table}-{source_seq}"


async def last_published(results_store: EventStore, table: str) -> tuple[int, int]:
    """The table's last message on its exact subject ``sicbo.results.<table>`` (never the
    heartbeats beside it): its results-stream sequence and the source sequence it was made
    from; ``(0, 0)`` before the first."""
    last = await results_store.last_sequence(results(table))
    if not last:
        return 0, 0
    found = await results_store.get(last)
    if found is None:
        raise NotDone(f"results message {last} of {table} vanished")
    head = admitted(_HEAD_READER, found, _head)
    if head is None or head.table != table:
        # Not one of the feed's results (issue 25): the last one that is, before it. The
        # next result still expects the subject's last sequence, whatever it holds.
        kept = [admitted(_HEAD_READER, s, _head) for s in await results_store.read(results(table))]
        heads = [h for h in kept if h is not None and h.table == table]
        return last, heads[-1].source_seq if heads else 0
    return last, head.source_seq


@dataclass
class TableFeed:
    table: str
    known: bool = False  # head read from the results stream at least once
    seq: int = 0  # last message on sicbo.results.<table> (its results stream sequence)
    source_seq: int = 0  # the floor-log sequence that message was made from
    paytables: dict[int, str] = field(default_factory=dict)  # round -> paytable reference
    #: round -> source sequences of its outcomes: every one, for a round whose RoundStarted
    #: was folded (or whose events were read from the log), so ``supersedes`` can be told.
    outcomes: dict[int, set[int]] = field(default_factory=dict)
    #: Source events read from the log, in log order, not known to be published yet.
    pending: list[tuple[int, Any]] = field(default_factory=list)

    def trim(self) -> None:
        self.pending = [(seq, e) for seq, e in self.pending if seq > self.source_seq]
        newest = max([*self.paytables, *self.outcomes], default=0)
        for kept in (self.paytables, self.outcomes):
            for old in [r for r in kept if r < newest - KEEP_ROUNDS]:
                del kept[old]


def _fold(feed: TableFeed, stored: StoredEvent, _: Any) -> TableFeed:
    subject = parse_event_subject(stored.subject)
    if subject is None:
        return feed
    if subject.token == ROUND_STARTED:
        try:
            started = round_started_decoder.decode(stored.data)
        except DECODE_ERRORS:  # looked up again if a result of its round needs it
            log.warning("unreadable RoundStarted seq=%s on %s", stored.seq, stored.subject)
        else:
            feed.paytables[started.round] = started.paytable
        feed.outcomes.setdefault(subject.round, set())  # every outcome of it comes after
    elif is_source(subject):
        source = admitted("results", stored, source_decoder)  # or skipped, named once
        if source is None:
            return feed
        feed.pending.append((stored.seq, source))
        if subject.round in feed.outcomes:
            feed.outcomes[subject.round].add(stored.seq)
    return feed


def acts_on(subject: str) -> bool:
    """Whether :meth:`Feed.on_event` does anything for an event of this subject."""
    parsed = parse_event_subject(subject)
    return parsed is not None and is_source(parsed)


class Feed:
    def __init__(
        self, log_store: EventStore, results_store: EventStore, clock: Callable[[], datetime]
    ) -> None:
        self._log = log_store
        self._partitioned = isinstance(log_store, FloorLog)
        self._results = results_store
        self._clock = clock
        self._feeds: Follower[TableFeed] = Follower(
            log_store,
            "results feed",
            lambda table: aggregate_filter(table, Aggregate.LIFECYCLE),
            TableFeed,
            _fold,
            start=self._start,
            trim=TableFeed.trim,
        )

    async def on_event(self, subject: str, seq: int) -> int:
        """React to one stored lifecycle event; returns how many messages this call published.

        Raises :class:`NotDone` (or a store error) when the job must be redelivered."""
        parsed = parse_event_subject(subject)
        if parsed is None or not is_source(parsed):
            return 0
        table = parsed.table
        async with self._feeds.lock(table):
            known = self._feeds.peek(table)
            if known is not None and known.state.source_seq >= seq:
                return 0  # published already (the projection only ever grows)
            return await self._publish_up_to(table, seq)

    async def _publish_up_to(self, table: str, upto: int) -> int:
        published = 0
        for _ in range(ATTEMPTS):
            # Only stored events, at least up to the one delivered (a lagging replica's read
            # is read again, or the job redelivered).
            feed = (await self._feeds.get(table, at_least=upto)).state
            if not feed.known:
                await self._read_head(feed)
            feed.trim()
            try:
                while feed.pending:
                    seq, source = feed.pending[0]
                    published += await self._project(feed, seq, source)
                    feed.pending.pop(0)
            except AppendConflict:
                feed.known = False  # someone else published: read the head again
                continue
            if feed.source_seq >= upto:
                return published
            feed.known = False
        raise NotDone(f"results of {table} did not reach sequence {upto}")

    async def _start(self, table: str) -> Start[TableFeed]:
        """A table's feed begins at the source of its last published message."""
        feed = TableFeed(table)
        await self._read_head(feed)
        return Start(feed, feed.source_seq)

    async def _read_head(self, feed: TableFeed) -> None:
        feed.seq, feed.source_seq = await last_published(self._results, feed.table)
        feed.known = True

    async def _project(self, feed: TableFeed, source_seq: int, source: Any) -> int:
        result = round_result(
            source,
            paytable=await self._paytable(feed, source.round),
            source_seq=source_seq,
            published_at=self._clock(),
            supersedes=superseded(await self._outcomes(feed, source.round), source_seq),
        )
        subject = results(feed.table)
        appended = await self._results.append(
            subject,
            encode(result),
            expect=Expect(subject, feed.seq),
            msg_id=msg_id(source_seq, feed.table if self._partitioned else None),
        )
        feed.seq, feed.source_seq = appended.seq, source_seq
        if appended.duplicate:
            return 0
        log.info(
            "published %s of %s round %s (source %s)",
            result.status.value,
            feed.table,
            result.round,
            source_seq,
        )
        return 1

    async def _paytable(self, feed: TableFeed, round_no: int) -> str:
        ref = feed.paytables.get(round_no)
        if ref is None:
            found = await self._log.read(
                event_subject(feed.table, Aggregate.LIFECYCLE, round_no, ROUND_STARTED)
            )
            if not found:
                raise NotDone(f"round {round_no} of {feed.table} has no RoundStarted")
            ref = round_started_decoder.decode(found[-1].data).paytable
            feed.paytables[round_no] = ref
        return ref

    async def _outcomes(self, feed: TableFeed, round_no: int) -> set[int]:
        """The source sequences of the round's outcomes (for ``supersedes``): as folded since
        its RoundStarted, else read from the round's own events (a correction of a round the
        fold began after, or trimmed)."""
        known = feed.outcomes.get(round_no)
        if known is None:
            stored = await self._log.read(round_filter(feed.table, Aggregate.LIFECYCLE, round_no))
            known = feed.outcomes[round_no] = {e.seq for e in stored if is_source(e.subject)}
        return known
