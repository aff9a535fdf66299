"""The dice capture decider: the entry terminal's rules, as pure functions.

``decide(state, command, at)`` turns a command from the terminal (000 §2.6: six buttons 1-6),
a supervisor or the automatic reader into events, or raises :class:`Refused`;
``evolve(state, event)`` folds one event of the table's lifecycle aggregate into the state. No
clock, no randomness, no I/O: time comes in as ``at``, actors with the command, so replaying
the log rebuilds exactly the state every decision was made on (DESIGN.md "Pure core").

The result lives on the lifecycle aggregate (``sicbo.evt.<table>.lc.<round>.*``), so this state
follows the round's phases from the lifecycle events on the same subjects, and only decides
about the *current* round: the one named by the latest ``RoundStarted``.

Choices where the brief or the rules are silent (each is also noted where it is enforced):

- A table suspension (``TableSuspended`` until ``FaultCleared``) does not stop entry,
  confirmation, reading, resolution or correction: when the layout is not lit, or lit wrongly,
  wagers are still settled "according to the result shown on the dice" (000 §7.6), so the
  result must still be captured. Whether a new round may start is the lifecycle's business
  (000 §7.7).
- A reading that arrives after the result was confirmed is recorded (``DiceRead``) and nothing
  else: settlement may already be running on the confirmed result, so it is not held after the
  fact. If the reading disagrees, a supervisor corrects the result (GLI-19 §4.18.4).
- A held result's ``entered`` and ``read`` dice are given lowest to highest, as results are
  compared as multisets (the order the reader or the dealer listed them in means nothing).
- A held result is resolved with the supervisor's own dice, which may match the entry, the
  reading or neither; ``entered_by`` of that ``ResultConfirmed`` is the supervisor, whose dice
  they are. With second-person confirmation the resolver must not be whoever entered the dice.
- A correction is allowed only for the current round (the latest started), also after it
  completed, and also after an earlier correction; never for a round whose outcome is void.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum
from functools import reduce

from sicbo.decider import Refused, refuse, require_role, stamp
from sicbo.game.dice import Roll, make_roll, total
from sicbo.game.errors import InvalidDice
from sicbo_contracts.base import Dice, Role
from sicbo_contracts.dice import (
    ConfirmResult,
    CorrectResult,
    DiceCommand,
    DiceEntered,
    DiceEvent,
    DiceRead,
    EnterDice,
    ReadDice,
    ResolveHeldResult,
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
    "decide",
    "evolve",
    "fold",
    "initial_state",
]

_TERMINAL_ROLES = (Role.DEALER, Role.SUPERVISOR)  # 000 §5.3-5.4: "a dealer or the game supervisor"


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
    #: terminal's display only: it blocks no capture command (000 §7.6, see module docstring).
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


# ---- decide -------------------------------------------------------------------------------------


def decide(state: DiceState, command: DiceCommand, at: datetime) -> list[DiceEvent]:
    """The events ``command`` causes at time ``at``, or raise :class:`Refused` citing the rule."""
    if command.table != state.table:
        refuse(f"command for table {command.table!r} reached the state of table {state.table!r}")
    match command:
        case EnterDice():
            return [_enter(state, command, at)]
        case ConfirmResult():
            return [_confirm(state, command, at)]
        case ReadDice():
            return [_read(state, command, at)]
        case ResolveHeldResult():
            return [_resolve(state, command, at)]
        case CorrectResult():
            return [_correct(state, command, at)]
    raise AssertionError(f"unhandled command {command!r}")  # pragma: no cover


def _enter(state: DiceState, command: EnterDice, at: datetime) -> DiceEntered:
    require_role(command, _TERMINAL_ROLES, rule="000 §5.4")
    current = _result_capturable(state, command.round)
    if current.completed:
        refuse(f"round {current.number} is already completed; no dice can be entered for it")
    if current.entry is not None:
        # One entry per round: a second press could silently replace what was echoed and
        # announced. The fix is the confirmation step, or a supervisor's correction.
        refuse(
            f"dice for round {current.number} are already entered"
            f" ({_show(current.entry.dice)} by {current.entry.by!r}):"
            " already entered, confirm it or have a supervisor correct it"
        )
    roll = _roll(command.dice)
    return DiceEntered(
        **stamp(command, at),
        round=current.number,
        dice=command.dice,  # echoed as pressed, so the dealer checks the buttons (000 §5.4)
        announced=roll,  # lowest to highest, then the total (000 §5.3)
        total=total(roll),
    )


def _confirm(
    state: DiceState, command: ConfirmResult, at: datetime
) -> ResultConfirmed | ResultHeld:
    require_role(command, _TERMINAL_ROLES, rule="000 §5.4-5.5: the entry sequence")
    current = _result_capturable(state, command.round)
    entry = _pending_entry(current)
    if current.held:
        # Confirming again would only hold it again: the disagreement needs a supervisor.
        reading = _show(current.reading) if current.reading is not None else "?"
        refuse(
            f"round {current.number}'s result is held: the entry {_show(entry.dice)} and the"
            f" reading {reading} disagree; a supervisor must resolve it (ResolveHeldResult)"
        )
    if state.second_person_confirmation and command.actor.id == entry.by:
        refuse(
            f"table {state.table} requires a second person to confirm the dice:"
            f" {entry.by!r} entered them, so someone else must confirm"
            " (TableConfig.second_person_confirmation)"
        )
    entered = _roll(entry.dice)
    if current.reading is not None and _roll(current.reading) != entered:
        # Two sources disagree: nothing is settled until a supervisor looks at the dice.
        return ResultHeld(
            **stamp(command, at),
            round=current.number,
            entered=entered,
            read=_roll(current.reading),
        )
    return ResultConfirmed(
        **stamp(command, at),
        round=current.number,
        dice=entered,
        total=total(entered),
        entered_by=entry.by,
    )


def _read(state: DiceState, command: ReadDice, at: datetime) -> DiceRead:
    require_role(command, (Role.SERVICE,), rule="DESIGN.md Roles: the automatic reader")
    current = _result_capturable(state, command.round)
    if current.reading is not None:
        refuse(
            f"round {current.number} was already read as {_show(current.reading)}:"
            " one reading per round"
        )
    _roll(command.dice)
    # Recorded whatever the entry says. Before confirmation, ConfirmResult compares the two.
    # After confirmation (even after completion, while the round is current) the reading
    # holds nothing back, since settlement may be running: a disagreement is for a supervisor
    # to correct (GLI-19 §4.18.4).
    return DiceRead(**stamp(command, at), round=current.number, dice=command.dice)


def _resolve(state: DiceState, command: ResolveHeldResult, at: datetime) -> ResultConfirmed:
    require_role(command, (Role.SUPERVISOR,), rule="DESIGN.md Roles: supervisor overrides")
    current = _result_capturable(state, command.round)
    if not current.held:
        refuse(
            f"round {current.number} has no held result to resolve:"
            " only a result held because the reader and the entry disagree is resolved"
        )
    entry = _pending_entry(current)
    if state.second_person_confirmation and command.actor.id == entry.by:
        refuse(
            f"table {state.table} requires a second person to confirm the dice:"
            f" {entry.by!r} entered them, so another supervisor must resolve the hold"
            " (TableConfig.second_person_confirmation)"
        )
    roll = _roll(command.dice)
    return ResultConfirmed(
        **stamp(command, at),
        round=current.number,
        dice=roll,
        total=total(roll),
        entered_by=command.actor.id,  # the supervisor's own dice
        reason=command.reason,
    )


def _correct(state: DiceState, command: CorrectResult, at: datetime) -> ResultCorrected:
    require_role(command, (Role.SUPERVISOR,), rule="GLI-19 §4.18.4: manual correction")
    # Only the current round: a correction of an older round would be a settlement
    # adjustment of a round long closed, which is not this terminal's to make.
    current = _current(state, command.round)
    if current.void is not None:
        refuse(f"round {current.number} has no result to correct: {current.void}")
    if current.result is None:
        refuse(
            f"round {current.number} has no confirmed result yet: only a confirmed result is"
            " corrected (GLI-19 §4.18.4); confirm the entry or resolve the hold instead"
        )
    after = _roll(command.dice)
    if after == current.result:
        refuse(
            f"round {current.number}'s result is already {_show(after)}:"
            " a correction must change the dice"
        )
    return ResultCorrected(
        **stamp(command, at),
        round=current.number,
        before=current.result,
        after=after,
        reason=command.reason,
    )


# ---- guards and helpers -------------------------------------------------------------------------


def _current(state: DiceState, number: int) -> RoundState:
    """The current round, if ``number`` names it."""
    current = state.round
    if current is None:
        refuse(f"no round has started at table {state.table}: there are no dice to capture")
    if number != current.number:
        refuse(
            f"round {number} is not the current round of table {state.table}"
            f" (round {current.number} is): only the current round's dice are captured"
        )
    return current


def _result_capturable(state: DiceState, number: int) -> RoundState:
    """The current round, if a result can be captured for it now: uncovered, and not void.

    Not checked on purpose: a table suspension (000 §7.6: wagers settle by the dice even
    when the layout is not lit)."""
    current = _current(state, number)
    if current.void is not None:
        refuse(f"round {current.number} has no result: {current.void}")
    if current.phase is not Phase.UNCOVERED:
        refuse(
            f"round {current.number} is not uncovered yet ({current.phase.value}): the result"
            ' is announced and entered after "no more bets" and the uncover (000 §5.2-5.4)'
        )
    return current


def _pending_entry(current: RoundState) -> Entry:
    """The entry awaiting confirmation."""
    if current.result is not None:
        refuse(
            f"round {current.number}'s result is already confirmed as {_show(current.result)};"
            " a supervisor may correct it (GLI-19 §4.18.4)"
        )
    if current.entry is None:
        refuse(f"no dice are entered for round {current.number}: enter them first (000 §5.4)")
    return current.entry


def _roll(dice: Dice) -> Roll:
    """The dice as a result (a sorted multiset). Decoded commands are already 1..6; a command
    built in code is not validated by msgspec, so a bad die is refused, never stored."""
    try:
        return make_roll(dice)
    except InvalidDice as error:
        raise Refused(f"{error} (000 §2.5: each die shows 1 to 6)") from None


def _show(dice: Dice) -> str:
    return "-".join(str(d) for d in dice)
