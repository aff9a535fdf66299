"""Corrections of a confirmed result (GLI-19 §4.18.4), in manual mode (GLI-19 §C.6.8(o)), with
dual control where the table has it (``TableConfig.dual_control``): pure decisions.

The model (docs/rules.md "Dice capture"):

- manual mode is the table's, entered and left by a supervisor (``EnterManualMode``,
  ``LeaveManualMode``), recorded on the table's log (round 0) and shown to the table's players
  while it lasts; a correction is accepted only in manual mode, so every correction on the log
  lies inside a recorded window. Nothing else stops in manual mode: the dealer plays on;
- a correction names its round: the current one, or one of the :data:`CORRECTABLE_ROUNDS`
  before it (completed and paid, the next rounds played since); settlement adjusts it;
- with dual control the first supervisor's ``CorrectResult`` is a ``CorrectionProposed``; only
  ``ApproveCorrection`` by another supervisor (another actor id, as signed in), with the same
  dice, appends the ``ResultCorrected`` (its actor the approver, ``proposed_by`` the proposer);
  ``RejectCorrection`` (by any supervisor, the proposer too) drops it. One proposal per round;
  manual mode is not left while one waits.
"""

from __future__ import annotations

from datetime import datetime

from sicbo.decider import refuse, require_role, stamp
from sicbo.dice.guards import as_roll, show_dice
from sicbo.dice.state import CORRECTABLE_ROUNDS, DiceState, ManualMode, Proposal, RoundState
from sicbo_contracts.base import Role
from sicbo_contracts.dice import (
    ApproveCorrection,
    CorrectionProposed,
    CorrectionRejected,
    CorrectResult,
    EnterManualMode,
    LeaveManualMode,
    ManualModeEntered,
    ManualModeLeft,
    RejectCorrection,
    ResultCorrected,
)

_SUPERVISOR = (Role.SUPERVISOR,)


def enter_manual_mode(
    state: DiceState, command: EnterManualMode, at: datetime
) -> ManualModeEntered:
    require_role(command, _SUPERVISOR, rule="GLI-19 §C.6.8(o): manual mode")
    if state.manual is not None:
        refuse(
            f"table {state.table} is already in manual mode (since {state.manual.since:%H:%M:%S},"
            f" by {state.manual.by!r}; GLI-19 §C.6.8(o))",
            key="dice.manual-already",
        )
    return ManualModeEntered(**stamp(command, at), reason=command.reason)


def leave_manual_mode(state: DiceState, command: LeaveManualMode, at: datetime) -> ManualModeLeft:
    require_role(command, _SUPERVISOR, rule="GLI-19 §C.6.8(o): manual mode")
    manual = _manual_mode(state)
    waiting = [str(r.number) for r in state.proposals]
    if waiting:
        refuse(
            f"a correction of round {', '.join(waiting)} waits for a second supervisor:"
            " approve or reject it before leaving manual mode (TableConfig.dual_control)",
            key="dice.correction-waits",
        )
    return ManualModeLeft(**stamp(command, at), since=manual.since)


def correct(
    state: DiceState, command: CorrectResult, at: datetime
) -> ResultCorrected | CorrectionProposed:
    require_role(command, _SUPERVISOR, rule="GLI-19 §4.18.4: manual correction")
    _manual_mode(state)
    target = _with_result(state, command.round)
    if target.proposal is not None:
        refuse(
            f"a correction of round {target.number} to {show_dice(target.proposal.after)} by"
            f" {target.proposal.by!r} waits for approval: approve or reject it first"
            " (TableConfig.dual_control)",
            key="dice.correction-waits",
        )
    after = as_roll(command.dice)
    assert target.result is not None  # _with_result
    if after == target.result:
        refuse(
            f"round {target.number}'s result is already {show_dice(after)}:"
            " a correction must change the dice",
            key="dice.same-dice",
            params={"round": target.number},
        )
    kind = CorrectionProposed if state.dual_control else ResultCorrected
    return kind(
        **stamp(command, at),
        round=target.number,
        before=target.result,
        after=after,
        reason=command.reason,
    )


def approve(state: DiceState, command: ApproveCorrection, at: datetime) -> ResultCorrected:
    require_role(command, _SUPERVISOR, rule="TableConfig.dual_control: a second supervisor")
    _manual_mode(state)
    target = _with_result(state, command.round)
    proposal = _proposal(target)
    if command.actor.id == proposal.by:
        refuse(
            f"{proposal.by!r} proposed the correction of round {target.number}: another"
            " supervisor must approve it (TableConfig.dual_control)",
            key="dice.own-proposal",
            params={"round": target.number},
        )
    if as_roll(command.dice) != proposal.after:
        refuse(
            f"the dice approved ({show_dice(as_roll(command.dice))}) are not the proposed"
            f" {show_dice(proposal.after)} of round {target.number}: approve what was proposed,"
            " or reject it",
            key="dice.correction-other-dice",
        )
    assert target.result is not None  # _with_result
    return ResultCorrected(
        **stamp(command, at),
        round=target.number,
        before=target.result,
        after=proposal.after,
        reason=proposal.reason,
        proposed_by=proposal.by,
    )


def reject(state: DiceState, command: RejectCorrection, at: datetime) -> CorrectionRejected:
    require_role(command, _SUPERVISOR, rule="TableConfig.dual_control")
    target = state.round_of(command.round)
    if target is None or target.proposal is None:
        refuse(
            f"no correction of round {command.round} waits for approval at table {state.table}",
            key="dice.no-correction",
            params={"round": command.round},
        )
    proposal = target.proposal
    return CorrectionRejected(
        **stamp(command, at),
        round=target.number,
        after=proposal.after,
        proposed_by=proposal.by,
        reason=command.reason,
    )


# ---- checks -------------------------------------------------------------------------------------


def _manual_mode(state: DiceState) -> ManualMode:
    if state.manual is None:
        refuse(
            f"table {state.table} is not in manual mode: a supervisor enters it"
            " (EnterManualMode) before correcting a result by hand, so the table's players see"
            " it (GLI-19 §C.6.8(o))",
            key="dice.not-manual",
        )
    return state.manual


def correctable(state: DiceState, number: int) -> RoundState:
    """The round ``number`` if a correction may name it: the current one or a kept earlier one."""
    current = state.round
    if current is None:
        refuse(
            f"no round has started at table {state.table}: there is no result to correct",
            key="dice.correct-no-round",
        )
    if number > current.number:
        refuse(
            f"round {number} has not started at table {state.table} (round {current.number} is"
            " the current one)",
            key="dice.correct-not-started",
            params={"round": number},
        )
    found = state.round_of(number)
    if found is None:
        refuse(
            f"round {number} is more than {CORRECTABLE_ROUNDS} rounds before the current round"
            f" {current.number} of table {state.table}: a result that old is not corrected at"
            " the terminal (CORRECTABLE_ROUNDS; GLI-19 §4.18.4)",
            key="dice.correct-too-old",
            params={"round": number, "rounds": CORRECTABLE_ROUNDS},
        )
    return found


def _with_result(state: DiceState, number: int) -> RoundState:
    target = correctable(state, number)
    if target.void is not None:
        refuse(
            f"round {target.number} has no result to correct: {target.void}",
            key="dice.correct-no-result",
            params={"round": target.number},
        )
    if target.result is None:
        refuse(
            f"round {target.number} has no confirmed result yet: only a confirmed result is"
            " corrected (GLI-19 §4.18.4); confirm the entry or resolve the hold instead",
            key="dice.no-confirmed-result",
            params={"round": target.number},
        )
    return target


def _proposal(target: RoundState) -> Proposal:
    if target.proposal is None:
        refuse(
            f"no correction of round {target.number} waits for approval: a supervisor proposes"
            " it first (CorrectResult; TableConfig.dual_control)",
            key="dice.no-correction",
            params={"round": target.number},
        )
    return target.proposal
