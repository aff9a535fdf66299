"""One player's own sign (000 §4.4), and its dual control (``TableConfig.dual_control``): the
commands and events. Part of the round lifecycle's contracts (:mod:`.lifecycle` lists them in
its unions and re-exports them); kept apart so that module stays readable.

With dual control the first supervisor's ``OverridePlayerLimits`` is a
``PlayerLimitsOverrideProposed`` (nothing changes); another supervisor's
``ApprovePlayerLimits``, naming the same limits, appends the ``PlayerLimitsOverridden`` (its
actor the approver, ``proposed_by`` the proposer); any supervisor's ``RejectPlayerLimits``
drops the proposal. Wager intake acts on ``PlayerLimitsOverridden`` only.
"""

from sicbo_contracts.base import Command, Event, Id, Limits, Reason


class OverridePlayerLimits(
    Command, frozen=True, kw_only=True, tag="table.override-player-limits.v1"
):
    """A supervisor lets one player wager over the maximum, with a sign for them (000 §4.4);
    with dual control, a proposal."""

    player: Id
    limits: Limits
    reason: Reason


class ApprovePlayerLimits(Command, frozen=True, kw_only=True, tag="table.approve-player-limits.v1"):
    """Dual control: a second supervisor approves the proposed sign of ``player``, naming its
    limits again (they must be the proposal's)."""

    player: Id
    limits: Limits


class RejectPlayerLimits(Command, frozen=True, kw_only=True, tag="table.reject-player-limits.v1"):
    """Dual control: a supervisor (the proposer too: a withdrawal) turns a proposal down."""

    player: Id
    reason: Reason


class PlayerLimitsOverridden(
    Event, frozen=True, kw_only=True, tag="table.player-limits-overridden.v1"
):
    player: Id
    before: Limits | None
    after: Limits
    reason: Reason
    #: Dual control: the supervisor who proposed it (the actor approved it); None without.
    proposed_by: Id | None = None


class PlayerLimitsOverrideProposed(
    Event, frozen=True, kw_only=True, tag="table.player-limits-override-proposed.v1"
):
    """Dual control: a player's sign waiting for a second supervisor; nothing is changed yet
    (wager intake ignores it)."""

    player: Id
    before: Limits | None
    after: Limits
    reason: Reason


class PlayerLimitsOverrideRejected(
    Event, frozen=True, kw_only=True, tag="table.player-limits-override-rejected.v1"
):
    """Dual control: the proposed sign is turned down (or withdrawn): the player's limits stay."""

    player: Id
    after: Limits  # the limits proposed
    proposed_by: Id
    reason: Reason  # why it is rejected
