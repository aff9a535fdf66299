"""Dual control of an invalidation (000 §8.4) and of a player's own sign (000 §4.4), where the
table has it (``TableConfig.dual_control``): the second supervisor's decisions (pure).

The model is the corrections' (:mod:`sicbo.dice.correction`; docs/rules.md "Dual control"):

- the first supervisor's ``InvalidateRound`` / ``OverridePlayerLimits`` is recorded as an
  ``InvalidationProposed`` / ``PlayerLimitsOverrideProposed`` and changes nothing: settlement,
  the results feed and wager intake act only on ``RoundInvalidated`` /
  ``PlayerLimitsOverridden``;
- another supervisor (another actor id, as signed in) approves it, naming what was proposed
  again (``ApproveInvalidation``: the reason and forfeits; ``ApprovePlayerLimits``: the
  limits); the rules are checked again on the table as it is then; only then is the
  ``RoundInvalidated`` / ``PlayerLimitsOverridden`` appended, its actor the approver and
  ``proposed_by`` the proposer;
- any supervisor, the proposer too, rejects a proposal (``RejectInvalidation``,
  ``RejectPlayerLimits``); one proposal per round, one per player, at a time;
- the next round does not start while an invalidation of the current one waits (000 §8.4
  invalidates the current round only: starting the next would lose it); a closing takes down
  a proposed sign with the signs in force.
"""

from datetime import datetime

from sicbo.decider import refuse, require_role, stamp
from sicbo.lifecycle.guards import current_round, show_limits
from sicbo.lifecycle.invalidation import invalidable
from sicbo.lifecycle.limits import player_sign_before
from sicbo.lifecycle.state import LifecycleState, PendingInvalidation, PendingLimits
from sicbo_contracts.base import Command, Role
from sicbo_contracts.lifecycle import (
    ApproveInvalidation,
    ApprovePlayerLimits,
    InvalidationRejected,
    LifecycleEvent,
    PlayerLimitsOverridden,
    PlayerLimitsOverrideRejected,
    RejectInvalidation,
    RejectPlayerLimits,
    RoundInvalidated,
)

_SUPERVISOR = (Role.SUPERVISOR,)
_SECOND = "TableConfig.dual_control: a second supervisor"


def approve_invalidation(
    state: LifecycleState, command: ApproveInvalidation, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule=f"000 §8.4; {_SECOND}")
    pending = _pending_invalidation(state, command.round)
    what = f"the invalidation of round {command.round}"
    _another_supervisor(command, pending.by, what)
    if command.reason is not pending.reason:
        refuse(
            f"reason: the reason approved ({command.reason.value}) is not the proposed"
            f" {pending.reason.value} of {what}: approve what was proposed, or reject it",
            key="approval.not-proposed",
        )
    if set(command.forfeits) != set(pending.forfeits):
        proposed = ", ".join(pending.forfeits) or "none"
        refuse(
            f"forfeits: the forfeits approved ({', '.join(command.forfeits) or 'none'}) are not"
            f" the proposed ({proposed}) of {what}: approve what was proposed, or reject it",
            key="approval.not-proposed",
        )
    current = invalidable(state, command.round, pending.reason, pending.forfeits)  # 000 §8.4
    return [
        RoundInvalidated(
            **stamp(command, at),
            round=current.number,
            reason=pending.reason,
            detail=pending.detail,
            forfeits=list(pending.forfeits),
            proposed_by=pending.by,
        )
    ]


def reject_invalidation(
    state: LifecycleState, command: RejectInvalidation, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule="000 §8.4; TableConfig.dual_control")
    pending = _pending_invalidation(state, command.round)
    return [
        InvalidationRejected(
            **stamp(command, at),
            round=command.round,
            invalidation=pending.reason,
            proposed_by=pending.by,
            reason=command.reason,
        )
    ]


def approve_player_limits(
    state: LifecycleState, command: ApprovePlayerLimits, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule=f"000 §4.4; {_SECOND}")
    pending = _pending_limits(state, command.player)
    what = f"the sign of player {command.player!r}"
    _another_supervisor(command, pending.by, what)
    if command.limits != pending.limits:
        refuse(
            f"limits: the limits approved ({show_limits(command.limits)}) are not the proposed"
            f" {show_limits(pending.limits)} of {what}: approve what was proposed, or reject it",
            key="approval.not-proposed",
        )
    before = player_sign_before(state, command.player, pending.limits)  # 000 §4.4
    return [
        PlayerLimitsOverridden(
            **stamp(command, at),
            player=command.player,
            before=before,
            after=pending.limits,
            reason=pending.reason,
            proposed_by=pending.by,
        )
    ]


def reject_player_limits(
    state: LifecycleState, command: RejectPlayerLimits, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule="000 §4.4; TableConfig.dual_control")
    pending = _pending_limits(state, command.player)
    return [
        PlayerLimitsOverrideRejected(
            **stamp(command, at),
            player=command.player,
            after=pending.limits,
            proposed_by=pending.by,
            reason=command.reason,
        )
    ]


def require_no_pending_invalidation(state: LifecycleState) -> None:
    """The next round does not start while an invalidation of the current one waits."""
    current = state.round
    pending = current.pending_invalidation if current is not None else None
    if current is not None and pending is not None:
        refuse(
            f"an invalidation of round {current.number} by {pending.by!r} waits for a second"
            " supervisor: approve or reject it before the next round starts (000 §8.4"
            " invalidates the current round only; TableConfig.dual_control)",
            key="round.invalidation-waits",
            params={"round": current.number, "by": pending.by},
        )


# ---- checks -------------------------------------------------------------------------------------


def _pending_invalidation(state: LifecycleState, number: int) -> PendingInvalidation:
    pending = current_round(state, number).pending_invalidation
    if pending is None:
        refuse(
            f"round: no invalidation of round {number} waits for approval: a supervisor"
            " proposes it first (InvalidateRound; TableConfig.dual_control)",
            key="approval.no-invalidation",
            params={"round": number},
        )
    return pending


def _pending_limits(state: LifecycleState, player: str) -> PendingLimits:
    pending = state.pending_limits.get(player)
    if pending is None:
        refuse(
            f"player: no sign of player {player!r} waits for approval: a supervisor proposes"
            " it first (OverridePlayerLimits; TableConfig.dual_control)",
            key="approval.no-sign",
            params={"player": player},
        )
    return pending


def _another_supervisor(command: Command, proposer: str, what: str) -> None:
    if command.actor.id == proposer:
        refuse(
            f"{proposer!r} proposed {what}: another supervisor must approve it"
            " (TableConfig.dual_control)",
            key="approval.second-supervisor",
            params={"by": proposer},
        )
