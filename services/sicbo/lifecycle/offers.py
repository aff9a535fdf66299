"""What the table's rules let an operator do now, for the screens (pure): the ways a round may
be started and whether the current round may be cancelled.

Each is found by asking the decider's own checks (:mod:`sicbo.lifecycle.guards`,
:mod:`sicbo.lifecycle.cancellation`) and keeping what they do not refuse, so a screen offers
exactly what the lifecycle would accept, and says why not with the decider's own words.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from sicbo.decider import Refused
from sicbo.game.profile_rules import ActivationRule
from sicbo.lifecycle.cancellation import cancellable_from, require_cancellable
from sicbo.lifecycle.guards import (
    calendar_of,
    profile_of,
    require_activation,
    require_approved_activation,
)
from sicbo.lifecycle.paytables import paytable_in_force
from sicbo.lifecycle.state import LifecycleState, Phase, TableStatus


def start_ways(state: LifecycleState, at: datetime) -> list[ActivationRule]:
    """The ways a round started at ``at`` may be started (000 §5.1; 002/2003 art. 2; 002/2004
    art. 2(1), the shaker only once adopted under art. 8; 004), each with the fewest tumbles it
    needs: the profile's ``[activation.*]`` the paytable in force on ``at``'s day allows.
    Empty while the table is not open."""
    config = state.config
    if config is None or state.status is not TableStatus.OPEN:
        return []
    profile = profile_of(config)
    paytable = paytable_in_force(state.approvals, profile, calendar_of(config).day_of(at))
    ways = []
    for activation, way in profile.activations.items():
        try:
            require_activation(profile, activation, way.min_tumbles)
            require_approved_activation(paytable, activation)
        except Refused:
            continue
        ways.append(way)
    return ways


@dataclass(frozen=True, slots=True)
class Cancellation:
    """Whether a supervisor may cancel the current round now (004 "Ralat Pengendalian"):
    ``round`` and, if not, the decider's ``refusal``; ``possible_from``: when a confirmed
    result's grace for a fix ends, if that is all that is missing."""

    round: int | None
    refusal: str | None
    possible_from: datetime | None = None
    #: The refusal as a message key and its parameters (Refused.key), for the pages.
    refusal_key: str | None = None
    refusal_params: Mapping[str, int | str] = field(default_factory=dict)

    @property
    def possible(self) -> bool:
        return self.round is not None and self.refusal is None


def cancellation_now(state: LifecycleState, at: datetime) -> Cancellation:
    """Whether ``CancelRound`` of the current round, sent by a supervisor at ``at``, would be
    accepted (its every check but the role's)."""
    current = state.round
    if current is None:
        return Cancellation(
            None, f"no round has started at {state.table}", refusal_key="round.none"
        )
    try:
        require_cancellable(state, current.number, at)
    except Refused as refused:
        return Cancellation(
            current.number,
            refused.reason,
            _grace_end(state, at),
            refusal_key=refused.key,
            refusal_params=refused.params,
        )
    return Cancellation(current.number, None)


def _grace_end(state: LifecycleState, at: datetime) -> datetime | None:
    """The end of a confirmed result's grace, if the decider would accept once it is over."""
    current, s, config = state.round, state.suspension, state.config
    if current is None or s is None or config is None:
        return None
    if current.ended_by is not Phase.RESULT_CONFIRMED:
        return None
    opens = cancellable_from(config, s.since)
    if opens <= at:
        return None
    try:
        require_cancellable(state, current.number, opens)
    except Refused:
        return None
    return opens
