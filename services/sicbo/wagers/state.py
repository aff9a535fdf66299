"""The state of wager intake at one table, folded from its lifecycle, bets and settlement
aggregates by :mod:`sicbo.wagers.evolve` (settlement's results give colour checks and
promotional tokens back, :mod:`sicbo.wagers.media`).

Slips are kept in :class:`~sicbo.wagers.pmap.PMap` (cheap immutable updates) twice: the latest
copy of every slip ever placed (``slips``: ids are unique at a table, versions for the msg id)
and, per round, the copies standing in it (``books``). A slip carried over a void round stands
in both rounds: in the void one as it stood when "no result" was declared, and in the re-run
as finally chosen (002/2003 art. 3(3), 002/2004 art. 3(4), 004). :func:`wagers_of_round` lists
a round's book for settlement.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import attrgetter
from types import MappingProxyType
from typing import TypeVar

from sicbo.wagers.media import Media
from sicbo.wagers.pmap import PMap
from sicbo.wagers.slips import Betting, CurrentRound, Slip, StandingWager
from sicbo_contracts.base import Limits
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.lifecycle import LifecycleEvent
from sicbo_contracts.settlement import SettlementEvent
from sicbo_contracts.wagers import WagerEvent

__all__ = [
    "Betting",
    "CurrentRound",
    "Fact",
    "Slip",
    "StandingWager",
    "WagerState",
    "initial_state",
    "wagers_of_round",
]

K = TypeVar("K")
V = TypeVar("V")


Fact = LifecycleEvent | DiceEvent | WagerEvent | SettlementEvent


def empty() -> Mapping[K, V]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class WagerState:
    """What wager intake knows of one table."""

    table: str
    table_open: bool = False  # TableOpened and not TableClosed since
    profile: str | None = None
    limits: Limits | None = None  # the table sign in force (000 §4.1, §4.3)
    seats: int = 7  # the table's seats (positions for players, 000 §2.1, §8.9)
    check_colors: int | None = None  # colours of its set of colour checks (000 §3.3, §3.8)
    player_limits: Mapping[str, Limits] = field(default_factory=empty)  # 000 §4.4
    max_payout: int | None = None  # TableConfig.max_payout_per_round (a house limit)
    currency: str | None = None  # TableConfig.currency: what players' accounts pay in
    suspended: bool = False  # an equipment fault not yet cleared (000 §7.7; 004)
    excluded: frozenset[str] = frozenset()  # players excluded from the game (000 §8.3.2)
    round: CurrentRound | None = None
    slips: PMap[str, Slip] = field(default_factory=PMap)  # every slip ever placed, latest copy
    books: PMap[int, PMap[str, Slip]] = field(default_factory=PMap)  # round -> standing slips
    placed: int = 0  # slips placed at the table so far
    #: Colour checks and promotional tokens held by the players (:mod:`sicbo.wagers.media`).
    media: Media = field(default_factory=Media)

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
