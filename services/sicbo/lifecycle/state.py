"""The state of one table's lifecycle aggregate: the table, its seats and notices, and the
round in play. How each event changes it is :mod:`sicbo.lifecycle.evolve`; every rule is
checked in :mod:`sicbo.lifecycle.decider` before an event is appended.
"""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from enum import StrEnum
from types import MappingProxyType
from typing import TypeVar

from sicbo_contracts.base import Dice, Limits
from sicbo_contracts.lifecycle import Activation, InvalidationReason, TableConfig

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

    STARTED = "started"  # the tumbler activated as the profile says (000 §5.1, 002 art. 2)
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
class PendingInvalidation:
    """Dual control: an invalidation of the round (000 §8.4) waiting for a second supervisor."""

    reason: InvalidationReason
    detail: str
    forfeits: tuple[str, ...]
    by: str  # the proposing supervisor's id
    at: datetime


@dataclass(frozen=True, slots=True)
class PendingLimits:
    """Dual control: a player's own sign (000 §4.4) waiting for a second supervisor."""

    limits: Limits
    reason: str
    by: str  # the proposing supervisor's id
    at: datetime


@dataclass(frozen=True, slots=True)
class RoundState:
    """The current round: the latest one started (it stays current once completed)."""

    number: int
    paytable: str  # the paytable ref the round is played and settled under
    started_at: datetime
    tumbles: int
    activation: Activation = Activation.HANDLE  # the handle or an electric shaker (002 art. 2)
    phase: Phase = Phase.STARTED
    #: When the betting countdown closes betting by itself (004), else None (and None while
    #: the countdown is paused by a suspension).
    closes_at: datetime | None = None
    #: The countdown's time left when a suspension paused it; betting resumes with it
    #: (BettingResumed, 004 "Ralat Pengendalian"). None: not paused.
    betting_left: timedelta | None = None
    #: Which outcome ended the round (one of ENDED); kept once the round is completed.
    ended_by: Phase | None = None
    entered: Dice | None = None  # dice entered on the terminal, not yet confirmed
    result: Dice | None = None  # the confirmed result, after any correction
    held: bool = False  # the reader disagreed with the entry: waits for a supervisor
    corrections: int = 0  # ResultCorrected events recorded for this round
    players: tuple[str, ...] = ()  # who wagered (from RoundCompleted)
    #: "No result" left this round's wagers standing in the re-run (002 art. 3(3)(4), 004).
    carries_wagers: bool = False
    #: The void round whose wagers stand in this one (it is that round's re-run), if any.
    carried_from: int | None = None
    voided: frozenset[str] = frozenset()  # players whose wagers are declared void (000 §8.3.1)
    pending_invalidation: PendingInvalidation | None = None  # TableConfig.dual_control

    @property
    def in_progress(self) -> bool:
        """Not yet completed: the next round may not start (002 art. 4)."""
        return self.phase is not Phase.COMPLETED

    @property
    def void(self) -> bool:
        return self.ended_by in VOID

    @property
    def betting_paused(self) -> bool:
        """Betting is open but its countdown stopped by a suspension (004)."""
        return self.phase is Phase.BETTING_OPEN and self.betting_left is not None


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
class Exclusion:
    """A player excluded from further participation in the game here (000 §8.3.2)."""

    since: datetime
    by: str  # the supervisor's id
    reason: str


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
    choices: Mapping[str, int | str]
    applied_on: date  # a day of the table's time zone
    max_rtp: str
    no_house_edge: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Approval:
    """The regulator's permission to adopt a paytable from a day (002/2004 art. 8)."""

    paytable: str
    adoption_date: date  # a day of the table's time zone
    regulator_reference: str = ""


def empty_mapping() -> Mapping[K, V]:
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
    player_limits: Mapping[str, Limits] = field(default_factory=empty_mapping)  # 000 §4.4
    #: Dual control: players' signs proposed, waiting for a second supervisor (000 §4.4).
    pending_limits: Mapping[str, PendingLimits] = field(default_factory=empty_mapping)
    closing_notice: ClosingNotice | None = None
    #: 000 §8.3.2: players excluded from the game at this table; outlives a closing.
    excluded: Mapping[str, Exclusion] = field(default_factory=empty_mapping)
    seats: Mapping[int, str] = field(default_factory=empty_mapping)  # seat number -> player
    #: Consecutive completed rounds without a wager while every seat was taken (000 §8.9).
    idle_rounds: Mapping[str, int] = field(default_factory=empty_mapping)
    asked_to_vacate: frozenset[str] = frozenset()
    #: Who wagered in each of the last PRESENT_ROUNDS completed rounds, newest last: players
    #: present at the table even without a seat (an online table's players: 000 §8.8).
    recent_players: tuple[frozenset[str], ...] = ()
    proposals: Mapping[str, Proposal] = field(default_factory=empty_mapping)
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

    @property
    def players_present(self) -> frozenset[str]:
        """000 §8.8: the seated players, and whoever wagered in the last rounds."""
        return frozenset(self.seats.values()).union(*self.recent_players)

    def seat_of(self, player: str) -> int | None:
        return next((seat for seat, p in self.seats.items() if p == player), None)


#: Completed rounds whose players count as present at the table (000 §8.8).
PRESENT_ROUNDS = 3


def initial_state(table: str) -> LifecycleState:
    return LifecycleState(table=table)


def with_item(mapping: Mapping[K, V], key: K, value: V) -> Mapping[K, V]:
    return MappingProxyType({**mapping, key: value})


def without_item(mapping: Mapping[K, V], key: K) -> Mapping[K, V]:
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
