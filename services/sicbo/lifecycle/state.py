"""The state of one table's lifecycle aggregate, and how each event changes it.

``evolve`` records facts: it checks nothing and never raises on a well-formed event, so any
stored log replays. Every rule is checked in :mod:`sicbo.lifecycle.decider` before an event is
appended. Dice events live on the same aggregate (``sicbo.evt.<table>.lc.<round>.*``): a
confirmed result moves the round to "result confirmed"; a held result and a correction are
recorded.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from enum import StrEnum
from functools import reduce
from types import MappingProxyType
from typing import TypeVar

import msgspec

from sicbo_contracts.base import Dice, Limits
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
    FaultCleared,
    LifecycleEvent,
    LimitsChanged,
    LimitsNoticePosted,
    NoResultDeclared,
    PaytableApproved,
    PaytableProposed,
    PlayerLimitsOverridden,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    RoundStarted,
    SeatTaken,
    SeatVacated,
    TableClosed,
    TableConfig,
    TableOpened,
    TableSuspended,
    Uncovered,
    VacateNoticeIssued,
)

K = TypeVar("K")
V = TypeVar("V")

#: 000 §8.9: no wager for three consecutive rounds while every seat is taken.
VACATE_AFTER_ROUNDS = 3


class TableStatus(StrEnum):
    NEW = "new"  # never opened
    OPEN = "open"
    CLOSED = "closed"  # TableClosed: only OpenTable is accepted


class Phase(StrEnum):
    """How far the current round got."""

    STARTED = "started"  # tumbled at least three times (000 §5.1)
    BETTING_OPEN = "betting-open"  # "place your bets" (000 §5.1; 004 countdown)
    BETTING_CLOSED = "betting-closed"  # "no more bets" (000 §5.2, §3.9)
    UNCOVERED = "uncovered"  # the cover is off (000 §5.2, §3.12)
    RESULT_CONFIRMED = "result-confirmed"  # dice capture confirmed the result (000 §5.4)
    NO_RESULT = "no-result"  # void (000 §7.1-7.5, 002 art. 3(3), 004 re-shake)
    INVALIDATED = "invalidated"  # outcome invalidated by a supervisor (000 §8.4)
    CANCELLED = "cancelled"  # cancelled, every wager refunded (004 "Ralat Pengendalian")
    COMPLETED = "completed"  # settled: the cover may go back on (002 art. 4)


#: Before any outcome: the round is being played.
PLAYING: frozenset[Phase] = frozenset(
    {Phase.STARTED, Phase.BETTING_OPEN, Phase.BETTING_CLOSED, Phase.UNCOVERED}
)
#: The round has an outcome and waits for settlement (CompleteRound).
ENDED: frozenset[Phase] = frozenset(
    {Phase.RESULT_CONFIRMED, Phase.NO_RESULT, Phase.INVALIDATED, Phase.CANCELLED}
)
#: Outcomes that void the round's result.
VOID: frozenset[Phase] = frozenset({Phase.NO_RESULT, Phase.INVALIDATED, Phase.CANCELLED})


@dataclass(frozen=True, slots=True)
class RoundState:
    """The current round: the latest one started (it stays current once completed)."""

    number: int
    paytable: str  # the paytable ref the round is played and settled under
    started_at: datetime
    tumbles: int
    phase: Phase = Phase.STARTED
    #: When the betting countdown closes betting by itself (004), else None.
    closes_at: datetime | None = None
    #: Which outcome ended the round (one of ENDED); kept once the round is completed.
    ended_by: Phase | None = None
    entered: Dice | None = None  # dice entered on the terminal, not yet confirmed
    result: Dice | None = None  # the confirmed result, after any correction
    held: bool = False  # the reader disagreed with the entry: waits for a supervisor
    corrections: int = 0  # ResultCorrected events recorded for this round
    players: tuple[str, ...] = ()  # who wagered (from RoundCompleted)

    @property
    def in_progress(self) -> bool:
        """Not yet completed: the next round may not start (002 art. 4)."""
        return self.phase is not Phase.COMPLETED

    @property
    def void(self) -> bool:
        return self.ended_by in VOID


@dataclass(frozen=True, slots=True)
class LimitsNotice:
    """A sign announcing new limits and their time of change (000 §4.3)."""

    limits: Limits
    effective_at: datetime
    posted_at: datetime


@dataclass(frozen=True, slots=True)
class ClosingNotice:
    """The sign showing the proposed time of closure (000 §8.8); a new sign replaces it."""

    close_at: datetime
    posted_at: datetime


@dataclass(frozen=True, slots=True)
class Suspension:
    """An equipment malfunction not yet cleared by an inspector (000 §7.7)."""

    since: datetime
    policy: str  # IlluminationFaultPolicy value: suspend-table (000 §7.7) | suspend-round (004)
    round: int | None
    equipment: tuple[str, ...]  # every malfunction reported since


@dataclass(frozen=True, slots=True)
class Proposal:
    """A paytable applied for at the regulator (002/2004 art. 8)."""

    paytable: str
    choices: Mapping[str, int]
    applied_on: date
    max_rtp: str
    no_house_edge: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Approval:
    paytable: str
    adoption_date: date


def _empty() -> Mapping[K, V]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class LifecycleState:
    """What the round lifecycle service knows of one table."""

    table: str
    status: TableStatus = TableStatus.NEW
    #: The configuration as opened; ``config.limits`` is the table sign in force (000 §4.1).
    config: TableConfig | None = None
    opened_paytable: str | None = None  # the paytable ref recorded by TableOpened
    opened_at: datetime | None = None
    closed_at: datetime | None = None
    limits_notices: tuple[LimitsNotice, ...] = ()
    player_limits: Mapping[str, Limits] = field(default_factory=_empty)  # 000 §4.4
    closing_notice: ClosingNotice | None = None
    seats: Mapping[int, str] = field(default_factory=_empty)  # seat number -> player
    #: Consecutive completed rounds without a wager while every seat was taken (000 §8.9).
    idle_rounds: Mapping[str, int] = field(default_factory=_empty)
    asked_to_vacate: frozenset[str] = frozenset()
    proposals: Mapping[str, Proposal] = field(default_factory=_empty)
    approvals: tuple[Approval, ...] = ()  # in log order
    last_round: int = 0  # the number of the latest round started; numbering survives closing
    round: RoundState | None = None
    suspension: Suspension | None = None

    @property
    def is_open(self) -> bool:
        return self.status is TableStatus.OPEN

    @property
    def next_round(self) -> int:
        return self.last_round + 1

    @property
    def suspended(self) -> bool:
        return self.suspension is not None

    @property
    def all_seats_taken(self) -> bool:
        return self.config is not None and len(self.seats) >= self.config.seats

    @property
    def countdown_closes_at(self) -> datetime | None:
        """The deadline of the running betting countdown (004), for the shell's timer."""
        r = self.round
        return r.closes_at if r is not None and r.phase is Phase.BETTING_OPEN else None

    def seat_of(self, player: str) -> int | None:
        return next((seat for seat, p in self.seats.items() if p == player), None)


def initial_state(table: str) -> LifecycleState:
    return LifecycleState(table=table)


def _set(mapping: Mapping[K, V], key: K, value: V) -> Mapping[K, V]:
    return MappingProxyType({**mapping, key: value})


def _drop(mapping: Mapping[K, V], key: K) -> Mapping[K, V]:
    return MappingProxyType({k: v for k, v in mapping.items() if k != key})


def idle_after(state: LifecycleState, players: Iterable[str]) -> Mapping[str, int]:
    """000 §8.9: each seated player's streak after a completed round in which ``players``
    wagered. A round counts only while every seat is taken; one that was not full breaks the
    streak (the three rounds must be consecutive rounds at a full table)."""
    wagered = set(players)
    full = state.all_seats_taken
    return MappingProxyType(
        {
            p: state.idle_rounds.get(p, 0) + 1 if full and p not in wagered else 0
            for p in state.seats.values()
        }
    )


# ---- evolve -------------------------------------------------------------------------------------


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
            # The table empties; its signs come down. Round numbering, paytable approvals and
            # any open equipment fault (000 §7.7) outlive the closure.
            return replace(
                state,
                status=TableStatus.CLOSED,
                closed_at=at,
                seats=_empty(),
                idle_rounds=_empty(),
                asked_to_vacate=frozenset(),
                player_limits=_empty(),
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
            # The notice announcing this minimum has served: it cannot justify a later raise.
            notices = tuple(n for n in state.limits_notices if n.limits.minimum != after.minimum)
            return replace(state, config=signed, limits_notices=notices)
        case PlayerLimitsOverridden(player=player, after=after):
            return replace(state, player_limits=_set(state.player_limits, player, after))
        case ClosingNoticePosted(close_at=close_at, at=at):
            return replace(state, closing_notice=ClosingNotice(close_at=close_at, posted_at=at))
        case SeatTaken(player=player, seat=seat):
            return replace(
                state,
                seats=_set(state.seats, seat, player),
                idle_rounds=_set(state.idle_rounds, player, 0),
            )
        case SeatVacated(player=player):
            seats = MappingProxyType({s: p for s, p in state.seats.items() if p != player})
            return replace(
                state,
                seats=seats,
                idle_rounds=_drop(state.idle_rounds, player),
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
            return replace(state, proposals=_set(state.proposals, event.paytable, proposal))
        case PaytableApproved(paytable=paytable, adoption_date=adoption_date):
            approval = Approval(paytable=paytable, adoption_date=adoption_date)
            return replace(state, approvals=(*state.approvals, approval))
        case TableSuspended(equipment=equipment, round=round_no, policy=policy, at=at):
            open_fault = state.suspension
            if open_fault is None:
                suspension = Suspension(at, policy, round_no, (equipment,))
            else:  # another fault while suspended: still suspended since the first
                suspension = replace(open_fault, equipment=(*open_fault.equipment, equipment))
            return replace(state, suspension=suspension)
        case FaultCleared():
            return replace(state, suspension=None)
        case RoundStarted(round=number, tumbles=tumbles, paytable=paytable, at=at):
            started = RoundState(number=number, paytable=paytable, started_at=at, tumbles=tumbles)
            return replace(state, round=started, last_round=max(state.last_round, number))
        case RoundCompleted(round=number, players=players):
            if state.round is None or state.round.number != number:
                return state
            completed = replace(state.round, phase=Phase.COMPLETED, players=tuple(players))
            idle = idle_after(state, players)
            asked = frozenset(p for p in state.asked_to_vacate if idle.get(p, 0) > 0)
            return replace(state, round=completed, idle_rounds=idle, asked_to_vacate=asked)
    current = state.round
    if current is None or getattr(event, "round", None) != current.number:
        return state  # an event of another round: nothing of the current one changes
    return replace(state, round=_evolve_round(current, event))


def _end(current: RoundState, phase: Phase) -> RoundState:
    if current.phase is Phase.COMPLETED:
        return current  # settled rounds keep the outcome they were settled on
    return replace(current, phase=phase, ended_by=phase)


def _evolve_round(current: RoundState, event: LifecycleEvent | DiceEvent) -> RoundState:
    match event:
        case BettingOpened(closes_at=closes_at):
            return replace(current, phase=Phase.BETTING_OPEN, closes_at=closes_at)
        case BettingClosed():
            return replace(current, phase=Phase.BETTING_CLOSED)
        case Uncovered():
            return replace(current, phase=Phase.UNCOVERED)
        case NoResultDeclared():
            return _end(current, Phase.NO_RESULT)
        case RoundInvalidated():
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
