"""Dual control in the log (``TableConfig.dual_control``, pure): on a dual-control table a
``RoundInvalidated`` (000 §8.4) or ``PlayerLimitsOverridden`` (000 §4.4) approves a proposal
of another supervisor, stored before it and not rejected since, with the content proposed (as
:class:`~.ledger.Ledger` asks of a correction, GLI-19 §4.18.4).

Asked of the lifecycle's own state as of the event (the proposals waiting, folded by
:func:`sicbo.lifecycle.evolve.evolve`), so the log is read as the decider read it.
"""

from __future__ import annotations

from sicbo.lifecycle.state import LifecycleState
from sicbo_contracts.lifecycle import PlayerLimitsOverridden, RoundInvalidated

#: The events dual control holds back until a second supervisor approves them.
APPROVED = (RoundInvalidated, PlayerLimitsOverridden)


def unapproved(
    state: LifecycleState, event: RoundInvalidated | PlayerLimitsOverridden
) -> str | None:
    """Why ``event`` is no approval of another supervisor's proposal on a dual-control table
    (``state`` as of just before it), or None."""
    config = state.config
    if config is None or not config.dual_control:
        return None
    proposer: str | None = None
    same = False
    if isinstance(event, RoundInvalidated):
        current = state.round
        waiting = current.pending_invalidation if current else None
        if current is not None and current.number != event.round:
            waiting = None
        what, rule = f"the invalidation of round {event.round}", "000 §8.4"
        if waiting is not None:
            proposer = waiting.by
            same = (waiting.reason, set(waiting.forfeits)) == (event.reason, set(event.forfeits))
    else:
        sign = state.pending_limits.get(event.player)
        what, rule = f"the sign of player {event.player!r}", "000 §4.4"
        if sign is not None:
            proposer, same = sign.by, sign.limits == event.after
    approver = event.actor.id
    if proposer is None or proposer != event.proposed_by or proposer == approver:
        return (
            f"{what} takes effect without approving another supervisor's proposal (proposed"
            f" by {proposer!r}, approved by {approver!r}; TableConfig.dual_control, {rule})"
        )
    if not same:
        return (
            f"{what} takes effect with other content than {proposer!r} proposed: the approval"
            f" names what was proposed (TableConfig.dual_control, {rule})"
        )
    return None
