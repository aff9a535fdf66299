"""A table's stored log for the board's tests: rounds played, settled and completed."""

from __future__ import annotations

from collections.abc import Sequence

from sicbo.eventstore.store import StoredEvent, subject_matches
from sicbo.settlement.engine import void
from sicbo_contracts.base import Dice
from sicbo_contracts.wagers import Wager
from tests.support.common import NOW, SERVICE
from tests.support.log import Log
from tests.support.wagers import chips
from tests.unit.replay.builders import TABLE, Stored, StoredLog

__all__ = ["TABLE", "Floor", "Stored", "chips"]

Slips = Sequence[tuple[str, Sequence[Wager]]]


class Floor:
    """One table's log, driven round by round like the services would write it."""

    def __init__(self, profile: str = "cca-1992") -> None:
        self.profile = profile
        self.stored_log = StoredLog(Log(profile=profile))
        self.log = self.stored_log.log
        self.next_round = 1

    def _open(self, slips: Slips) -> int:
        n = self.next_round
        self.next_round += 1
        self.log.start(n)
        for player, wagers in slips:
            self.log.slip(n, player, *wagers)
        self.log.close(n)
        return n

    def _finish(self, n: int, settle: bool, complete: bool) -> int:
        if settle:
            self.stored_log.settle(n)
            if complete:
                self.log.complete(n)
        return n

    def result(
        self, dice: Dice, slips: Slips = (), *, settle: bool = True, complete: bool = True
    ) -> int:
        n = self._open(slips)
        self.log.confirm(n, dice)
        return self._finish(n, settle, complete)

    def no_result(self, slips: Slips = (), *, consequence: str = "refund") -> int:
        n = self._open(slips)
        self.log.no_result(n, consequence)
        return self._finish(n, True, True)

    def invalidated(self, slips: Slips = (), *forfeits: str) -> int:
        n = self._open(slips)
        self.log.invalidate(n, *forfeits)
        return self._finish(n, True, True)

    def cancelled(self, slips: Slips = ()) -> int:
        n = self._open(slips)
        self.log.cancel(n)
        return self._finish(n, True, True)

    def in_progress(self, slips: Slips = ()) -> int:
        n = self.next_round
        self.next_round += 1
        self.log.start(n)
        for player, wagers in slips:
            self.log.slip(n, player, *wagers)
        return n

    def correct(self, n: int, before: Dice, after: Dice, *, adjust: bool = True) -> int:
        seq = self.log.correct(n, before, after)
        if adjust:
            self.stored_log.adjust(n, before, after, seq)
        return seq

    def cancel_after_result(self, n: int) -> int:
        """004: a round settled by its result, then cancelled; settlement refunds it all."""
        seq = self.log.cancel(n)
        for event in void(
            self.stored_log.recorded(n),
            table=TABLE,
            round_no=n,
            cancel_seq=seq,
            reason="no quick fix",
            actor=SERVICE,
            at=NOW,
        ):
            self.stored_log.append_settle(event)
        return seq

    def stored(self) -> list[Stored]:
        return self.stored_log.stored()


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

    async def get(self, seq: int) -> StoredEvent | None:
        self.lookups += 1
        return next((e for e in self.events if e.seq == seq), None)
