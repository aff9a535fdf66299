"""A supervisor invalidates the outcome of a round (000 §8.4), and its dual control
(``TableConfig.dual_control``): the commands and events. Part of the round lifecycle's
contracts (:mod:`.lifecycle` lists them in its unions and re-exports them); kept apart so that
module stays readable.

With dual control the first supervisor's ``InvalidateRound`` is an ``InvalidationProposed``
(nothing changes); another supervisor's ``ApproveInvalidation``, naming the same reason and
forfeits, appends the ``RoundInvalidated`` (its actor the approver, ``proposed_by`` the
proposer); any supervisor's ``RejectInvalidation`` drops the proposal. Settlement, the results
feed and wager intake act on ``RoundInvalidated`` only.
"""

from enum import StrEnum

from sicbo_contracts.base import Command, Event, Id, Reason, RoundNo


class InvalidationReason(StrEnum):
    """000 §8.4."""

    CIVIL_COMMOTION = "civil-commotion"
    FIRE = "fire"
    RIOT = "riot"
    BRAWL = "brawl"
    ROBBERY = "robbery"
    ACT_OF_GOD = "act-of-god"
    FRAUD = "fraud"  # 000 §8.4.2: only then may wagers be forfeited (000 §8.5)


# ---- commands ---------------------------------------------------------------------------------


class InvalidateRound(Command, frozen=True, kw_only=True, tag="round.invalidate.v1"):
    """000 §8.4; with dual control, a proposal."""

    round: RoundNo
    reason: InvalidationReason
    detail: Reason
    #: Players whose wagers are forfeited instead of refunded (000 §8.5; fraud only).
    forfeits: list[Id] = []


class ApproveInvalidation(Command, frozen=True, kw_only=True, tag="round.approve-invalidation.v1"):
    """Dual control: a second supervisor approves the proposed invalidation of the round,
    naming its reason and forfeits again (they must be the proposal's)."""

    round: RoundNo
    reason: InvalidationReason
    forfeits: list[Id] = []


class RejectInvalidation(Command, frozen=True, kw_only=True, tag="round.reject-invalidation.v1"):
    """Dual control: a supervisor (the proposer too: a withdrawal) turns a proposal down."""

    round: RoundNo
    reason: Reason


# ---- events -----------------------------------------------------------------------------------


class RoundInvalidated(Event, frozen=True, kw_only=True, tag="round.invalidated.v1"):
    round: int
    reason: InvalidationReason
    detail: Reason
    forfeits: list[Id] = []
    #: Dual control: the supervisor who proposed it (the actor approved it); None without.
    proposed_by: Id | None = None


class InvalidationProposed(Event, frozen=True, kw_only=True, tag="round.invalidation-proposed.v1"):
    """Dual control: an invalidation waiting for a second supervisor; nothing is changed yet
    (settlement, the results feed and wager intake ignore it)."""

    round: int
    reason: InvalidationReason
    detail: Reason
    forfeits: list[Id] = []


class InvalidationRejected(Event, frozen=True, kw_only=True, tag="round.invalidation-rejected.v1"):
    """Dual control: the proposed invalidation is turned down (or withdrawn): the outcome
    stands."""

    round: int
    invalidation: InvalidationReason  # the reason proposed
    proposed_by: Id
    reason: Reason  # why it is rejected
