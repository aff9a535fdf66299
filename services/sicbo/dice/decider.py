"""The dice capture decider: the entry terminal's rules, as pure functions.

``decide(state, command, at)`` turns a command from the terminal (000 §2.6: six buttons 1-6),
a supervisor or the automatic reader into events, or raises :class:`~sicbo.decider.Refused`;
the checks it shares are in :mod:`sicbo.dice.guards`. ``evolve(state, event)``, in
:mod:`sicbo.dice.state`, folds one event of the table's lifecycle aggregate into the state. No
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
- A correction names the current round or one of the ``CORRECTABLE_ROUNDS`` before it (also
  completed and paid, also after an earlier correction), never a round whose outcome is void;
  it is made in manual mode, with dual control where the table has it
  (:mod:`sicbo.dice.correction`).
"""

from __future__ import annotations

from datetime import datetime

from sicbo.decider import refuse, require_role, stamp
from sicbo.dice import correction
from sicbo.dice.guards import (
    as_roll,
    capturable_round,
    pending_entry,
    require_second_person,
    show_dice,
)
from sicbo.dice.state import DiceState, RoundState, evolve, fold, initial_state
from sicbo.game.dice import total
from sicbo_contracts.base import Role
from sicbo_contracts.dice import (
    ApproveCorrection,
    ConfirmResult,
    CorrectResult,
    DiceCommand,
    DiceEntered,
    DiceEvent,
    DiceRead,
    EnterDice,
    EnterManualMode,
    LeaveManualMode,
    ReadDice,
    RejectCorrection,
    ResolveHeldResult,
    ResultConfirmed,
    ResultHeld,
)

__all__ = ["DiceState", "RoundState", "decide", "evolve", "fold", "initial_state"]

_TERMINAL_ROLES = (Role.DEALER, Role.SUPERVISOR)  # 000 §5.3-5.4: "a dealer or the game supervisor"


def decide(state: DiceState, command: DiceCommand, at: datetime) -> list[DiceEvent]:
    """The events ``command`` causes at time ``at``, or raise ``Refused`` citing the rule."""
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
            return [correction.correct(state, command, at)]
        case ApproveCorrection():
            return [correction.approve(state, command, at)]
        case RejectCorrection():
            return [correction.reject(state, command, at)]
        case EnterManualMode():
            return [correction.enter_manual_mode(state, command, at)]
        case LeaveManualMode():
            return [correction.leave_manual_mode(state, command, at)]
    raise AssertionError(f"unhandled command {command!r}")  # pragma: no cover


def _enter(state: DiceState, command: EnterDice, at: datetime) -> DiceEntered:
    require_role(command, _TERMINAL_ROLES, rule="000 §5.4")
    current = capturable_round(state, command.round)
    if current.completed:
        refuse(
            f"round {current.number} is already completed; no dice can be entered for it",
            key="dice.round-completed",
            params={"round": current.number},
        )
    if current.entry is not None:
        # One entry per round: a second press could silently replace what was echoed and
        # announced. The fix is the confirmation step, or a supervisor's correction.
        refuse(
            f"dice for round {current.number} are already entered"
            f" ({show_dice(current.entry.dice)} by {current.entry.by!r}):"
            " already entered, confirm it or have a supervisor correct it",
            key="dice.already-entered",
            params={"round": current.number, "dice": show_dice(current.entry.dice)},
        )
    roll = as_roll(command.dice)
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
    current = capturable_round(state, command.round)
    entry = pending_entry(current)
    if current.held:
        # Confirming again would only hold it again: the disagreement needs a supervisor.
        reading = show_dice(current.reading) if current.reading is not None else "?"
        refuse(
            f"round {current.number}'s result is held: the entry {show_dice(entry.dice)} and the"
            f" reading {reading} disagree; a supervisor must resolve it (ResolveHeldResult)",
            key="dice.held",
            params={"round": current.number},
        )
    require_second_person(state, command.actor.id, entry.by, "someone else must confirm")
    entered = as_roll(entry.dice)
    if current.reading is not None and as_roll(current.reading) != entered:
        # Two sources disagree: nothing is settled until a supervisor looks at the dice.
        return ResultHeld(
            **stamp(command, at),
            round=current.number,
            entered=entered,
            read=as_roll(current.reading),
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
    current = capturable_round(state, command.round)
    if current.reading is not None:
        refuse(
            f"round {current.number} was already read as {show_dice(current.reading)}:"
            " one reading per round",
            key="dice.already-read",
            params={"round": current.number},
        )
    as_roll(command.dice)
    # Recorded whatever the entry says. Before confirmation, ConfirmResult compares the two.
    # After confirmation (even after completion, while the round is current) the reading
    # holds nothing back, since settlement may be running: a disagreement is for a supervisor
    # to correct (GLI-19 §4.18.4).
    return DiceRead(**stamp(command, at), round=current.number, dice=command.dice)


def _resolve(state: DiceState, command: ResolveHeldResult, at: datetime) -> ResultConfirmed:
    require_role(command, (Role.SUPERVISOR,), rule="DESIGN.md Roles: supervisor overrides")
    current = capturable_round(state, command.round)
    if not current.held:
        refuse(
            f"round {current.number} has no held result to resolve:"
            " only a result held because the reader and the entry disagree is resolved",
            key="dice.not-held",
            params={"round": current.number},
        )
    entry = pending_entry(current)
    require_second_person(
        state, command.actor.id, entry.by, "another supervisor must resolve the hold"
    )
    roll = as_roll(command.dice)
    return ResultConfirmed(
        **stamp(command, at),
        round=current.number,
        dice=roll,
        total=total(roll),
        entered_by=command.actor.id,  # the supervisor's own dice
        reason=command.reason,
    )
