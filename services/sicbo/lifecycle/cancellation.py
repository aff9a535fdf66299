"""Cancelling a round into refunds (004 "Ralat Pengendalian"), only where the profile provides it.

004: "if an unexpected problem occurs in the game, system or procedure, the round is suspended
for a while and the dealer tells the supervisor. If the problem can be solved quickly, the round
resumes ...; if not, the round is cancelled and every wager refunded." The profile's
``[cancellation]`` says whether its rules give a supervisor that at all; only 004 does.
Elsewhere CancelRound is refused naming the profile's own rule: 000 voids a round by "no result"
(000 §7.1-7.5) or invalidation (000 §8.4); 002 runs the round again after "no result" with the
wagers standing (002/2003 art. 3(3) 原注不得取銷; 002/2004 art. 3(4) the player's choice), so a
re-run's carried wagers are never refunded by a cancellation.

Where the profile allows it (``after-fault``):

- a round before its result is cancelled only while the table is suspended: a problem was
  reported (ReportMalfunction) and not fixed;
- a confirmed result only while its own round is suspended under the suspend-round policy and
  ``fault_grace_seconds`` have passed; settlement then refunds it by a compensating
  SettlementVoided (elsewhere a confirmed result settles by the dice, 000 §7.6).
"""

from datetime import datetime, timedelta

from sicbo.decider import refuse, require_role, stamp
from sicbo.game.profiles import IlluminationFaultPolicy, Profile
from sicbo.lifecycle.guards import current_round, profile_of, require_open, round_in_play
from sicbo.lifecycle.state import PLAYING, LifecycleState, Phase, RoundState
from sicbo_contracts.base import Role
from sicbo_contracts.lifecycle import CancelRound, LifecycleEvent, RoundCancelled, TableConfig


def cancel_round(state: LifecycleState, command: CancelRound, at: datetime) -> list[LifecycleEvent]:
    require_role(command, (Role.SUPERVISOR,), rule='004 "Ralat Pengendalian"')
    current = require_cancellable(state, command.round, at)
    return [RoundCancelled(**stamp(command, at), round=current.number, reason=command.reason)]


def require_cancellable(state: LifecycleState, number: int, at: datetime) -> RoundState:
    """Round ``number``, if a supervisor may cancel it at ``at`` (every check but the role's):
    the decider's, and the terminal's view of whether the cancel form is offered."""
    config = require_open(state)
    current = current_round(state, number)
    profile = profile_of(config)
    _require_cancellation(profile, current)
    if current.ended_by is Phase.RESULT_CONFIRMED:
        _require_cancellable_result(state, config, current, at)
    else:
        if current.phase not in PLAYING:
            round_in_play(state, number, "cancel it")
        _require_fault(state, profile, current)
    return current


def cancellable_from(config: TableConfig, suspended_since: datetime) -> datetime:
    """004 "Ralat Pengendalian": a confirmed result of a suspended round may be cancelled once
    ``fault_grace_seconds`` have passed without a fix."""
    return suspended_since + timedelta(seconds=config.fault_grace_seconds)


def _require_cancellation(profile: Profile, current: RoundState) -> None:
    """The profile's rules provide a cancellation at all (its ``[cancellation]``)."""
    cancellation = profile.cancellation
    if cancellation.allowed:
        return
    carried = ""
    if current.carried_from is not None:
        carried = (
            f"; round {current.number} is the re-run of round {current.carried_from}, void by"
            ' "no result", and the wagers carried into it stand: a cancellation may not refund'
            " them"
        )
    refuse(
        f"profile {profile.id!r} gives a supervisor no cancellation of a round into refunds"
        f" ({cancellation.rule}){carried}",
        key="cancel.not-provided",
    )


def _require_fault(state: LifecycleState, profile: Profile, current: RoundState) -> None:
    """004: the round is cancelled when the problem that suspended it has no quick fix."""
    if state.suspension is None:
        refuse(
            f"round {current.number} is not suspended: {profile.cancellation.rule}; report the"
            " problem first (ReportMalfunction), then cancel if it cannot be fixed quickly",
            key="cancel.not-suspended",
            params={"round": current.number},
        )


def _require_cancellable_result(
    state: LifecycleState, config: TableConfig, current: RoundState, at: datetime
) -> None:
    """A confirmed result is settled at once by the dice (000 §7.6). 004 "Ralat Pengendalian"
    cancels it only when its round was suspended (suspend-round policy) and the fault was not
    fixed in time (``fault_grace_seconds``); settlement then refunds every wager by a
    compensating SettlementVoided."""
    s = state.suspension
    if (
        s is None
        or s.policy != IlluminationFaultPolicy.SUSPEND_ROUND.value
        or s.round != current.number
    ):
        refuse(
            f"round {current.number} has a confirmed result settled by the dice (000 §7.6): it"
            ' can be cancelled only while suspended under 004 "Ralat Pengendalian"'
            " (suspend-round) and not fixed in time",
            key="cancel.result-settled",
            params={"round": current.number},
        )
    opens = cancellable_from(config, s.since)
    if at < opens:
        refuse(
            f"round {current.number} was suspended at {s.since.isoformat(timespec='seconds')}:"
            f" 004 allows {config.fault_grace_seconds} s to fix the fault, so it may be"
            f" cancelled from {opens.isoformat(timespec='seconds')} on (an inspector"
            " may clear the fault instead)",
            key="cancel.grace",
            params={
                "round": current.number,
                "seconds": config.fault_grace_seconds,
                "from_at": opens.isoformat(),
            },
        )
