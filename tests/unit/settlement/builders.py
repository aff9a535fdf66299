"""Given a table's log, when settled, then these wager results: builders that read like rules.

A :class:`Log` numbers events as the stream would (1, 2, 3, ...) and stamps them with the
actor of the role that does it in the rules, at ``at(minutes)``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sicbo.settlement.engine import RoundFacts, TableLog
from sicbo_contracts.base import Actor, Dice, Limits, Role
from sicbo_contracts.dice import ResultConfirmed, ResultCorrected
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    InvalidationReason,
    LimitsChanged,
    NoResultDeclared,
    NoResultReason,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    RoundStarted,
    TableConfig,
    TableOpened,
    Uncovered,
)
from sicbo_contracts.wagers import (
    CarriedChoice,
    CarriedSlipChosen,
    Medium,
    SlipChanged,
    SlipPlaced,
    SlipWithdrawn,
    Wager,
)

TABLE = "T1"
NOW = datetime(2024, 6, 3, 20, 0, tzinfo=UTC)
PROFILES = ("cca-1992", "macau-2003", "macau-2004", "online-live")
SERVICE = Actor(id="settlement", role=Role.SERVICE)

__all__ = ["CarriedChoice", "Log", "chips", "color", "promo"]


def at(minutes: float = 0) -> datetime:
    return NOW + timedelta(minutes=minutes)


def actor(role: Role) -> Actor:
    return Actor(id=f"{role.value}-1", role=role)


def chips(bet: str, stake: int) -> Wager:
    return Wager(bet=bet, stake=stake)


def promo(bet: str, stake: int) -> Wager:
    return Wager(bet=bet, stake=stake, medium=Medium.PROMO)


def color(bet: str, stake: int, check: str = "red") -> Wager:
    return Wager(bet=bet, stake=stake, medium=Medium.COLOR, color=check)


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
        limits = Limits(minimum=10, maximum=100_000, unit=self.unit)
        config = TableConfig(profile=self.profile, limits=limits)
        self.add(TableOpened, Role.OPERATOR, config=config, paytable=self.ref)

    @property
    def ref(self) -> str:
        return self.paytable or f"{self.profile}@v1"

    def add(self, kind: type, role: Role, **fields: Any) -> int:
        seq = next(self._seq)
        event = kind(table=TABLE, actor=actor(role), at=at(next(self._minute)), **fields)
        self.events.append((seq, event))
        return seq

    # -- the play of a round -----------------------------------------------------------------

    def start(self, round_no: int) -> Log:
        self.add(RoundStarted, Role.DEALER, round=round_no, tumbles=3, paytable=self.ref)
        self.add(BettingOpened, Role.DEALER, round=round_no)
        return self

    def slip(self, round_no: int, player: str, *wagers: Wager, slip_id: str | None = None) -> str:
        slip_id = slip_id or f"s{next(self._slips)}"
        self.add(
            SlipPlaced,
            Role.PLAYER,
            round=round_no,
            slip_id=slip_id,
            player=player,
            wagers=list(wagers),
        )
        return slip_id

    def withdraw(self, round_no: int, player: str, slip_id: str, before: list[Wager]) -> None:
        self.add(
            SlipWithdrawn,
            Role.PLAYER,
            round=round_no,
            slip_id=slip_id,
            player=player,
            before=before,
        )

    def change(
        self, round_no: int, player: str, slip_id: str, before: list[Wager], after: list[Wager]
    ) -> None:
        self.add(
            SlipChanged,
            Role.PLAYER,
            round=round_no,
            slip_id=slip_id,
            player=player,
            before=before,
            after=after,
        )

    def choose(
        self,
        round_no: int,
        player: str,
        slip_id: str,
        choice: CarriedChoice,
        before: list[Wager],
        after: list[Wager],
    ) -> None:
        self.add(
            CarriedSlipChosen,
            Role.PLAYER,
            round=round_no,
            slip_id=slip_id,
            player=player,
            choice=choice,
            before=before,
            after=after,
        )

    def close(self, round_no: int) -> Log:
        self.add(BettingClosed, Role.DEALER, round=round_no)
        self.add(Uncovered, Role.DEALER, round=round_no)
        return self

    def confirm(self, round_no: int, dice: Dice) -> int:
        ordered = tuple(sorted(dice))
        return self.add(
            ResultConfirmed,
            Role.DEALER,
            round=round_no,
            dice=ordered,
            total=sum(dice),
            entered_by="dealer-1",
        )

    def correct(self, round_no: int, before: Dice, after: Dice) -> int:
        return self.add(
            ResultCorrected,
            Role.SUPERVISOR,
            round=round_no,
            before=tuple(sorted(before)),
            after=tuple(sorted(after)),
            reason="reader showed otherwise",
        )

    def no_result(self, round_no: int, consequence: str) -> int:
        return self.add(
            NoResultDeclared,
            Role.DEALER,
            round=round_no,
            reason=NoResultReason.DICE_NOT_FLAT,
            consequence=consequence,
        )

    def invalidate(self, round_no: int, *forfeits: str, fraud: bool = True) -> int:
        reason = InvalidationReason.FRAUD if fraud else InvalidationReason.FIRE
        return self.add(
            RoundInvalidated,
            Role.SUPERVISOR,
            round=round_no,
            reason=reason,
            detail="supervisor's report",
            forfeits=list(forfeits),
        )

    def cancel(self, round_no: int) -> int:
        return self.add(RoundCancelled, Role.SUPERVISOR, round=round_no, reason="no quick fix")

    def complete(self, round_no: int, *players: str) -> int:
        return self.add(RoundCompleted, Role.SERVICE, round=round_no, players=list(players))

    def change_unit(self, unit: int) -> int:
        before = Limits(minimum=10, maximum=100_000, unit=self.unit)
        after = Limits(minimum=10, maximum=100_000, unit=unit)
        self.unit = unit
        return self.add(LimitsChanged, Role.SUPERVISOR, before=before, after=after, reason="sign")

    # -- reading ---------------------------------------------------------------------------

    def table_log(self) -> TableLog:
        table_log = TableLog(TABLE)
        for seq, event in self.events:
            table_log.add(seq, event)
        return table_log

    def facts(self, round_no: int, as_of: int | None = None) -> RoundFacts:
        facts = self.table_log().facts(round_no, as_of)
        assert facts is not None
        return facts
