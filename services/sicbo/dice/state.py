"""The dice capture state of one table, and how each event changes it.

``evolve`` records facts: it checks nothing and never raises on a well-formed event, so any
stored log replays. Every rule is checked in :mod:`sicbo.dice.decider` before an event is
appended.

The result lives on the lifecycle aggregate (``sicbo.evt.<table>.lc.<round>.*``), so this state
follows the round's phases from the lifecycle events on the same subjects, and only knows
about the *current* round: the one named by the latest ``RoundStarted``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import reduce

from sicbo_contracts.base import Dice
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
    "DiceState",
    "Entry",
    "Phase",
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


# ---- state --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entry:
    """The three buttons pressed on the terminal (000 §5.4), and by whom (for 2nd-person checks)."""

    dice: Dice  # as pressed
    by: str  # actor id


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


def initial_state(table: str) -> DiceState:
    return DiceState(table=table)


# ---- evolve -------------------------------------------------------------------------------------


def evolve(state: DiceState, event: LifecycleEvent | DiceEvent) -> DiceState:
    """Fold one event. Events are facts: nothing is checked here, only recorded."""
    match event:
        case TableOpened(config=config):
            return replace(state, second_person_confirmation=config.second_person_confirmation)
        case TableSuspended():
            return replace(state, suspended=True)
        case FaultCleared():
            return replace(state, suspended=False)
        case RoundStarted(round=number):
            # A new round (or a re-run after a void round, whatever its number) starts clean.
            return replace(state, round=RoundState(number=number))
    current = state.round
    # Every other event belongs to one round; one about a round other than the current one
    # (none should exist, since a round starts only after the previous one ends) changes nothing.
    if current is None or getattr(event, "round", None) != current.number:
        return state
    return replace(state, round=_evolve_round(current, event))


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
            return replace(current, result=after)
    return current  # table-level events (limits, seats, paytables...) do not touch the result


def fold(table: str, events: Iterable[LifecycleEvent | DiceEvent]) -> DiceState:
    """The state after ``events``, in log order (the stream sequence, DESIGN.md)."""
    return reduce(evolve, events, initial_state(table))
