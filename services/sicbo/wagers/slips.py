"""The slips of a table as wager intake keeps them, and the rows settlement reads (pure data).

:class:`Slip` is one copy of a bet slip as it stands in one round; :class:`StandingWager` a row
of :func:`sicbo.wagers.state.wagers_of_round`; :class:`CurrentRound` the round taking wagers.
"""

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import NamedTuple

from sicbo.game.profiles import NoResultPolicy
from sicbo.wagers.exposure import Exposure
from sicbo_contracts.wagers import CarriedChoice, SlipStatus, Wager


class Betting(StrEnum):
    """Betting of the current round."""

    NOT_OPEN = "not open yet"  # started, "place your bets" not called yet (000 §5.1)
    OPEN = "open"
    CLOSED = "closed"  # "no more bets" (000 §5.2, §3.9), or the round ended or the table closed


@dataclass(frozen=True, slots=True)
class CurrentRound:
    """The latest round started at the table."""

    number: int
    paytable: str  # the paytable ref the round is played under (RoundStarted)
    betting: Betting = Betting.NOT_OPEN
    closes_at: datetime | None = None  # the online countdown's end (004), else None
    voided: frozenset[str] = frozenset()  # players whose wagers here are void (000 §8.3.1)
    #: What the standing wagers would win on each result, where the table has a maximum
    #: payout per round (:mod:`sicbo.wagers.exposure`); None where it has none.
    exposure: Exposure | None = None


@dataclass(frozen=True, slots=True)
class Slip:
    """One bet slip, as it stands in ``round``."""

    slip_id: str
    player: str
    round: int  # the round this copy stands in
    placed_round: int
    wagers: tuple[Wager, ...]
    order: int  # placement order at the table (log order): listings are sorted by it
    #: Slip commands applied: placed = 1. The next command's msg id names ``version + 1``.
    version: int = 1
    status: SlipStatus = SlipStatus.ACTIVE
    #: Set when carried into ``round`` after "no result" in an earlier round.
    carried_under: NoResultPolicy | None = None
    choice: CarriedChoice | None = None  # the player's latest choice (002/2004 art. 3(4))

    @property
    def carried(self) -> bool:
        return self.carried_under is not None


class StandingWager(NamedTuple):
    """One wager standing in a round: a row of :func:`wagers_of_round`."""

    slip_id: str
    player: str
    #: The wager's position on its slip as it stands in the round (WagerResult.index). It
    #: shadows tuple.index on purpose: the name is the one the settlement contract uses.
    index: int  # type: ignore[assignment]
    wager: Wager
    carried: bool  # carried into this round from a void one (002 art. 3(3)(4), 004)
