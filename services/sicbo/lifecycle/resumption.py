"""A suspension lifted, and the betting countdown it paused (004 "Ralat Pengendalian").

004: on an unexpected problem "the round is suspended for a while and the dealer tells the
supervisor. If the problem can be solved quickly, the round resumes and continues as usual;
if no immediate solution is possible, the round is cancelled and every wager refunded."

- A suspension during a running countdown pauses it (:func:`sicbo.lifecycle.evolve`): the
  round's ``closes_at`` no longer applies, the time left is kept.
- Whoever lifts the suspension (the supervisor's ResumeRound at a suspend-round table, an
  inspector's ClearFault at any table, 000 §7.7) appends FaultCleared and, for a paused round,
  BettingResumed with the new ``closes_at``: the time left, at least the profile's
  ``resume_betting_seconds``, at most the table's whole ``betting_seconds``. Both go in one
  batch, so the table is never unsuspended with its betting still paused.
- The countdown's CloseBetting names the deadline it fires for: it is refused while betting is
  paused and for a deadline a resumption superseded (the new deadline has its own timer).
"""

from datetime import datetime, timedelta

from sicbo.decider import refuse, require_role, stamp
from sicbo.game.profiles import IlluminationFaultPolicy
from sicbo.lifecycle.guards import hhmm, profile_of, require_open
from sicbo.lifecycle.state import LifecycleState, Phase, RoundState, Suspension
from sicbo_contracts.base import Command, Role
from sicbo_contracts.lifecycle import CloseBetting, FaultCleared, LifecycleEvent, TableConfig
from sicbo_contracts.resumption import BettingResumed, ResumeRound

_RULE = '004 "Ralat Pengendalian"'


def lifted(
    state: LifecycleState, command: Command, at: datetime, detail: str, suspension: Suspension
) -> list[LifecycleEvent]:
    """The suspension lifted by ``command``: FaultCleared, and the paused betting resumed."""
    events: list[LifecycleEvent] = [
        FaultCleared(**stamp(command, at), detail=detail, suspended_since=suspension.since)
    ]
    current = state.round
    if current is not None and current.betting_paused and state.config is not None:
        closes_at = at + resumed_for(current, state.config)
        events.append(
            BettingResumed(**stamp(command, at), round=current.number, closes_at=closes_at)
        )
    return events


def resumed_for(current: RoundState, config: TableConfig) -> timedelta:
    """How long betting stays open once resumed: the time that was left, but at least the
    profile's ``resume_betting_seconds`` and never more than a whole countdown (docs/rules.md)."""
    left = current.betting_left or timedelta(0)
    at_least = timedelta(seconds=profile_of(config).resume_betting_seconds)
    longest = timedelta(seconds=config.betting_seconds or 0)
    resumed = max(left, at_least)
    return min(resumed, longest) if config.betting_seconds is not None else resumed


def resume_round(state: LifecycleState, command: ResumeRound, at: datetime) -> list[LifecycleEvent]:
    require_role(command, (Role.SUPERVISOR,), rule=f"{_RULE}: the dealer tells the supervisor")
    require_open(state)
    s = state.suspension
    if s is None:
        refuse(
            f"table {state.table} is not suspended: there is no round to resume ({_RULE})",
            key="resume.not-suspended",
        )
    if s.policy != IlluminationFaultPolicy.SUSPEND_ROUND.value:
        refuse(
            f"table {state.table} is suspended under {s.policy} since {hhmm(s.since)}: its"
            " fault is cleared by an inspector (000 §7.7: no further play until the fault is"
            f" rectified); the supervisor resumes only a suspended online round ({_RULE})",
            key="resume.inspector",
        )
    if s.round != command.round:
        which = f"round {s.round}" if s.round is not None else "no round"
        refuse(
            f"round {command.round} is not the suspended round: the suspension of"
            f" {state.table} since {hhmm(s.since)} is of {which}"
            + ("" if s.round is not None else " (an inspector clears it, 000 §7.7)"),
            key="resume.other-round",
            params={"round": command.round},
        )
    current = state.round
    if current is not None and current.number == s.round and current.ended_by is Phase.CANCELLED:
        refuse(
            f"round {s.round} was cancelled and its wagers refunded ({_RULE}): it does not"
            " resume; an inspector clears the fault (000 §7.7)",
            key="resume.cancelled",
            params={"round": s.round},
        )
    return lifted(state, command, at, command.detail, s)


def resumable_round(state: LifecycleState) -> int | None:
    """The suspended round the supervisor may resume now (what :func:`resume_round` accepts),
    or None: the table is not suspended, or its fault is an inspector's to clear."""
    s, current = state.suspension, state.round
    if s is None or s.policy != IlluminationFaultPolicy.SUSPEND_ROUND.value or s.round is None:
        return None
    if current is not None and current.number == s.round and current.ended_by is Phase.CANCELLED:
        return None
    return s.round


def require_live_deadline(current: RoundState, command: CloseBetting) -> None:
    """The countdown closes betting only at the deadline in force (004 "Cara Bermain")."""
    if current.betting_paused:
        refuse(
            f"betting of round {current.number} is paused while the table is suspended: its"
            f" countdown resumes when the round does ({_RULE})",
            key="resume.betting-paused",
            params={"round": current.number},
        )
    wanted = command.closes_at
    if wanted is not None and current.closes_at is not None and wanted != current.closes_at:
        refuse(
            f"the countdown of round {current.number} ending {wanted.isoformat()} was"
            f" superseded: betting resumed after a suspension and now closes at"
            f" {current.closes_at.isoformat()} ({_RULE})",
            key="resume.countdown-superseded",
            params={"round": current.number},
        )
