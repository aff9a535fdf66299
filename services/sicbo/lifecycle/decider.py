"""The round lifecycle decider: table and round phases as pure functions.

``decide(state, command, at)`` turns a dealer's, supervisor's, inspector's, operator's or
service's command into events, or raises :class:`~sicbo.decider.Refused` naming the rule;
``evolve(state, event)`` folds one event of the table's lifecycle aggregate (the dice events
included) into the state. No clock, no randomness, no I/O: time comes in as ``at`` and every
event records ``table``, ``actor`` and ``at`` from the command (DESIGN.md "Pure core").

Choices where the sources are silent are noted where they are enforced; the main ones:

- Round numbers continue across a close and a reopen (subjects and settlement filters are
  per round number, so a number is never reused).
- While suspended (000 §7.7) a round may not start, open betting or be uncovered; closing
  betting, "no result", invalidation, cancellation and completion (settle by the dice,
  000 §7.6) still work. The suspension lasts until an inspector clears it or, at a
  suspend-round table, the supervisor resumes the suspended round (004); a malfunction
  reported without a round belongs to the round in progress, if any.
- A suspension pauses a running betting countdown; lifting it resumes betting with the time
  left, at least the profile's ``resume_betting_seconds``, at most ``betting_seconds``
  (:mod:`sicbo.lifecycle.resumption`). The countdown's stale deadlines close nothing.
- CloseBetting is not refused before the countdown's ``closes_at``, and a dealer may close an
  online round's betting by hand; a service account may close betting only at a countdown table.
- A round is cancelled only where the profile's ``[cancellation]`` provides it (004 "Ralat
  Pengendalian"), and only while suspended: before its result, whenever a fault suspended the
  table; a confirmed result while its round is suspended under the suspend-round policy and
  ``fault_grace_seconds`` have passed (elsewhere it settles by the dice, 000 §7.6). See
  :mod:`sicbo.lifecycle.cancellation`.
- A void round (no result, invalidated, cancelled) is not voided again in another way.
- A supervisor invalidates the current round's outcome (000 §8.4) before its result or after
  it, also once it is completed and paid: settlement compensates what the result paid.
- With ``TableConfig.dual_control`` an invalidation (000 §8.4) and a player's own sign
  (000 §4.4) are proposed by one supervisor and approved by another
  (:mod:`sicbo.lifecycle.dual_control`); the next round waits for a pending invalidation.
- 000 §8.9 counts only rounds completed while every seat is taken; a round completed at a table
  with a free seat breaks the streak. Every completed round counts, void ones included.
- A raise of the minimum consumes the notice that allowed it (the sign comes down).
- A paytable approval is never retroactive: its adoption date is not before the approval day;
  days are the table's (its time zone), working days Mon-Fri less the table's holidays.
- CloseTable vacates every seat (SeatVacated events) before TableClosed.
- 000 §8.3.1 voids a player's wagers in the current round only before its result; 000 §8.3.2
  excludes a player from this table (unseated, no seat, no slip) until lifted, also across a
  closing (:mod:`sicbo.lifecycle.conduct`).
"""

from datetime import datetime

from sicbo.decider import refuse
from sicbo.lifecycle import (
    adoption,
    cancellation,
    conduct,
    dual_control,
    invalidation,
    limits,
    resumption,
    rounds,
    table,
)
from sicbo.lifecycle.evolve import evolve, fold
from sicbo.lifecycle.state import LifecycleState, initial_state
from sicbo_contracts.lifecycle import (
    ApproveInvalidation,
    ApprovePaytable,
    ApprovePlayerLimits,
    CancelRound,
    ChangeLimits,
    ClearFault,
    CloseBetting,
    CloseTable,
    CompleteRound,
    DeclareNoResult,
    ExcludePlayer,
    InvalidateRound,
    LeaveSeat,
    LifecycleCommand,
    LifecycleEvent,
    LiftExclusion,
    OpenBetting,
    OpenTable,
    OverridePlayerLimits,
    PostClosingNotice,
    PostLimitsNotice,
    ProposePaytable,
    RejectInvalidation,
    RejectPlayerLimits,
    ReportMalfunction,
    StartRound,
    TakeSeat,
    Uncover,
    VoidPlayerWagers,
)
from sicbo_contracts.resumption import ResumeRound

__all__ = ["LifecycleState", "decide", "evolve", "fold", "initial_state"]


def decide(state: LifecycleState, command: LifecycleCommand, at: datetime) -> list[LifecycleEvent]:
    """The events ``command`` causes at time ``at``, or raise ``Refused`` citing the rule."""
    if command.table != state.table:
        refuse(f"command for table {command.table!r} reached the state of table {state.table!r}")
    match command:
        case OpenTable():
            return table.open_table(state, command, at)
        case PostLimitsNotice():
            return limits.post_limits_notice(state, command, at)
        case ChangeLimits():
            return limits.change_limits(state, command, at)
        case OverridePlayerLimits():
            return limits.override_player_limits(state, command, at)
        case PostClosingNotice():
            return table.post_closing_notice(state, command, at)
        case CloseTable():
            return table.close_table(state, command, at)
        case VoidPlayerWagers():
            return conduct.void_player_wagers(state, command, at)
        case ExcludePlayer():
            return conduct.exclude_player(state, command, at)
        case LiftExclusion():
            return conduct.lift_exclusion(state, command, at)
        case TakeSeat():
            return conduct.take_seat(state, command, at)
        case LeaveSeat():
            return table.leave_seat(state, command, at)
        case ProposePaytable():
            return adoption.propose_paytable(state, command, at)
        case ApprovePaytable():
            return adoption.approve_paytable(state, command, at)
        case StartRound():
            return rounds.start_round(state, command, at)
        case OpenBetting():
            return rounds.open_betting(state, command, at)
        case CloseBetting():
            return rounds.close_betting(state, command, at)
        case Uncover():
            return rounds.uncover(state, command, at)
        case DeclareNoResult():
            return rounds.declare_no_result(state, command, at)
        case InvalidateRound():
            return invalidation.invalidate_round(state, command, at)
        case ReportMalfunction():
            return rounds.report_malfunction(state, command, at)
        case ClearFault():
            return rounds.clear_fault(state, command, at)
        case CancelRound():
            return cancellation.cancel_round(state, command, at)
        case CompleteRound():
            return rounds.complete_round(state, command, at)
        case ResumeRound():
            return resumption.resume_round(state, command, at)
        case ApproveInvalidation():
            return dual_control.approve_invalidation(state, command, at)
        case RejectInvalidation():
            return dual_control.reject_invalidation(state, command, at)
        case ApprovePlayerLimits():
            return dual_control.approve_player_limits(state, command, at)
        case RejectPlayerLimits():
            return dual_control.reject_player_limits(state, command, at)
    raise AssertionError(f"unhandled command {command!r}")  # pragma: no cover
