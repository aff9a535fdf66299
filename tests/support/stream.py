"""A table's log as the stream stores it, settled; and the event store's read side over it.

:class:`StoredLog` wraps a :class:`~tests.support.log.Log` and appends the settlement's events
in the same sequence (the stream's sequence is shared by every aggregate), settled by the
settlement engine as the service would; :meth:`StoredLog.stored` gives every event encoded
under its subject. :class:`FakeStore` reads such a list like the event store does.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import msgspec

from sicbo.eventstore.records import StoredEvent
from sicbo.settlement.compensation import adjust, apply_adjustments, void
from sicbo.settlement.engine import settle
from sicbo.shell.codec import encode
from sicbo.shell.follower import Follower
from sicbo_contracts.base import Dice
from sicbo_contracts.settlement import SettlementAdjusted, WagerResult, WagersSettled
from sicbo_contracts.subjects import Aggregate, subject_matches, subject_of, table_filter
from tests.support.common import NOW, SERVICE, TABLE
from tests.support.log import Log


@dataclass(frozen=True)
class Stored:
    seq: int
    subject: str
    data: bytes
    time: datetime


class StoredLog:
    """Wraps a builder :class:`Log`; settlement events are appended in the same sequence."""

    def __init__(self, log: Log) -> None:
        self.log = log
        self.settle_events: list[tuple[int, str, Any]] = []  # (seq, aggregate, event)

    def _next_seq(self) -> int:
        return next(self.log._seq)  # the stream's sequence is shared by every aggregate

    def append_settle(self, event: Any) -> int:
        seq = self._next_seq()
        self.settle_events.append((seq, Aggregate.SETTLE.value, event))
        return seq

    def _append(self, events: list[Any]) -> list[Any]:
        for e in events:
            self.append_settle(e)
        return events

    def settle(self, round_no: int) -> list[Any]:
        return self._append(settle(self.log.facts(round_no), actor=SERVICE, at=NOW))

    def recorded(self, round_no: int) -> list[WagerResult]:
        parts = [e for _, _, e in self.settle_events if isinstance(e, WagersSettled)]
        adjusted = [e for _, _, e in self.settle_events if isinstance(e, SettlementAdjusted)]
        settled = [w for p in parts if p.round == round_no for w in p.wagers]
        return apply_adjustments(settled, [a for a in adjusted if a.round == round_no])

    def adjust(self, round_no: int, before: Dice, after: Dice, correction_seq: int) -> list[Any]:
        facts = self.log.facts(round_no)
        events = adjust(
            self.recorded(round_no),
            table=TABLE,
            round_no=round_no,
            paytable=facts.paytable,
            unit=facts.unit,
            before=before,
            after=after,
            correction_seq=correction_seq,
            actor=SERVICE,
            at=NOW,
            voided_players=facts.voided,
        )
        return self._append(events)

    def void(self, round_no: int, cancel_seq: int) -> list[Any]:
        """The round settled by its result was cancelled (004) or invalidated (000 §8.4):
        settlement refunds it all, but the wagers the invalidation forfeits (000 §8.5)."""
        voiding = self.log.table_log().cancellation(round_no)
        events = void(
            self.recorded(round_no),
            table=TABLE,
            round_no=round_no,
            cancel_seq=cancel_seq,
            reason="no quick fix",
            forfeits=voiding.forfeits if voiding is not None else (),
            actor=SERVICE,
            at=NOW,
        )
        return self._append(events)

    def stored(self) -> list[Stored]:
        rows: list[tuple[int, str, bytes]] = []
        for seq, event in self.log.events:
            aggregate = (
                Aggregate.BETS
                if type(event).__module__.endswith("wagers")
                else (Aggregate.LIFECYCLE)
            )
            rows.append((seq, subject_of(event, aggregate), encode(event)))
        for seq, _, event in self.settle_events:
            rows.append((seq, subject_of(event, Aggregate.SETTLE), encode(event)))
        rows.sort()
        return [Stored(s, subj, data, NOW + timedelta(seconds=s)) for s, subj, data in rows]


class FakeStore:
    """The event store's read side over a list, recording what was read (for the bounds)."""

    def __init__(self, stored: Sequence[Stored]) -> None:
        self.events = [
            StoredEvent(seq=e.seq, subject=e.subject, data=e.data, headers={}, time=e.time)
            for e in stored
        ]
        self.reads: list[tuple[str, int, int]] = []  # (filter, after_seq, events returned)
        self.lookups = 0

    def extend(self, stored: Sequence[Stored]) -> None:
        known = {e.seq for e in self.events}
        self.events += [
            StoredEvent(seq=e.seq, subject=e.subject, data=e.data, headers={}, time=e.time)
            for e in stored
            if e.seq not in known
        ]

    async def read(self, filter_subject: str, *, after_seq: int = 0) -> list[StoredEvent]:
        found = [
            e
            for e in self.events
            if e.seq > after_seq and subject_matches(e.subject, filter_subject)
        ]
        self.reads.append((filter_subject, after_seq, len(found)))
        return found

    async def last_sequence(self, filter_subject: str) -> int:
        self.lookups += 1
        return max(
            (e.seq for e in self.events if subject_matches(e.subject, filter_subject)), default=0
        )

    async def get(self, seq: int, *, table: str | None = None) -> StoredEvent | None:
        self.lookups += 1
        return next((e for e in self.events if e.seq == seq), None)


def list_follower(
    store: FakeStore,
    decoder: msgspec.json.Decoder[Any],
    item: Callable[[Any], int],
    *,
    clock: Callable[[], float] = time.monotonic,
) -> Follower[list[int]]:
    """A follower of each table over ``store`` whose state lists ``item(event)`` of every
    event folded, in order."""

    def fold(state: list[int], _: Any, event: Any) -> list[int]:
        return [*state, item(event)]

    return Follower(
        store,  # type: ignore[arg-type]  # the read side is all a follower uses
        name="test",
        filter_of=table_filter,
        initial=lambda _: [],
        evolve=fold,
        decoder=decoder,
        clock=clock,
    )
