"""The dice capture state of one table, and how each event changes it.

``evolve`` records facts: it checks nothing and never raises on a well-formed event, so any
stored log replays. Every rule is checked in :mod:`sicbo.dice.decider` before an event is
appended.

The result lives on the lifecycle aggregate (``sicbo.evt.<table>.lc.<round>.*``), so this state
follows the round's phases from the lifecycle events on the same subjects: the *current* round
(the one named by the latest ``RoundStarted``) and, for the corrections of an earlier round
(GLI-19 §4.18.4), the :data:`CORRECTABLE_ROUNDS` rounds before it as they ended.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from functools import reduce

from sicbo_contracts.base import Dice
from sicbo_contracts.dice import (
    CorrectionProposed,
    CorrectionRejected,
    DiceEntered,
    DiceEvent,
    DiceRead,
    ManualModeEntered,
    ManualModeLeft,
    ResultConfirmed,
    ResultCorrected,
    ResultHeld,
)
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    FaultCleared,
    LifecycleEvent,
    NoResultDeclared,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    RoundStarted,
    TableOpened,
    TableSuspended,
    Uncovered,
)

__all__ = [
    "CORRECTABLE_ROUNDS",
    "DiceState",
    "Entry",
    "ManualMode",
    "Phase",
    "Proposal",
    "RoundState",
    "evolve",
    "fold",
    "initial_state",
]


class Phase(StrEnum):
    """How far the current round got; the result may only be captured once it is uncovered."""

    STARTED = "started"  # tumbled (000 §5.1)
    BETTING_OPEN = "betting-open"  # "place your bets" (000 §5.1)
    BETTING_CLOSED = "betting-closed"  # "no more bets" (000 §5.2)
    UNCOVERED = "uncovered"  # the cover is off: the dice can be read (000 §5.2-5.3)


#: The rounds before the current one whose result a supervisor may still correct
#: (GLI-19 §4.18.4); an older round's correction is refused, naming this bound (docs/rules.md).
CORRECTABLE_ROUNDS = 100


# ---- state --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """The three buttons pressed on the terminal (000 §5.4), and by whom (for 2nd-person checks)."""

    dice: Dice  # as pressed
    by: str  # actor id


@dataclass(frozen=True, slots=True)
class Proposal:
    """Dual control: a correction proposed by one supervisor, waiting for another."""

    after: Dice  # lowest to highest
    reason: str
    by: str  # the proposer's actor id


@dataclass(frozen=True, slots=True)
class ManualMode:
    """The table is in manual mode (GLI-19 §C.6.8(o)) since ``since``, entered by ``by``."""

    since: datetime
    by: str
    reason: str


@dataclass(frozen=True, slots=True)
class RoundState:
    """The current round, as far as the result is concerned."""

    number: int
    phase: Phase = Phase.STARTED
    #: Why the round has no result, once no result was declared (000 §7.5), the outcome was
    #: invalidated (000 §8.4) or the round cancelled (004); None while a result is possible.
    void: str | None = None
    completed: bool = False  # settled; the next round may start (002 art. 4)
    entry: Entry | None = None
    reading: Dice | None = None  # the automatic reader's dice, as read
    held: bool = False  # the reader disagreed at confirmation: waiting for a supervisor
    result: Dice | None = None  # the confirmed result, lowest to highest, after any correction
    entered_by: str | None = None  # whose dice the confirmed result is
    proposal: Proposal | None = None  # dual control: a correction waiting for approval

    @property
    def confirmed(self) -> bool:
        return self.result is not None


@dataclass(frozen=True, slots=True)
class DiceState:
    """What the dice capture service knows of one table."""

    table: str
    second_person_confirmation: bool = False  # TableConfig, from the latest TableOpened
    #: An equipment fault is open (TableSuspended, not yet FaultCleared). Tracked for the
    #: terminal's display only: it blocks no capture command (000 §7.6; see sicbo.dice.decider).
    suspended: bool = False
    round: RoundState | None = None  # the latest started round; None before the first
    #: The rounds before it, oldest first: at most CORRECTABLE_ROUNDS (GLI-19 §4.18.4).
    earlier: tuple[RoundState, ...] = ()
    dual_control: bool = False  # TableConfig, from the latest TableOpened
    manual: ManualMode | None = None  # in manual mode (GLI-19 §C.6.8(o)), or None

    def round_of(self, number: int) -> RoundState | None:
        """The current round or a kept earlier one numbered ``number``, if any."""
        if self.round is not None and self.round.number == number:
            return self.round
        return next((r for r in self.earlier if r.number == number), None)

    @property
    def proposals(self) -> tuple[RoundState, ...]:
        """The rounds with a correction waiting for approval (dual control)."""
        rounds = (*self.earlier, *((self.round,) if self.round is not None else ()))
        return tuple(r for r in rounds if r.proposal is not None)


def initial_state(table: str) -> DiceState:
    return DiceState(table=table)


# ---- evolve -------------------------------------------------------------------------------------


def evolve(state: DiceState, event: LifecycleEvent | DiceEvent) -> DiceState:
    """Fold one event. Events are facts: nothing is checked here, only recorded."""
    match event:
        case TableOpened(config=config):
            return replace(
                state,
                second_person_confirmation=config.second_person_confirmation,
                dual_control=config.dual_control,
            )
        case TableSuspended():
            return replace(state, suspended=True)
        case FaultCleared():
            return replace(state, suspended=False)
        case ManualModeEntered(actor=actor, at=at, reason=reason):
            return replace(state, manual=ManualMode(since=at, by=actor.id, reason=reason))
        case ManualModeLeft():
            return replace(state, manual=None)
        case RoundStarted(round=number) if state.round is not None and number <= state.round.number:
            return state  # a round started again: forged, as in sicbo.lifecycle.evolve
        case RoundStarted(round=number):
            # A new round (or a re-run after a void round, whatever its number) starts clean;
            # the one before is kept as it ended, for a correction (GLI-19 §4.18.4).
            before = (state.round,) if state.round is not None else ()
            earlier = (*state.earlier, *before)[-CORRECTABLE_ROUNDS:]
            return replace(state, round=RoundState(number=number), earlier=earlier)
    of_round = getattr(event, "round", None)
    current = state.round
    if current is not None and of_round == current.number:
        return replace(state, round=_evolve_round(current, event))
    # An event of an earlier round: a correction (or its proposal) of its result; an event of
    # a round not kept (none is written: older ones are not corrected) changes nothing.
    if of_round is not None and any(r.number == of_round for r in state.earlier):
        earlier = tuple(
            _evolve_round(r, event) if r.number == of_round else r for r in state.earlier
        )
        return replace(state, earlier=earlier)
    return state


def _evolve_round(current: RoundState, event: LifecycleEvent | DiceEvent) -> RoundState:
    match event:
        case BettingOpened():
            return replace(current, phase=Phase.BETTING_OPEN)
        case BettingClosed():
            return replace(current, phase=Phase.BETTING_CLOSED)
        case Uncovered():
            return replace(current, phase=Phase.UNCOVERED)
        case NoResultDeclared(reason=reason):
            return replace(current, void=f"no result was declared ({reason.value}; 000 §7.5)")
        case RoundInvalidated(reason=reason):
            return replace(current, void=f"its outcome was invalidated ({reason.value}; 000 §8.4)")
        case RoundCancelled(reason=reason):
            return replace(current, void=f"it was cancelled ({reason}; 004)")
        case RoundCompleted():
            return replace(current, completed=True)
        case DiceEntered(dice=dice, actor=actor):
            return replace(current, entry=Entry(dice=dice, by=actor.id))
        case DiceRead(dice=dice):
            return replace(current, reading=dice)
        case ResultHeld():
            return replace(current, held=True)
        case ResultConfirmed(dice=dice, entered_by=entered_by):
            return replace(current, held=False, result=dice, entered_by=entered_by)
        case ResultCorrected(after=after):
            return replace(current, result=after, proposal=None)
        case CorrectionProposed(after=after, reason=reason, actor=actor):
            return replace(current, proposal=Proposal(after=after, reason=reason, by=actor.id))
        case CorrectionRejected():
            return replace(current, proposal=None)
    return current  # table-level events (limits, seats, paytables...) do not touch the result


def fold(table: str, events: Iterable[LifecycleEvent | DiceEvent]) -> DiceState:
    """The state after ``events``, in log order (the stream sequence, DESIGN.md)."""
    return reduce(evolve, events, initial_state(table))
