"""Checks shared by the lifecycle's command handlers; each refuses with the rule it applies."""

from datetime import datetime

from sicbo.decider import refuse
from sicbo.game.bets import BetKind
from sicbo.game.limits import bounds_for, unknown_kinds
from sicbo.game.profiles import IlluminationFaultPolicy, Profile, load_profile, parse_paytable_ref
from sicbo.lifecycle.calendar import TableCalendar, table_calendar
from sicbo.lifecycle.state import ENDED, LifecycleState, Phase, RoundState, TableStatus
from sicbo_contracts.base import KindLimits, Limits
from sicbo_contracts.lifecycle import Activation, TableConfig


def hhmm(at: datetime) -> str:
    return at.isoformat(timespec="minutes")


def require_open(state: LifecycleState) -> TableConfig:
    """The table's configuration, if it is open; every command but OpenTable needs this."""
    if state.status is TableStatus.CLOSED:
        when = f" at {hhmm(state.closed_at)}" if state.closed_at else ""
        refuse(
            f"table {state.table} was closed{when}: only OpenTable is accepted until it reopens",
            key="table.closed",
        )
    if state.config is None or state.status is not TableStatus.OPEN:
        refuse(f"table {state.table} is not open: open it first (OpenTable)", key="table.not-open")
    return state.config


def profile_of(config: TableConfig) -> Profile:
    return load_profile(config.profile)  # checked by OpenTable, so it exists


def calendar_of(config: TableConfig) -> TableCalendar:
    """The open table's days (its time zone was checked by OpenTable)."""
    return table_calendar(config, profile_of(config))


def check_limits(limits: Limits, what: str, profile: Profile, *, field: str = "limits") -> None:
    """A sign's limits (000 §4.1): a minimum of at least 1, not above the maximum, a unit >= 1;
    each bet kind's line for a kind the table's profile offers, and with its minimum not above
    its maximum. Decoded commands are already checked by msgspec; commands built in code are
    not."""
    if limits.minimum < 1:
        refuse(
            f"{what}: the minimum wager must be at least 1 minor unit, got {limits.minimum}",
            key="limits.minimum-zero",
        )
    if limits.minimum > limits.maximum:
        refuse(
            f"{what}: the minimum wager {limits.minimum} is above the maximum {limits.maximum}"
            " (000 §4.1)",
            key="limits.min-above-max",
        )
    if limits.unit < 1:
        refuse(
            f"{what}: the minimum unit must be at least 1 minor unit, got {limits.unit}",
            key="limits.unit-zero",
        )
    for name in unknown_kinds(limits):
        kinds = ", ".join(kind.value for kind in BetKind)
        refuse(
            f"{field}.by_kind[{name!r}]: {what} has a line for {name!r}, which is not a bet"
            f" kind (RULES.md bet catalogue: {kinds})",
            key="limits.not-a-kind",
        )
    offered = profile.paytable().offered_kinds
    for name, line in sorted(limits.by_kind.items()):
        where = f"{field}.by_kind[{name!r}]"
        kind = BetKind(name)
        if kind not in offered:
            refuse(
                f"{where}: {what} has a line for {name!r}, a bet profile {profile.id!r} does"
                " not offer",
                key="limits.kind-not-offered",
            )
        if line.minimum is None and line.maximum is None:
            refuse(
                f"{where}: a line of the sign gives a minimum, a maximum or both (000 §4.1)",
                key="limits.line-empty",
            )
        bounds = bounds_for(limits, kind)
        if bounds.minimum < 1:
            refuse(
                f"{where}: the minimum wager must be at least 1 minor unit, got {bounds.minimum}",
                key="limits.minimum-zero",
            )
        if bounds.minimum > bounds.maximum:
            refuse(
                f"{where}: {what} would let {name} wagers from {bounds.minimum} up to"
                f" {bounds.maximum}: the minimum is above the maximum (000 §4.1)",
                key="limits.min-above-max",
            )


def show_limits(limits: Limits) -> str:
    unit = f", unit {limits.unit}" if limits.unit != 1 else ""
    lines = "".join(f", {name} {_line(line)}" for name, line in sorted(limits.by_kind.items()))
    return f"{limits.minimum}-{limits.maximum}{unit}{lines}"


def _line(line: KindLimits) -> str:
    if line.minimum is None:
        return f"up to {line.maximum}"
    if line.maximum is None:
        return f"from {line.minimum}"
    return f"{line.minimum}-{line.maximum}"


def current_round(state: LifecycleState, number: int) -> RoundState:
    """The current round, if ``number`` names it."""
    current = state.round
    if current is None:
        refuse(
            f"round {number} is not the current round: no round has started at {state.table}",
            key="round.none-started",
            params={"round": number},
        )
    if number != current.number:
        refuse(
            f"round {number} is not the current round {current.number} of {state.table}",
            key="round.not-current",
            params={"round": number, "current": current.number},
        )
    return current


def round_in_play(state: LifecycleState, number: int, doing: str) -> RoundState:
    """The current round, if it has no outcome yet (started, betting, uncovered)."""
    current = current_round(state, number)
    if current.phase is Phase.COMPLETED:
        refuse(
            f"round {number} is already completed: cannot {doing}",
            key="round.completed",
            params={"round": number},
        )
    if current.phase in ENDED:
        refuse(
            f"round {number} already ended ({current.phase.value}): cannot {doing}",
            key="round.ended",
            params={"round": number},
        )
    return current


def require_not_suspended(state: LifecycleState, doing: str) -> None:
    """000 §7.7: after an equipment malfunction "no further play shall be permitted until the
    fault has been rectified" (004: the round is suspended)."""
    s = state.suspension
    if s is not None:
        # The policy recorded with the suspension says who lifts it (data, not a profile id).
        who = (
            'the supervisor resumes the round (004 "Ralat Pengendalian") or an inspector'
            if s.policy == IlluminationFaultPolicy.SUSPEND_ROUND.value and s.round is not None
            else "an inspector"
        )
        refuse(
            f"table {state.table} is suspended since {hhmm(s.since)}"
            f" ({', '.join(s.equipment)} malfunction): cannot {doing} until {who}"
            " clears the fault (000 §7.7: no further play until the fault is rectified)",
            key="table.suspended",
            params={"since_at": s.since.isoformat()},
        )


def require_approved_activation(paytable_ref: str, activation: Activation) -> None:
    """Where the way of starting a round is an option of the paytable (002/2004 art. 1(2)(1),
    art. 2(1): the handle or the electric shaker, adopted with the regulator's approval,
    art. 8), the round is started the way the paytable in force says."""
    paytable = parse_paytable_ref(paytable_ref)
    if "activation" not in paytable.profile.choices:
        return
    approved = paytable.choice("activation")
    if approved != activation.value:
        refuse(
            f"activation: the paytable in force ({paytable_ref}) starts rounds by the {approved}"
            f" (002/2004 art. 2(1); another way needs its approval, art. 8), not the"
            f" {activation.value}",
            key="round.activation-not-approved",
            params={"approved": approved or ""},
        )


def require_activation(profile: Profile, activation: Activation, tumbles: int) -> None:
    """The round is started in a way the profile's rules allow, tumbling the dice at least as
    often as that way needs (000 §5.1; 002/2003 art. 2; 002/2004 art. 2(1); 004)."""
    way = profile.activations.get(activation)
    if way is None:
        allowed = "; ".join(f"{a.value} ({r.rule})" for a, r in profile.activations.items())
        refuse(
            f"activation: profile {profile.id!r} does not start a round by the {activation.value}:"
            f" its rules start it by {allowed}",
            key="round.activation-not-allowed",
            params={"activation": activation.value},
        )
    if tumbles < way.min_tumbles:
        refuse(
            f"tumbles: the dice tumbled {tumbles} time(s) by the {activation.value}: they must"
            f" tumble at least {way.min_tumbles} times ({way.rule}) - activate the tumbler again",
            key="round.too-few-tumbles",
            params={"tumbles": tumbles, "least": way.min_tumbles},
        )
