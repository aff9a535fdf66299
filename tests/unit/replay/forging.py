"""A table's log as the services store it, with messages forged into it (for the invariants).

:class:`Forgery` wraps the stored log of :mod:`tests.support.stream` (lifecycle and bets
events from a :class:`~tests.support.log.Log`, settlements by the engine) and lets a test store
any message in the same sequence, on any subject, as an append straight to the stream would:
``forge(event)`` on its owner's subject, ``forge(event, aggregate)`` on another's, or
``forge_raw(subject, data)``.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sicbo.replay.findings import Finding
from sicbo.replay.invariants import check_log
from sicbo.replay.owners import OWNER
from sicbo.shell.codec import encode
from sicbo_contracts.base import Dice, tag_of
from sicbo_contracts.subjects import Aggregate, subject_of
from tests.support.common import NOW, TABLE
from tests.support.log import Log
from tests.support.stream import Stored, StoredLog
from tests.support.wagers import chips


class Forgery:
    def __init__(self, profile: str = "cca-1992") -> None:
        self.log = Log(profile=profile)
        self.stored = StoredLog(self.log)
        self.raw: list[Stored] = []

    def next_seq(self) -> int:
        return next(self.log._seq)  # the stream's sequence, shared by every aggregate

    def forge_raw(self, subject: str, data: bytes) -> int:
        seq = self.next_seq()
        self.raw.append(Stored(seq, subject, data, NOW + timedelta(seconds=seq)))
        return seq

    def forge(self, event: Any, aggregate: Aggregate | None = None) -> int:
        """Store ``event`` on its owner's subject, or on ``aggregate``'s."""
        return self.forge_raw(subject_of(event, aggregate or OWNER[tag_of(event)]), encode(event))

    # -- play ---------------------------------------------------------------------------------

    def play(self, round_no: int, dice: Dice = (2, 3, 5), *, complete: bool = True) -> str:
        """Round ``round_no`` played as the services would: a slip of ann's, settled and (unless
        told) completed; the slip's id."""
        self.log.start(round_no)
        slip = self.log.slip(round_no, "ann", chips("big", 100), chips("total:10", 20))
        self.log.close(round_no)
        self.log.confirm(round_no, dice)
        self.stored.settle(round_no)
        if complete:
            self.log.complete(round_no, "ann")
        return slip

    # -- reading ------------------------------------------------------------------------------

    def messages(self) -> list[Stored]:
        return sorted([*self.stored.stored(), *self.raw], key=lambda e: e.seq)

    def findings(self) -> list[Finding]:
        return check_log(self.messages()).get(TABLE, [])

    def found(self) -> list[tuple[int, str]]:
        """(seq, check) of every finding."""
        return [(f.seq, f.check) for f in self.findings()]
