"""A table's log numbered like the stream, for settlement and what reads its log.

A :class:`Log` numbers the table's lifecycle and bets events 1, 2, 3... as the stream would,
each a minute after the one before from ``NOW``, built with the aggregates' own fact builders
(each stamped by the actor of the role that does it in the rules). Slips are placed by
``PLAYER`` for the player named.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sicbo.settlement.facts import RoundFacts, TableLog
from sicbo_contracts.base import Dice, Limits
from sicbo_contracts.lifecycle import LimitsChanged
from sicbo_contracts.wagers import CarriedChoice, Wager
from tests.support.common import OPERATOR, PLAYER, SUPERVISOR, TABLE, at, default_paytable, event
from tests.support.dice import confirmed, corrected, manual_mode_entered, manual_mode_left
from tests.support.lifecycle import (
    betting_closed,
    betting_opened,
    cancelled,
    completed,
    invalidated,
    no_result,
    round_started,
    table_opened,
    uncovered,
    wagers_voided,
)
from tests.support.wagers import Whose, changed, chosen, placed, withdrawn


def sign(unit: int) -> Limits:
    """The settlement tests' table sign: 10 to 100,000 in units of ``unit``."""
    return Limits(minimum=10, maximum=100_000, unit=unit)


@dataclass
class Log:
    """A table's lifecycle and bets events, numbered like the stream."""

    profile: str = "cca-1992"
    unit: int = 1
    paytable: str | None = None
    events: list[tuple[int, Any]] = field(default_factory=list)
    _seq: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _slips: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _minute: itertools.count[int] = field(default_factory=lambda: itertools.count(0))

    def __post_init__(self) -> None:
        opened = table_opened(
            self.profile, at=self._next_at(), by=OPERATOR, paytable=self.ref, limits=sign(self.unit)
        )
        self.add(opened)

    @property
    def ref(self) -> str:
        return self.paytable or default_paytable(self.profile)

    def _next_at(self) -> datetime:
        return at(next(self._minute))

    def add(self, fact: Any) -> int:
        """Append ``fact`` with the stream's next sequence; return the sequence."""
        seq = next(self._seq)
        self.events.append((seq, fact))
        return seq

    # -- the play of a round -----------------------------------------------------------------

    def start(self, round_no: int) -> Log:
        self.add(round_started(round_no, paytable=self.ref, at=self._next_at()))
        self.add(betting_opened(round_no, at=self._next_at()))
        return self

    def _whose(self, round_no: int, player: str) -> Whose:
        """``player``'s own slip in round ``round_no``, at the log's next minute."""
        return {"by": PLAYER, "player": player, "round_no": round_no, "at": self._next_at()}

    def slip(self, round_no: int, player: str, *wagers: Wager, slip_id: str | None = None) -> str:
        slip_id = slip_id or f"s{next(self._slips)}"
        self.add(placed(slip_id, wagers, **self._whose(round_no, player)))
        return slip_id

    def withdraw(self, round_no: int, player: str, slip_id: str, before: list[Wager]) -> None:
        self.add(withdrawn(slip_id, before, **self._whose(round_no, player)))

    def change(
        self, round_no: int, player: str, slip_id: str, before: list[Wager], after: list[Wager]
    ) -> None:
        self.add(changed(slip_id, before, after, **self._whose(round_no, player)))

    def choose(
        self,
        round_no: int,
        player: str,
        slip_id: str,
        choice: CarriedChoice,
        before: list[Wager],
        after: list[Wager],
    ) -> None:
        self.add(chosen(slip_id, choice, before, after, **self._whose(round_no, player)))

    def close(self, round_no: int) -> Log:
        self.add(betting_closed(round_no, at=self._next_at()))
        self.add(uncovered(round_no, at=self._next_at()))
        return self

    def confirm(self, round_no: int, dice: Dice) -> int:
        return self.add(confirmed(dice, round_no, at=self._next_at()))

    def correct(self, round_no: int, before: Dice, after: Dice) -> int:
        """A supervisor's correction in manual mode (GLI-19 §4.18.4, §C.6.8(o)); its seq."""
        reason = "reader showed otherwise"
        since = self._next_at()
        self.add(manual_mode_entered(reason, at=since))
        seq = self.add(corrected(before, after, reason, round_no, at=self._next_at()))
        self.add(manual_mode_left(since=since))
        return seq

    def no_result(self, round_no: int, consequence: str) -> int:
        return self.add(no_result(round_no, consequence, at=self._next_at()))

    def invalidate(self, round_no: int, *forfeits: str, fraud: bool = True) -> int:
        return self.add(invalidated(round_no, *forfeits, fraud=fraud, at=self._next_at()))

    def void_wagers(self, round_no: int, player: str) -> int:
        """A supervisor declares ``player``'s wagers in the round void (000 §8.3.1)."""
        return self.add(wagers_voided(round_no, player, at=self._next_at()))

    def cancel(self, round_no: int) -> int:
        return self.add(cancelled(round_no, at=self._next_at()))

    def complete(self, round_no: int, *players: str) -> int:
        return self.add(completed(round_no, *players, at=self._next_at()))

    def change_unit(self, unit: int) -> int:
        before, self.unit = sign(self.unit), unit
        return self.add(
            event(
                LimitsChanged,
                SUPERVISOR,
                at=self._next_at(),
                before=before,
                after=sign(unit),
                reason="sign",
            )
        )

    # -- reading ---------------------------------------------------------------------------

    def table_log(self) -> TableLog:
        table_log = TableLog(TABLE)
        for seq, fact in self.events:
            table_log.add(seq, fact)
        return table_log

    def facts(self, round_no: int, as_of: int | None = None) -> RoundFacts:
        facts = self.table_log().facts(round_no, as_of)
        assert facts is not None
        return facts
