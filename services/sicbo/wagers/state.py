"""The state of wager intake at one table, folded from its lifecycle, bets and settlement
aggregates (settlement's results give colour checks and promotional tokens back,
:mod:`sicbo.wagers.media`).

``evolve`` records facts: it checks nothing and never raises on a well-formed event, so any
stored log replays; every rule is checked in :mod:`sicbo.wagers.decider` before an append.
Events it has no use for (dice, seats, paytables, summaries...) leave the state as it was, so
a reader may fold a table's whole log.

Slips are kept in :class:`~sicbo.wagers.pmap.PMap` (cheap immutable updates) twice: the latest
copy of every slip ever placed (``slips``: ids are unique at a table, versions for the msg id)
and, per round, the copies standing in it (``books``). A slip carried over a void round stands
in both rounds: in the void one as it stood when "no result" was declared, and in the re-run
as finally chosen (002/2003 art. 3(3), 002/2004 art. 3(4), 004). :func:`wagers_of_round` lists
a round's book for settlement.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import reduce
from operator import attrgetter
from types import MappingProxyType
from typing import TypeVar

from sicbo.game.profiles import NoResultPolicy, carries_wagers
from sicbo.wagers import media
from sicbo.wagers.media import Media
from sicbo.wagers.pmap import PMap
from sicbo.wagers.slips import Betting, CurrentRound, Slip, StandingWager
from sicbo_contracts.base import Limits
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    FaultCleared,
    LifecycleEvent,
    LimitsChanged,
    NoResultDeclared,
    PlayerLimitsOverridden,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    RoundStarted,
    TableClosed,
    TableOpened,
    TableSuspended,
    Uncovered,
)
from sicbo_contracts.settlement import (
    SettlementAdjusted,
    SettlementEvent,
    SettlementVoided,
    WagersSettled,
)
from sicbo_contracts.wagers import (
    CarriedChoice,
    CarriedSlipChosen,
    ColorChecksIssued,
    ColorChecksRedeemed,
    PromoTokenIssued,
    SlipChanged,
    SlipPlaced,
    SlipStatus,
    SlipWithdrawn,
    Wager,
    WagerEvent,
)

__all__ = [
    "Betting",
    "CurrentRound",
    "Fact",
    "Slip",
    "StandingWager",
    "WagerState",
    "evolve",
    "fold",
    "initial_state",
    "wagers_of_round",
]

K = TypeVar("K")
V = TypeVar("V")


Fact = LifecycleEvent | DiceEvent | WagerEvent | SettlementEvent


def _empty() -> Mapping[K, V]:
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
    player_limits: Mapping[str, Limits] = field(default_factory=_empty)  # 000 §4.4
    suspended: bool = False  # an equipment fault not yet cleared (000 §7.7; 004)
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


# ---- evolve -------------------------------------------------------------------------------------


def evolve(state: WagerState, event: Fact) -> WagerState:
    """Fold one event of the table's log into the state."""
    match event:
        case TableOpened(config=c):
            return replace(
                state,
                table_open=True,
                profile=c.profile,
                limits=c.limits,
                seats=c.seats,
                check_colors=c.check_colors,
            )
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
            return _put(_restake(state, slip_id, wagers, player), slip, placed=state.placed + 1)
        case SlipWithdrawn(slip_id=slip_id):
            return _update(_restake(state, slip_id, ()), slip_id, status=SlipStatus.WITHDRAWN)
        case SlipChanged(slip_id=slip_id, after=after):
            return _update(_restake(state, slip_id, after), slip_id, wagers=tuple(after))
        case CarriedSlipChosen(slip_id=slip_id, choice=CarriedChoice.CANCEL):
            cancelled = _restake(state, slip_id, ())
            return _update(
                cancelled, slip_id, status=SlipStatus.CANCELLED, choice=CarriedChoice.CANCEL
            )
        case CarriedSlipChosen(slip_id=slip_id, choice=choice, after=after):
            chosen = _restake(state, slip_id, after)
            return _update(chosen, slip_id, wagers=tuple(after), choice=choice)
        case ColorChecksIssued(player=player, color=color, marker_value=value, count=count):
            return replace(
                state, media=media.issue_checks(state.media, player, color, value, count)
            )
        case ColorChecksRedeemed(player=player, color=color, count=count):
            return replace(state, media=media.redeem_checks(state.media, player, color, count))
        case PromoTokenIssued(token=token, player=player, amount=amount):
            return replace(state, media=media.issue_token(state.media, token, player, amount))
        case WagersSettled() | SettlementAdjusted() | SettlementVoided():
            after_settling = media.settled(
                state.media, event, lambda r, s, i: _wager(state, r, s, i)
            )
            return state if after_settling is state.media else replace(state, media=after_settling)
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
    for slip in state.book(void_round).values():
        state = _put(state, replace(slip, round=rerun, carried_under=policy, choice=None))
    return state


def _restake(
    state: WagerState, slip_id: str, after: Sequence[Wager], player: str = ""
) -> WagerState:
    """A slip's colour checks and tokens: its standing wagers released, ``after`` staked
    (a new slip: ``player``'s)."""
    slip = state.slips.get(slip_id)
    before = slip.wagers if slip is not None else ()
    if not (media.uses_media(before) or media.uses_media(after)):
        return state  # chips only: the state is copied once, by the slip's own update
    player = slip.player if slip is not None else player
    restaked = media.restake(state.media, slip_id, player, before, after)
    return replace(state, media=restaked)


def _wager(state: WagerState, round_no: int, slip_id: str, index: int) -> Wager | None:
    """The wager at ``index`` of slip ``slip_id`` as it stood in ``round_no``."""
    slip = state.book(round_no).get(slip_id)
    if slip is None or not 0 <= index < len(slip.wagers):
        return None
    return slip.wagers[index]
