"""How each event changes a table's lifecycle state (pure).

``evolve`` records facts: it checks nothing and never raises on a well-formed event, so any
stored log replays. Dice events live on the same aggregate (the table's ``lc`` subjects): a
confirmed result moves the round to "result confirmed"; a held result and a correction are
recorded.
"""

from collections.abc import Iterable
from dataclasses import replace
from datetime import datetime
from functools import reduce
from types import MappingProxyType

import msgspec

from sicbo.game.limits import same_minimum
from sicbo.game.profiles import carries_wagers
from sicbo.lifecycle.state import (
    PLAYING,
    PRESENT_ROUNDS,
    Approval,
    ClosingNotice,
    Exclusion,
    LifecycleState,
    LimitsNotice,
    PendingInvalidation,
    PendingLimits,
    Phase,
    Proposal,
    RoundState,
    Suspension,
    TableStatus,
    empty_mapping,
    idle_after,
    initial_state,
    with_item,
    without_item,
)
from sicbo_contracts.dice import (
    DiceEntered,
    DiceEvent,
    DiceRead,
    ResultConfirmed,
    ResultCorrected,
    ResultHeld,
)
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    ClosingNoticePosted,
    ExclusionLifted,
    FaultCleared,
    InvalidationProposed,
    InvalidationRejected,
    LifecycleEvent,
    LimitsChanged,
    LimitsNoticePosted,
    NoResultDeclared,
    PaytableApproved,
    PaytableProposed,
    PlayerExcluded,
    PlayerLimitsOverridden,
    PlayerLimitsOverrideProposed,
    PlayerLimitsOverrideRejected,
    PlayerWagersVoided,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    RoundStarted,
    SeatTaken,
    SeatVacated,
    TableClosed,
    TableOpened,
    TableSuspended,
    Uncovered,
    VacateNoticeIssued,
)
from sicbo_contracts.resumption import BettingResumed


def evolve(state: LifecycleState, event: LifecycleEvent | DiceEvent) -> LifecycleState:
    """Fold one event of the table's lifecycle aggregate into the state."""
    match event:
        case TableOpened(config=config, paytable=paytable, at=at):
            return replace(
                state,
                status=TableStatus.OPEN,
                config=config,
                opened_paytable=paytable,
                opened_at=at,
                closed_at=None,
            )
        case TableClosed(at=at):
            # The table empties; its signs come down. Round numbering, paytable approvals,
            # exclusions (000 §8.3.2) and any open equipment fault (000 §7.7) outlive it.
            return replace(
                state,
                status=TableStatus.CLOSED,
                closed_at=at,
                seats=empty_mapping(),
                idle_rounds=empty_mapping(),
                asked_to_vacate=frozenset(),
                recent_players=(),
                player_limits=empty_mapping(),
                pending_limits=empty_mapping(),  # a proposed sign comes down with the rest
                limits_notices=(),
                closing_notice=None,
            )
        case LimitsNoticePosted(limits=limits, effective_at=effective_at, at=at):
            notice = LimitsNotice(limits=limits, effective_at=effective_at, posted_at=at)
            return replace(state, limits_notices=(*state.limits_notices, notice))
        case LimitsChanged(after=after):
            signed = state.config
            if signed is not None:
                signed = msgspec.structs.replace(signed, limits=after)
            # The notice announcing these minimums (every bet kind's) has served: it cannot
            # justify a later raise (000 §4.3).
            notices = tuple(n for n in state.limits_notices if not same_minimum(n.limits, after))
            return replace(state, config=signed, limits_notices=notices)
        case PlayerLimitsOverridden(player=player, after=after):
            return replace(
                state,
                player_limits=with_item(state.player_limits, player, after),
                pending_limits=without_item(state.pending_limits, player),
            )
        case PlayerLimitsOverrideProposed(player=player, after=after, reason=reason, actor=actor):
            pending = PendingLimits(limits=after, reason=reason, by=actor.id, at=event.at)
            return replace(state, pending_limits=with_item(state.pending_limits, player, pending))
        case PlayerLimitsOverrideRejected(player=player):
            return replace(state, pending_limits=without_item(state.pending_limits, player))
        case PlayerExcluded(player=player, actor=actor, reason=reason, at=at):
            exclusion = Exclusion(since=at, by=actor.id, reason=reason)  # 000 §8.3.2
            return replace(state, excluded=with_item(state.excluded, player, exclusion))
        case ExclusionLifted(player=player):
            return replace(state, excluded=without_item(state.excluded, player))
        case ClosingNoticePosted(close_at=close_at, at=at):
            return replace(state, closing_notice=ClosingNotice(close_at=close_at, posted_at=at))
        case SeatTaken(player=player, seat=seat):
            return replace(
                state,
                seats=with_item(state.seats, seat, player),
                idle_rounds=with_item(state.idle_rounds, player, 0),
            )
        case SeatVacated(player=player):
            seats = MappingProxyType({s: p for s, p in state.seats.items() if p != player})
            return replace(
                state,
                seats=seats,
                idle_rounds=without_item(state.idle_rounds, player),
                asked_to_vacate=state.asked_to_vacate - {player},
            )
        case VacateNoticeIssued(player=player):
            return replace(state, asked_to_vacate=state.asked_to_vacate | {player})
        case PaytableProposed():
            proposal = Proposal(
                paytable=event.paytable,
                choices=MappingProxyType(dict(event.choices)),
                applied_on=event.applied_on,
                max_rtp=event.max_rtp,
                no_house_edge=tuple(event.no_house_edge),
            )
            return replace(state, proposals=with_item(state.proposals, event.paytable, proposal))
        case PaytableApproved(paytable=paytable, adoption_date=adoption_date):
            approval = Approval(paytable, adoption_date, event.regulator_reference)
            return replace(state, approvals=(*state.approvals, approval))
        case TableSuspended(equipment=equipment, round=round_no, policy=policy, at=at):
            open_fault = state.suspension
            if open_fault is None:
                suspension = Suspension(at, policy, round_no, (equipment,))
            else:  # another fault while suspended: still suspended since the first
                suspension = replace(open_fault, equipment=(*open_fault.equipment, equipment))
            return replace(state, suspension=suspension, round=_pause(state.round, at))
        case FaultCleared():
            return replace(state, suspension=None)
        case RoundStarted(round=number, tumbles=tumbles, paytable=paytable, at=at):
            if number <= state.last_round:
                # Rounds start once, in order (the decider numbers them next_round): a start
                # of a round already started is no lifecycle's (forged: replay verify reports
                # it, "round-order"). Taking it would make an old round current again and
                # refuse every later command of the table.
                return state
            previous = state.round
            started = RoundState(
                number=number,
                paytable=paytable,
                started_at=at,
                tumbles=tumbles,
                activation=event.activation,
                # 002 art. 3(3)(4), 004: the round after a carrying "no result" is its re-run.
                carried_from=previous.number
                if previous is not None and previous.carries_wagers
                else None,
            )
            return replace(state, round=started, last_round=max(state.last_round, number))
        case RoundCompleted(round=number, players=players):
            if state.round is None or state.round.number != number:
                return state
            completed = replace(state.round, phase=Phase.COMPLETED, players=tuple(players))
            idle = idle_after(state, players)
            asked = frozenset(p for p in state.asked_to_vacate if idle.get(p, 0) > 0)
            recent = (*state.recent_players, frozenset(players))[-PRESENT_ROUNDS:]
            return replace(
                state,
                round=completed,
                idle_rounds=idle,
                asked_to_vacate=asked,
                recent_players=recent,
            )
    current = state.round
    if current is None or getattr(event, "round", None) != current.number:
        return state  # an event of another round: nothing of the current one changes
    return replace(state, round=_evolve_round(current, event))


def _pause(current: RoundState | None, at: datetime) -> RoundState | None:
    """004 "Ralat Pengendalian": a suspension during a running countdown stops it; the time
    left is kept for the resumption (the deadline no longer applies). A countdown already
    over when the suspension came is not paused: its close is due."""
    if current is None or current.phase is not Phase.BETTING_OPEN:
        return current
    closes_at = current.closes_at
    if closes_at is None or at >= closes_at:
        return current  # no countdown, already paused, or already over
    return replace(current, closes_at=None, betting_left=closes_at - at)


def _end(current: RoundState, phase: Phase) -> RoundState:
    if current.phase is Phase.COMPLETED:
        return current  # settled rounds keep the outcome they were settled on
    return replace(current, phase=phase, ended_by=phase)


def _evolve_round(current: RoundState, event: LifecycleEvent | DiceEvent) -> RoundState:
    match event:
        case BettingOpened(closes_at=closes_at):
            return replace(current, phase=Phase.BETTING_OPEN, closes_at=closes_at)
        case BettingClosed():
            return replace(current, phase=Phase.BETTING_CLOSED, betting_left=None)
        case BettingResumed(closes_at=closes_at):
            return replace(current, closes_at=closes_at, betting_left=None)
        case Uncovered():
            return replace(current, phase=Phase.UNCOVERED)
        case PlayerWagersVoided(player=player):  # 000 §8.3.1
            return replace(current, voided=current.voided | {player})
        case NoResultDeclared(consequence=consequence):
            if current.phase is Phase.COMPLETED:
                return current
            carrying = replace(current, carries_wagers=carries_wagers(consequence))
            return _end(carrying, Phase.NO_RESULT)
        case InvalidationProposed(reason=reason, detail=detail, forfeits=forfeits, actor=actor):
            pending = PendingInvalidation(reason, detail, tuple(forfeits), actor.id, event.at)
            return replace(current, pending_invalidation=pending)
        case InvalidationRejected():
            return replace(current, pending_invalidation=None)
        case RoundInvalidated():
            current = replace(current, pending_invalidation=None)
            if current.phase is Phase.COMPLETED:
                # 000 §8.4 after the round was paid: it stays completed (settlement refunds it
                # by a compensating void), its outcome is now the invalidation.
                return replace(current, ended_by=Phase.INVALIDATED)
            return _end(current, Phase.INVALIDATED)
        case RoundCancelled():
            if current.phase is Phase.COMPLETED:
                # 004: a round settled by its result, then cancelled (settlement refunds it by
                # a compensating void): it stays completed, its outcome is now the cancellation.
                return replace(current, ended_by=Phase.CANCELLED)
            return _end(current, Phase.CANCELLED)
        case DiceEntered(dice=dice):
            return replace(current, entered=dice)
        case DiceRead():
            return current
        case ResultHeld():
            return replace(current, held=True)
        case ResultConfirmed(dice=dice):
            confirmed = replace(current, result=dice, held=False)
            # A void round stays void: a late confirmation only records the dice.
            if current.phase not in PLAYING:
                return confirmed
            return _end(confirmed, Phase.RESULT_CONFIRMED)
        case ResultCorrected(after=after):
            return replace(current, result=after, corrections=current.corrections + 1)
    return current


def fold(table: str, events: Iterable[LifecycleEvent | DiceEvent]) -> LifecycleState:
    """The state after ``events``, in log order (the stream sequence, DESIGN.md)."""
    return reduce(evolve, events, initial_state(table))
