"""The state of wager intake at one table, folded from its lifecycle and bets aggregates.

``evolve`` records facts: it checks nothing and never raises on a well-formed event, so any
stored log replays; every rule is checked in :mod:`sicbo.wagers.decider` before an append.
Events it has no use for (dice, seats, paytables, settlement...) leave the state as it was, so
a reader may fold a table's whole log.

Slips are kept in :class:`~sicbo.wagers.pmap.PMap` (cheap immutable updates) twice: the latest
copy of every slip ever placed (``slips``: ids are unique at a table, versions for the msg id)
and, per round, the copies standing in it (``books``). A slip carried over a void round stands
in both rounds: in the void one as it stood when "no result" was declared, and in the re-run
as finally chosen (002/2003 art. 3(3), 002/2004 art. 3(4), 004). :func:`wagers_of_round` lists
a round's book for settlement.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from functools import reduce
from operator import attrgetter
from types import MappingProxyType
from typing import NamedTuple, TypeVar

from sicbo.game.profiles import NoResultPolicy, carries_wagers
from sicbo.wagers.pmap import PMap
from sicbo_contracts.base import Limits
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    ExclusionLifted,
    FaultCleared,
    LifecycleEvent,
    LimitsChanged,
    NoResultDeclared,
    PlayerExcluded,
    PlayerLimitsOverridden,
    PlayerWagersVoided,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    RoundStarted,
    TableClosed,
    TableOpened,
    TableSuspended,
    Uncovered,
)
from sicbo_contracts.wagers import (
    CarriedChoice,
    CarriedSlipChosen,
    ColorChecksIssued,
    ColorChecksRedeemed,
    SlipChanged,
    SlipPlaced,
    SlipStatus,
    SlipWithdrawn,
    Wager,
    WagerEvent,
)

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


def _empty() -> Mapping[K, V]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class WagerState:
    """What wager intake knows of one table."""

    table: str
    table_open: bool = False  # TableOpened and not TableClosed since
    profile: str | None = None
    limits: Limits | None = None  # the table sign in force (000 §4.1, §4.3)
    player_limits: Mapping[str, Limits] = field(default_factory=_empty)  # 000 §4.4
    suspended: bool = False  # an equipment fault not yet cleared (000 §7.7; 004)
    excluded: frozenset[str] = frozenset()  # players excluded from the game (000 §8.3.2)
    round: CurrentRound | None = None
    slips: PMap[str, Slip] = field(default_factory=PMap)  # every slip ever placed, latest copy
    books: PMap[int, PMap[str, Slip]] = field(default_factory=PMap)  # round -> standing slips
    placed: int = 0  # slips placed at the table so far
    #: colour -> player -> holding; a colour fully redeemed by a player is no longer theirs.
    colors: Mapping[str, Mapping[str, Holding]] = field(default_factory=_empty)
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


# ---- evolve -------------------------------------------------------------------------------------


def evolve(state: WagerState, event: Fact) -> WagerState:
    """Fold one event of the table's log into the state."""
    match event:
        case TableOpened(config=config):
            return replace(state, table_open=True, profile=config.profile, limits=config.limits)
        case TableClosed():
            # The signs come down with the table (as the lifecycle folds it); colour checks
            # stay outstanding: the cage redeems them while the table is closed (000 §3.5).
            closed = _end_betting(state.round, None)
            return replace(state, table_open=False, player_limits=_empty(), round=closed)
        case LimitsChanged(after=after):
            return replace(state, limits=after)
        case PlayerLimitsOverridden(player=player, after=after):
            return replace(
                state, player_limits=MappingProxyType({**state.player_limits, player: after})
            )
        case PlayerExcluded(player=player):
            return replace(state, excluded=state.excluded | {player})
        case ExclusionLifted(player=player):
            return replace(state, excluded=state.excluded - {player})
        case PlayerWagersVoided(round=n, player=player) if state.round and state.round.number == n:
            voided = replace(state.round, voided=state.round.voided | {player})
            return replace(state, round=voided)
        case TableSuspended():
            return replace(state, suspended=True)
        case FaultCleared():
            return replace(state, suspended=False)
        case RoundStarted(round=number, paytable=paytable):
            return replace(state, round=CurrentRound(number=number, paytable=paytable))
        case BettingOpened(round=number, closes_at=closes_at):
            current = state.round
            if current is None or current.number != number:
                return state
            opened = replace(current, betting=Betting.OPEN, closes_at=closes_at)
            return replace(state, round=opened)
        case BettingClosed(round=n) | Uncovered(round=n) | RoundInvalidated(round=n):
            return replace(state, round=_end_betting(state.round, n))
        case RoundCancelled(round=n) | RoundCompleted(round=n):
            return replace(state, round=_end_betting(state.round, n))
        case NoResultDeclared(round=n, consequence=consequence):
            ended = replace(state, round=_end_betting(state.round, n))
            return (
                _carry(ended, n, NoResultPolicy(consequence))
                if carries_wagers(consequence)
                else ended
            )
        case SlipPlaced(round=r, slip_id=slip_id, player=player, wagers=wagers):
            slip = Slip(slip_id, player, r, r, tuple(wagers), order=state.placed)
            return _put(state, slip, placed=state.placed + 1)
        case SlipWithdrawn(slip_id=slip_id):
            return _update(state, slip_id, status=SlipStatus.WITHDRAWN)
        case SlipChanged(slip_id=slip_id, after=after):
            return _update(state, slip_id, wagers=tuple(after))
        case CarriedSlipChosen(slip_id=slip_id, choice=CarriedChoice.CANCEL):
            return _update(state, slip_id, status=SlipStatus.CANCELLED, choice=CarriedChoice.CANCEL)
        case CarriedSlipChosen(slip_id=slip_id, choice=choice, after=after):
            return _update(state, slip_id, wagers=tuple(after), choice=choice)
        case ColorChecksIssued(player=player, color=color, marker_value=value, count=count):
            held = state.colors.get(color, {}).get(player)
            issued = (
                Holding(value, count) if held is None else replace(held, issued=held.issued + count)
            )
            return _hold(state, color, player, issued)
        case ColorChecksRedeemed(player=player, color=color, count=count):
            held = state.colors.get(color, {}).get(player)
            redeemed = None if held is None else replace(held, redeemed=held.redeemed + count)
            return _hold(state, color, player, redeemed)
    return state


def fold(table: str, events: Iterable[Fact]) -> WagerState:
    """The state after ``events``, in log order (the stream sequence, DESIGN.md)."""
    return reduce(evolve, events, initial_state(table))


# ---- helpers ------------------------------------------------------------------------------------


def _end_betting(current: CurrentRound | None, number: int | None) -> CurrentRound | None:
    """Betting of round ``number`` (any round if None) is over, whatever ended it."""
    if current is None or (number is not None and current.number != number):
        return current
    return replace(current, betting=Betting.CLOSED)


def _put(state: WagerState, slip: Slip, *, placed: int | None = None) -> WagerState:
    """Record ``slip`` as the latest copy, and in its round's book while it is active; a new
    slip also counts as ``placed`` in the same copy (a state copy is the fold's main cost)."""
    book = state.book(slip.round)
    if slip.status is SlipStatus.ACTIVE:
        book = book.set(slip.slip_id, slip)
    else:
        book = book.delete(slip.slip_id)
    return replace(
        state,
        slips=state.slips.set(slip.slip_id, slip),
        books=state.books.set(slip.round, book),
        placed=state.placed if placed is None else placed,
    )


def _update(
    state: WagerState,
    slip_id: str,
    *,
    status: SlipStatus | None = None,
    wagers: tuple[Wager, ...] | None = None,
    choice: CarriedChoice | None = None,
) -> WagerState:
    """A slip command's effect: a new version of the slip."""
    slip = state.slips.get(slip_id)
    if slip is None:
        return state  # never placed here: nothing to change
    changed = replace(
        slip,
        status=slip.status if status is None else status,
        wagers=slip.wagers if wagers is None else wagers,
        choice=choice if choice is not None else slip.choice,
        version=slip.version + 1,
    )
    return _put(state, changed)


def _carry(state: WagerState, void_round: int, policy: NoResultPolicy) -> WagerState:
    """After "no result" in ``void_round`` every slip standing in it stays on the layout for the
    re-run, the next round (002/2003 art. 3(3): 隨即進行另一局 ... 原注不得取銷; 002/2004
    art. 3(3)(4); 004: re-shake, no wager withdrawn). The void round's book keeps its copies."""
    rerun = void_round + 1
    # 000 §8.3.1: a player's voided wagers are settled void in the void round, not carried.
    current = state.round
    voided = current.voided if current and current.number == void_round else frozenset()
    for slip in state.book(void_round).values():
        if slip.player not in voided:
            state = _put(state, replace(slip, round=rerun, carried_under=policy, choice=None))
    return state


def _hold(state: WagerState, color: str, player: str, held: Holding | None) -> WagerState:
    """Record a player's holding of a colour; a colour fully redeemed is theirs no longer."""
    holders = {p: h for p, h in state.colors.get(color, {}).items() if p != player}
    if held is not None and held.outstanding > 0:
        holders[player] = held
    colors = {c: h for c, h in state.colors.items() if c != color}
    if holders:
        colors[color] = MappingProxyType(holders)
    return replace(state, colors=MappingProxyType(colors), checks_version=state.checks_version + 1)
