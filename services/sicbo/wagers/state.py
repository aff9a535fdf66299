"""The state of wager intake at one table, folded from its lifecycle and bets aggregates by
:mod:`sicbo.wagers.evolve`.

Slips are kept in :class:`~sicbo.wagers.pmap.PMap` (cheap immutable updates) twice: the latest
copy of every slip ever placed (``slips``: ids are unique at a table, versions for the msg id)
and, per round, the copies standing in it (``books``). A slip carried over a void round stands
in both rounds: in the void one as it stood when "no result" was declared, and in the re-run
as finally chosen (002/2003 art. 3(3), 002/2004 art. 3(4), 004). :func:`wagers_of_round` lists
a round's book for settlement.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from operator import attrgetter
from types import MappingProxyType
from typing import NamedTuple, TypeVar

from sicbo.game.profiles import NoResultPolicy
from sicbo.wagers.exposure import Exposure
from sicbo.wagers.pmap import PMap
from sicbo_contracts.base import Limits
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.lifecycle import LifecycleEvent
from sicbo_contracts.wagers import CarriedChoice, SlipStatus, Wager, WagerEvent

K = TypeVar("K")
V = TypeVar("V")


Fact = LifecycleEvent | DiceEvent | WagerEvent


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


@dataclass(frozen=True, slots=True)
class Holding:
    """One player's colour checks of one colour at this table (000 §3.3-3.8)."""

    marker_value: int  # the value of one check, on the player's marker button (000 §3.7)
    issued: int
    redeemed: int = 0

    @property
    def outstanding(self) -> int:
        """Issued and not redeemed. Checks lost on the layout or paid as winnings are not
        tracked: the dealer records winnings paid in colour checks as a new issue."""
        return self.issued - self.redeemed


class StandingWager(NamedTuple):
    """One wager standing in a round: a row of :func:`wagers_of_round`."""

    slip_id: str
    player: str
    #: The wager's position on its slip as it stands in the round (WagerResult.index). It
    #: shadows tuple.index on purpose: the name is the one the settlement contract uses.
    index: int  # type: ignore[assignment]
    wager: Wager
    carried: bool  # carried into this round from a void one (002 art. 3(3)(4), 004)


def empty() -> Mapping[K, V]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class WagerState:
    """What wager intake knows of one table."""

    table: str
    table_open: bool = False  # TableOpened and not TableClosed since
    profile: str | None = None
    limits: Limits | None = None  # the table sign in force (000 §4.1, §4.3)
    player_limits: Mapping[str, Limits] = field(default_factory=empty)  # 000 §4.4
    max_payout: int | None = None  # TableConfig.max_payout_per_round (a house limit)
    suspended: bool = False  # an equipment fault not yet cleared (000 §7.7; 004)
    excluded: frozenset[str] = frozenset()  # players excluded from the game (000 §8.3.2)
    round: CurrentRound | None = None
    slips: PMap[str, Slip] = field(default_factory=PMap)  # every slip ever placed, latest copy
    books: PMap[int, PMap[str, Slip]] = field(default_factory=PMap)  # round -> standing slips
    placed: int = 0  # slips placed at the table so far
    #: colour -> player -> holding; a colour fully redeemed by a player is no longer theirs.
    colors: Mapping[str, Mapping[str, Holding]] = field(default_factory=empty)
    #: Colour-check events so far: the msg id of the next issue or redemption names it.
    checks_version: int = 0

    def limits_for(self, player: str) -> Limits | None:
        """The player's own sign if a supervisor allowed one (000 §4.4), else the table's."""
        return self.player_limits.get(player, self.limits)

    def book(self, round_no: int) -> PMap[str, Slip]:
        return self.books.get(round_no) or PMap()


def initial_state(table: str) -> WagerState:
    return WagerState(table=table)


def wagers_of_round(state: WagerState, round_no: int) -> list[StandingWager]:
    """The wagers standing in ``round_no``, in the order they were placed: slips placed in it
    and not withdrawn (as last changed), plus slips carried into it from a void round as the
    player finally chose (``carried=True``; a cancelled one is gone). A void round whose
    slips were carried still lists them, as they stood, for its settlement to record them as
    carried. Cost: one sort of the round's slips, nothing else of the table is scanned."""
    slips = sorted(state.book(round_no).values(), key=attrgetter("order"))
    return [
        StandingWager(slip.slip_id, slip.player, index, wager, slip.carried)
        for slip in slips
        for index, wager in enumerate(slip.wagers)
    ]
