"""One table's log written round by round, as the services would write it: for the tests of
what reads a table's whole log (the board)."""

from __future__ import annotations

from collections.abc import Sequence

from sicbo_contracts.base import Dice
from sicbo_contracts.wagers import Wager
from tests.support.log import Log
from tests.support.stream import Stored, StoredLog

#: The slips of a round: (player, their wagers) for each.
Slips = Sequence[tuple[str, Sequence[Wager]]]


class Floor:
    """One table's log, driven round by round like the services would write it."""

    def __init__(self, profile: str = "cca-1992") -> None:
        self.profile = profile
        self.stored_log = StoredLog(Log(profile=profile))
        self.log = self.stored_log.log
        self.next_round = 1

    def in_progress(self, slips: Slips = ()) -> int:
        """A round started with ``slips`` placed, betting still open."""
        n = self.next_round
        self.next_round += 1
        self.log.start(n)
        for player, wagers in slips:
            self.log.slip(n, player, *wagers)
        return n

    def _open(self, slips: Slips) -> int:
        n = self.in_progress(slips)
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

    def correct(self, n: int, before: Dice, after: Dice, *, adjust: bool = True) -> int:
        seq = self.log.correct(n, before, after)
        if adjust:
            self.stored_log.adjust(n, before, after, seq)
        return seq

    def cancel_after_result(self, n: int) -> int:
        """004: a round settled by its result, then cancelled; settlement refunds it all."""
        seq = self.log.cancel(n)
        self.stored_log.void(n, seq)
        return seq

    def stored(self) -> list[Stored]:
        return self.stored_log.stored()
