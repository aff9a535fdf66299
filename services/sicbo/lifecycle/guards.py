"""Checks shared by the lifecycle's command handlers; each refuses with the rule it applies."""

from datetime import datetime

from sicbo.decider import refuse
from sicbo.game.profiles import Profile, load_profile
from sicbo.lifecycle.state import ENDED, LifecycleState, Phase, RoundState, TableStatus
from sicbo_contracts.base import Limits
from sicbo_contracts.lifecycle import Activation, TableConfig


def hhmm(at: datetime) -> str:
    return at.isoformat(timespec="minutes")


def require_open(state: LifecycleState) -> TableConfig:
    """The table's configuration, if it is open; every command but OpenTable needs this."""
    if state.status is TableStatus.CLOSED:
        when = f" at {hhmm(state.closed_at)}" if state.closed_at else ""
        refuse(f"table {state.table} was closed{when}: only OpenTable is accepted until it reopens")
    if state.config is None or state.status is not TableStatus.OPEN:
        refuse(f"table {state.table} is not open: open it first (OpenTable)")
    return state.config


def profile_of(config: TableConfig) -> Profile:
    return load_profile(config.profile)  # checked by OpenTable, so it exists


def check_limits(limits: Limits, what: str) -> None:
    """A sign's limits (000 §4.1): a minimum of at least 1, not above the maximum, a unit >= 1.
    Decoded commands are already checked by msgspec; commands built in code are not."""
    if limits.minimum < 1:
        refuse(f"{what}: the minimum wager must be at least 1 minor unit, got {limits.minimum}")
    if limits.minimum > limits.maximum:
        refuse(
            f"{what}: the minimum wager {limits.minimum} is above the maximum {limits.maximum}"
            " (000 §4.1)"
        )
    if limits.unit < 1:
        refuse(f"{what}: the minimum unit must be at least 1 minor unit, got {limits.unit}")


def show_limits(limits: Limits) -> str:
    unit = f", unit {limits.unit}" if limits.unit != 1 else ""
    return f"{limits.minimum}-{limits.maximum}{unit}"


def current_round(state: LifecycleState, number: int) -> RoundState:
    """The current round, if ``number`` names it."""
    current = state.round
    if current is None:
        refuse(f"round {number} is not the current round: no round has started at {state.table}")
    if number != current.number:
        refuse(f"round {number} is not the current round {current.number} of {state.table}")
    return current


def round_in_play(state: LifecycleState, number: int, doing: str) -> RoundState:
    """The current round, if it has no outcome yet (started, betting, uncovered)."""
    current = current_round(state, number)
    if current.phase is Phase.COMPLETED:
        refuse(f"round {number} is already completed: cannot {doing}")
    if current.phase in ENDED:
        refuse(f"round {number} already ended ({current.phase.value}): cannot {doing}")
    return current


def require_not_suspended(state: LifecycleState, doing: str) -> None:
    """000 §7.7: after an equipment malfunction "no further play shall be permitted until the
    fault has been rectified" (004: the round is suspended)."""
    s = state.suspension
    if s is not None:
        refuse(
            f"table {state.table} is suspended since {hhmm(s.since)}"
            f" ({', '.join(s.equipment)} malfunction): cannot {doing} until an inspector"
            " clears the fault (000 §7.7: no further play until the fault is rectified)"
        )


def require_activation(profile: Profile, activation: Activation, tumbles: int) -> None:
    """The round is started in a way the profile's rules allow, tumbling the dice at least as
    often as that way needs (000 §5.1; 002/2003 art. 2; 002/2004 art. 2(1); 004)."""
    way = profile.activations.get(activation)
    if way is None:
        allowed = "; ".join(f"{a.value} ({r.rule})" for a, r in profile.activations.items())
        refuse(
            f"activation: profile {profile.id!r} does not start a round by the {activation.value}:"
            f" its rules start it by {allowed}"
        )
    if tumbles < way.min_tumbles:
        refuse(
            f"tumbles: the dice tumbled {tumbles} time(s) by the {activation.value}: they must"
            f" tumble at least {way.min_tumbles} times ({way.rule}) - activate the tumbler again"
        )
