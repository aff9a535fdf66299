"""Dual control of the lifecycle (``TableConfig.dual_control``): an invalidation (000 §8.4) and
a player's own sign (000 §4.4) proposed by one supervisor, approved by another. The facts as
the lifecycle decider produces them, and its commands."""

from datetime import datetime
from typing import Any

from sicbo_contracts.base import Limits
from sicbo_contracts.lifecycle import (
    ApproveInvalidation,
    ApprovePlayerLimits,
    InvalidateRound,
    InvalidationProposed,
    InvalidationReason,
    OverridePlayerLimits,
    PlayerLimitsOverrideProposed,
    RejectInvalidation,
    RejectPlayerLimits,
    TableOpened,
)
from tests.support.common import EARLIER, SUPERVISOR, SUPERVISOR_2, Who, command, event
from tests.support.lifecycle import table_opened

FRAUD = InvalidationReason.FRAUD
DETAIL = "past-posting seen on camera 4"
HIGH_ROLLER = Limits(minimum=10, maximum=5_000)
SIGN_REASON = "high roller sign"


def dual_control_opened(profile: str = "cca-1992", **layout: Any) -> TableOpened:
    """The table opened with ``TableConfig.dual_control``: two supervisors decide."""
    return table_opened(profile, dual_control=True, **layout)


def invalidate(
    round_no: int = 1,
    *forfeits: str,
    reason: InvalidationReason = FRAUD,
    by: Who = SUPERVISOR,
) -> InvalidateRound:
    return command(
        InvalidateRound, by, round=round_no, reason=reason, detail=DETAIL, forfeits=list(forfeits)
    )


def invalidation_proposed(
    round_no: int = 1,
    *forfeits: str,
    reason: InvalidationReason = FRAUD,
    by: Who = SUPERVISOR,
    at: datetime = EARLIER,
) -> InvalidationProposed:
    return event(
        InvalidationProposed,
        by,
        at=at,
        round=round_no,
        reason=reason,
        detail=DETAIL,
        forfeits=list(forfeits),
    )


def approve_invalidation(
    round_no: int = 1,
    *forfeits: str,
    reason: InvalidationReason = FRAUD,
    by: Who = SUPERVISOR_2,
) -> ApproveInvalidation:
    return command(ApproveInvalidation, by, round=round_no, reason=reason, forfeits=list(forfeits))


def reject_invalidation(round_no: int = 1, *, by: Who = SUPERVISOR_2) -> RejectInvalidation:
    return command(RejectInvalidation, by, round=round_no, reason="the camera shows no fraud")


def override(
    player: str = "p1", limits: Limits = HIGH_ROLLER, *, by: Who = SUPERVISOR
) -> OverridePlayerLimits:
    return command(OverridePlayerLimits, by, player=player, limits=limits, reason=SIGN_REASON)


def override_proposed(
    player: str = "p1",
    limits: Limits = HIGH_ROLLER,
    *,
    by: Who = SUPERVISOR,
    at: datetime = EARLIER,
) -> PlayerLimitsOverrideProposed:
    return event(
        PlayerLimitsOverrideProposed,
        by,
        at=at,
        player=player,
        before=None,
        after=limits,
        reason=SIGN_REASON,
    )


def approve_limits(
    player: str = "p1", limits: Limits = HIGH_ROLLER, *, by: Who = SUPERVISOR_2
) -> ApprovePlayerLimits:
    return command(ApprovePlayerLimits, by, player=player, limits=limits)


def reject_limits(player: str = "p1", *, by: Who = SUPERVISOR_2) -> RejectPlayerLimits:
    return command(RejectPlayerLimits, by, player=player, reason="no credit line on file")
