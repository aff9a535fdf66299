"""Wager intake's ``evolve``: one event of the table's lifecycle or bets aggregate folded into
its :class:`~sicbo.wagers.state.WagerState`.

``evolve`` records facts: it checks nothing and never raises on a well-formed event, so any
stored log replays; every rule is checked in :mod:`sicbo.wagers.decider` before an append.
Events it has no use for (dice, seats, paytables, settlement...) leave the state as it was, so
a reader may fold a table's whole log.
"""

from collections.abc import Iterable, Sequence
from functools import reduce
from types import MappingProxyType

from sicbo.game.profiles import NoResultPolicy, carries_wagers
from sicbo.wagers import media
from sicbo.wagers.exposure import NONE_EXPOSED, shifted
from sicbo.wagers.frozen import replace
from sicbo.wagers.state import (
    Betting,
    CurrentRound,
    Fact,
    Slip,
    WagerState,
    empty,
    initial_state,
)
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    ExclusionLifted,
    FaultCleared,
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
from sicbo_contracts.resumption import BettingResumed
from sicbo_contracts.settlement import SettlementAdjusted, SettlementVoided, WagersSettled
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
)

# ---- evolve -------------------------------------------------------------------------------------


def evolve(state: WagerState, event: Fact) -> WagerState:
    """Fold one event of the table's log into the state."""
    match event:
        # The most frequent event first: a class pattern is an isinstance test, tried in order
        # (the cases' classes are disjoint, so their order changes nothing but the cost).
        case SlipPlaced(round=r, slip_id=slip_id, player=player, wagers=wagers):
            if not _betting_open(state.round, r):
                return state  # stored outside betting: no wager (000 §3.9; docs/rules.md)
            slip = Slip(slip_id, player, r, r, tuple(wagers), order=state.placed)
            staked = _restake(state, slip_id, wagers, player)
            return _expose(_put(staked, slip, placed=state.placed + 1), r, (), slip.wagers)
        case TableOpened(config=config):
            return replace(
                state,
                table_open=True,
                profile=config.profile,
                limits=config.limits,
                seats=config.seats,
                check_colors=config.check_colors,
                max_payout=config.max_payout_per_round,
                currency=config.currency,
            )
        case TableClosed():
            # The signs come down with the table (as the lifecycle folds it); colour checks
            # stay outstanding: the cage redeems them while the table is closed (000 §3.5).
            closed = _end_betting(state.round, None)
            return replace(state, table_open=False, player_limits=empty(), round=closed)
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
            if state.round is not None and number <= state.round.number:
                return state  # a round started again: forged, as in sicbo.lifecycle.evolve
            # Slips carried into a re-run stand in it from the start (002 art. 3(3)(4), 004).
            exposure = None
            if state.max_payout is not None:
                carried = (w for slip in state.book(number).values() for w in slip.wagers)
                exposure = shifted(NONE_EXPOSED, paytable, added=carried)
            return replace(state, round=CurrentRound(number, paytable, exposure=exposure))
        case BettingOpened(round=number, closes_at=closes_at):
            current = state.round
            if current is None or current.number != number:
                return state
            opened = replace(current, betting=Betting.OPEN, closes_at=closes_at)
            return replace(state, round=opened)
        case BettingResumed(round=number, closes_at=closes_at):
            # 004 "Ralat Pengendalian": the suspension paused the countdown; this is its end now.
            current = state.round
            if current is None or current.number != number or current.betting is not Betting.OPEN:
                return state
            return replace(state, round=replace(current, closes_at=closes_at))
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
        case SlipWithdrawn(round=r) | SlipChanged(round=r) | CarriedSlipChosen(round=r) if (
            not _betting_open(state.round, r)
        ):
            return state  # 000 §3.9: changed or withdrawn after "no more bets" changes nothing
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


def _betting_open(current: CurrentRound | None, number: int) -> bool:
    """Whether a slip event of round ``number`` stands: its round is current and open for
    betting. Wager intake appends one only then (its append expects the lifecycle it decided
    on), so in log order every slip it stored passes; one stored otherwise is forged, and
    ``sicbo replay verify`` reports it (check "betting"): it is no wager, and nobody pays it."""
    return current is not None and current.number == number and current.betting is Betting.OPEN


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
    removed = slip.wagers if slip.status is SlipStatus.ACTIVE else ()
    added = changed.wagers if changed.status is SlipStatus.ACTIVE else ()
    return _expose(_put(state, changed), slip.round, removed, added)


def _expose(
    state: WagerState, round_no: int, removed: tuple[Wager, ...], added: tuple[Wager, ...]
) -> WagerState:
    """Move the current round's exposure by a slip's wagers standing in ``round_no``."""
    current = state.round
    if current is None or current.exposure is None or current.number != round_no:
        return state
    exposure = shifted(current.exposure, current.paytable, removed, added)
    return replace(state, round=replace(current, exposure=exposure))


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
