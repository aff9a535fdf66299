"""A supervisor invalidates the outcome of a game (000 §8.4), before or after its result.

"A casino supervisor may invalidate the outcome of a game": an outcome exists once the result
is confirmed, so the invalidation is allowed from the tumble until the round is over and paid,
while the round is the table's current one. Settlement pays it (000 §8.5): refunds, and the
forfeits of §8.4.2, directly when nothing was paid yet, or as a compensating
``SettlementVoided`` of what the result paid (never a rewrite). The public results feed
publishes the invalidation, which supersedes the result published before it.

With dual control (``TableConfig.dual_control``) the command is an ``InvalidationProposed``
that changes nothing; another supervisor approves it (:mod:`sicbo.lifecycle.dual_control`).
"""

from collections.abc import Iterable
from datetime import datetime

from sicbo.decider import refuse, require_role, stamp
from sicbo.lifecycle.guards import current_round, profile_of, require_open
from sicbo.lifecycle.state import LifecycleState, Phase, RoundState
from sicbo_contracts.base import Role
from sicbo_contracts.lifecycle import (
    InvalidateRound,
    InvalidationProposed,
    InvalidationReason,
    LifecycleEvent,
    RoundInvalidated,
)


def invalidate_round(
    state: LifecycleState, command: InvalidateRound, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, (Role.SUPERVISOR,), rule="000 §8.4")
    current = invalidable(state, command.round, command.reason, command.forfeits)
    forfeits = list(dict.fromkeys(command.forfeits))
    config = state.config
    if config is None or not config.dual_control:
        return [
            RoundInvalidated(
                **stamp(command, at),
                round=current.number,
                reason=command.reason,
                detail=command.detail,
                forfeits=forfeits,
            )
        ]
    pending = current.pending_invalidation
    if pending is not None:
        refuse(
            f"an invalidation of round {current.number} ({pending.reason.value}) by"
            f" {pending.by!r} waits for approval: approve or reject it first"
            " (TableConfig.dual_control)",
            key="invalidation.waits",
            params={"round": current.number, "by": pending.by},
        )
    return [
        InvalidationProposed(
            **stamp(command, at),
            round=current.number,
            reason=command.reason,
            detail=command.detail,
            forfeits=forfeits,
        )
    ]


def invalidable(
    state: LifecycleState, number: int, reason: InvalidationReason, forfeits: Iterable[str]
) -> RoundState:
    """The current round ``number``, if its outcome may be invalidated for ``reason`` with
    ``forfeits`` (000 §8.4-8.5); checked again when a second supervisor approves."""
    profile = profile_of(require_open(state))
    if not profile.supervisor_invalidation:
        refuse(
            f"profile {profile.id!r} has no supervisor invalidation (000 §8.4 is not among its"
            ' rules): announce "no result" or cancel the round instead',
            key="invalidation.not-in-profile",
        )
    current = current_round(state, number)
    if current.void:
        # A void round is not voided again in another way: it has no outcome left.
        assert current.ended_by is not None
        refuse(
            f"round {current.number} already ended {current.ended_by.value}: it has no outcome"
            " to invalidate",
            key="invalidation.no-outcome",
            params={"round": current.number},
        )
    if any(True for _ in forfeits) and reason is not InvalidationReason.FRAUD:
        refuse(
            f"forfeits: wagers may be forfeited only when the outcome is invalidated for fraud"
            f" (000 §8.5, §8.4.2), not for {reason.value}: refund every wager",
            key="invalidation.forfeit-fraud-only",
        )
    if current.phase is Phase.COMPLETED and current.ended_by is not Phase.RESULT_CONFIRMED:
        refuse(
            f"round {current.number} was completed without a result: nothing to invalidate",
            key="invalidation.no-outcome",
            params={"round": current.number},
        )
    return current
