"""``supersedes``: which earlier message of its round each published message replaces.

The feed runs over an in-memory log and an in-memory results stream that checks the feed's
expectations as the server does. A correction of a round long past and an invalidation of a
round already paid name the message they replace, whether the feed folded the round since its
start or begins after it (a restarted feed) and reads the round's events from the log.
"""

from __future__ import annotations

from typing import Any

import msgspec

from sicbo.eventstore.errors import AppendConflict
from sicbo.eventstore.records import Appended, Expect, StoredEvent
from sicbo.results.feed import Feed
from sicbo.shell.codec import encode
from sicbo_contracts.dice import ResultConfirmed, ResultCorrected
from sicbo_contracts.lifecycle import InvalidationReason, RoundInvalidated, RoundStarted
from sicbo_contracts.results import PublicResult, ResultStatus, RoundResult
from sicbo_contracts.subjects import Aggregate, heartbeat, results, subject_matches, subject_of
from tests.support.common import DEALER, NOW, SUPERVISOR

TABLE = "T1"
PAYTABLE = "cca-1992@v1"
_result = msgspec.json.Decoder(PublicResult)


class MemoryStream:
    """A stream in memory: reads by filter, appends checked against the expected last
    sequence of a filter (``Nats-Expected-Last-Subject-Sequence-Subject``)."""

    def __init__(self) -> None:
        self.events: list[StoredEvent] = []

    def _matching(self, filter_subject: str) -> list[StoredEvent]:
        return [e for e in self.events if subject_matches(e.subject, filter_subject)]

    async def read(self, filter_subject: str, *, after_seq: int = 0) -> list[StoredEvent]:
        return [e for e in self._matching(filter_subject) if e.seq > after_seq]

    async def last_sequence(self, filter_subject: str) -> int:
        return max((e.seq for e in self._matching(filter_subject)), default=0)

    async def get(self, seq: int, *, table: str | None = None) -> StoredEvent | None:
        return next((e for e in self.events if e.seq == seq), None)

    async def append(
        self,
        subject: str,
        data: bytes,
        *,
        expect: Expect | None = None,
        msg_id: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Appended:
        if expect is not None:
            actual = await self.last_sequence(expect.filter_subject)
            if actual != expect.last_sequence:
                raise AppendConflict(f"wrong last sequence: {actual}")
        seq = len(self.events) + 1
        hdrs = {**(headers or {}), **({"Nats-Msg-Id": msg_id} if msg_id else {})}
        self.events.append(StoredEvent(seq, subject, data, hdrs, NOW))
        return Appended(seq)


def started(round_no: int) -> RoundStarted:
    return RoundStarted(
        table=TABLE, actor=DEALER, at=NOW, round=round_no, tumbles=3, paytable=PAYTABLE
    )


def confirmed(round_no: int, dice: tuple[int, int, int]) -> ResultConfirmed:
    return ResultConfirmed(
        table=TABLE, actor=DEALER, at=NOW, round=round_no, dice=dice, total=sum(dice),
        entered_by=DEALER.id,
    )  # fmt: skip


def corrected(round_no: int, before: tuple[int, int, int], after: tuple[int, int, int]) -> Any:
    return ResultCorrected(
        table=TABLE, actor=SUPERVISOR, at=NOW, round=round_no, before=before, after=after,
        reason="camera review",
    )  # fmt: skip


def invalidated(round_no: int) -> RoundInvalidated:
    return RoundInvalidated(
        table=TABLE, actor=SUPERVISOR, at=NOW, round=round_no, reason=InvalidationReason.FRAUD,
        detail="past-posting seen on camera",
    )  # fmt: skip


def store(log: MemoryStream, event: Any) -> StoredEvent:
    seq = len(log.events) + 1
    stored = StoredEvent(seq, subject_of(event, Aggregate.LIFECYCLE), encode(event), {}, NOW)
    log.events.append(stored)
    return stored


async def feed_all(feed: Feed, events: list[StoredEvent]) -> None:
    for e in events:
        await feed.on_event(e.subject, e.seq)


def published(stream: MemoryStream) -> list[RoundResult]:
    return [_result.decode(e.data) for e in stream.events if e.subject == results(TABLE)]


def play_three_rounds(log: MemoryStream) -> list[StoredEvent]:
    """Rounds 1-3 started and confirmed: seqs 1-6, the results at 2, 4 and 6."""
    return [
        store(log, e)
        for n, dice in ((1, (5, 5, 4)), (2, (1, 2, 3)), (3, (6, 6, 6)))
        for e in (started(n), confirmed(n, dice))
    ]


def later_outcomes(log: MemoryStream) -> list[StoredEvent]:
    """Round 1 corrected twice after round 3, then round 3 (paid) invalidated."""
    return [
        store(log, corrected(1, (4, 5, 5), (4, 5, 6))),  # seq 7
        store(log, corrected(1, (4, 5, 6), (3, 5, 6))),  # seq 8
        store(log, invalidated(3)),  # seq 9
    ]


def chain(stream: MemoryStream) -> list[tuple[int, ResultStatus, int, int | None]]:
    return [(r.round, r.status, r.source_seq, r.supersedes) for r in published(stream)]


EXPECTED = [
    (1, ResultStatus.RESULT, 2, None),
    (2, ResultStatus.RESULT, 4, None),
    (3, ResultStatus.RESULT, 6, None),
    (1, ResultStatus.CORRECTION, 7, 2),  # round 1's correction, two rounds later
    (1, ResultStatus.CORRECTION, 8, 7),  # the next one replaces the first correction
    (3, ResultStatus.INVALIDATED, 9, 6),  # an invalidation after the round was paid
]


async def test_a_feed_that_folded_the_rounds_names_what_each_message_supersedes() -> None:
    log, stream = MemoryStream(), MemoryStream()
    feed = Feed(log, stream, lambda: NOW)  # type: ignore[arg-type]
    await feed_all(feed, play_three_rounds(log))
    await feed_all(feed, later_outcomes(log))
    assert chain(stream) == EXPECTED


async def test_a_restarted_feed_reads_the_superseded_message_of_a_round_from_the_log() -> None:
    """The fresh feed begins after the last published source (6): it never folded the
    rounds' RoundStarted, and finds what each later outcome replaces in the round's events."""
    log, stream = MemoryStream(), MemoryStream()
    await feed_all(Feed(log, stream, lambda: NOW), play_three_rounds(log))  # type: ignore[arg-type]
    restarted = Feed(log, stream, lambda: NOW)  # type: ignore[arg-type]
    await feed_all(restarted, later_outcomes(log))
    assert chain(stream) == EXPECTED


async def test_heartbeats_beside_the_results_leave_what_the_feed_reads_as_published() -> None:
    """A heartbeat stored on ``sicbo.results.T1.heartbeat`` after the last result: a fresh
    feed still finds its last published source on ``sicbo.results.T1`` and goes on once."""
    log, stream = MemoryStream(), MemoryStream()
    await feed_all(Feed(log, stream, lambda: NOW), play_three_rounds(log))  # type: ignore[arg-type]
    stream.events.append(StoredEvent(len(stream.events) + 1, heartbeat(TABLE), b"{}", {}, NOW))
    restarted = Feed(log, stream, lambda: NOW)  # type: ignore[arg-type]
    redelivered = list(log.events)  # already published: nothing new
    assert [await restarted.on_event(e.subject, e.seq) for e in redelivered] == [0] * 6
    later = later_outcomes(log)
    assert await restarted.on_event(later[-1].subject, later[-1].seq) == 3  # all three, once
    await feed_all(restarted, later)
    assert chain(stream) == EXPECTED
