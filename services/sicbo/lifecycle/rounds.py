"""The play of a round (000 §5, 002 arts. 2-4, 004) and its irregularities (000 §7-8, 004)."""

from datetime import datetime, timedelta

from sicbo.decider import refuse, require_role, stamp
from sicbo.lifecycle.dual_control import require_no_pending_invalidation
from sicbo.lifecycle.guards import (
    calendar_of,
    current_round,
    profile_of,
    require_activation,
    require_approved_activation,
    require_not_suspended,
    require_open,
    round_in_play,
)
from sicbo.lifecycle.paytables import paytable_in_force
from sicbo.lifecycle.resumption import lifted, require_live_deadline
from sicbo.lifecycle.state import (
    ENDED,
    VACATE_AFTER_ROUNDS,
    LifecycleState,
    Phase,
    idle_after,
)
from sicbo_contracts.base import Role
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    ClearFault,
    CloseBetting,
    CompleteRound,
    DeclareNoResult,
    LifecycleEvent,
    NoResultDeclared,
    OpenBetting,
    ReportMalfunction,
    RoundCompleted,
    RoundStarted,
    StartRound,
    TableSuspended,
    Uncover,
    Uncovered,
    VacateNoticeIssued,
)

_DEALER_OR_SUPERVISOR = (Role.DEALER, Role.SUPERVISOR)  # 000 §5.1, §7.1-7.4


def start_round(state: LifecycleState, command: StartRound, at: datetime) -> list[LifecycleEvent]:
    require_role(command, _DEALER_OR_SUPERVISOR, rule="000 §5.1")
    config = require_open(state)
    require_not_suspended(state, f"start round {command.round}")
    current = state.round
    if current is not None and current.in_progress:
        if command.round == current.number:
            refuse(
                f"round {command.round} has already started ({current.phase.value})",
                key="round.already-started",
                params={"round": command.round},
            )
        # 002 art. 4: the cover may not go back on until every winning wager is paid.
        refuse(
            f"round {current.number} is not completed ({current.phase.value}): the next round"
            " may not start until it is settled and every winner paid (002 art. 4)",
            key="round.not-completed",
            params={"round": current.number},
        )
    require_no_pending_invalidation(state)  # TableConfig.dual_control (000 §8.4)
    if command.round != state.next_round:
        refuse(
            f"round {command.round} cannot start: the next round of {state.table} is"
            f" {state.next_round} (rounds are numbered without gaps or repeats)",
            key="round.out-of-order",
            params={"round": command.round, "next": state.next_round},
        )
    profile = profile_of(config)
    # 000 §5.1, 002/2003 art. 2, 002/2004 art. 2(1), 004: the handle pressed (at least three
    # times), or an electric shaker where the profile's rules allow one.
    require_activation(profile, command.activation, command.tumbles)
    # Each round records the paytable in force on the day it starts, a day of the table's
    # time zone (002/2004 art. 8).
    day = calendar_of(config).day_of(at)
    paytable = paytable_in_force(state.approvals, profile, day)
    require_approved_activation(paytable, command.activation)
    return [
        RoundStarted(
            **stamp(command, at),
            round=command.round,
            tumbles=command.tumbles,
            paytable=paytable,
            activation=command.activation,
        )
    ]


def open_betting(state: LifecycleState, command: OpenBetting, at: datetime) -> list[LifecycleEvent]:
    require_role(command, (Role.DEALER,), rule='000 §5.1: the dealer calls "place your bets"')
    config = require_open(state)
    current = round_in_play(state, command.round, "open betting")
    require_not_suspended(state, "open betting")
    if current.phase is not Phase.STARTED:
        refuse(
            f"betting of round {current.number} was already opened ({current.phase.value}):"
            ' "place your bets" is called once, right after the tumble (000 §5.1)',
            key="round.betting-already-opened",
            params={"round": current.number},
        )
    closes_at = None
    if profile_of(config).betting_countdown and config.betting_seconds is not None:
        closes_at = at + timedelta(seconds=config.betting_seconds)  # 004 "Cara Bermain"
    return [BettingOpened(**stamp(command, at), round=current.number, closes_at=closes_at)]


def close_betting(
    state: LifecycleState, command: CloseBetting, at: datetime
) -> list[LifecycleEvent]:
    # The service role is the betting countdown timer (004).
    require_role(command, (Role.DEALER, Role.SERVICE), rule='000 §5.2: "no more bets"')
    config = require_open(state)
    current = round_in_play(state, command.round, "close betting")
    # Not refused while suspended: closing betting stops wagers, it is not "further play"
    # (000 §7.7); but a countdown paused by the suspension does not close it (004 "Ralat
    # Pengendalian"), nor does a deadline the resumption superseded. Not refused before
    # ``closes_at``: a refused timer would drop its deadline and leave betting open; wager
    # intake refuses slips from ``closes_at`` on anyway.
    by_countdown = command.actor.role is Role.SERVICE
    if by_countdown and not profile_of(config).betting_countdown:
        refuse(
            f'table {state.table} has no betting countdown: the dealer calls "no more bets"'
            " (000 §5.2)",
            key="round.no-countdown",
        )
    if current.phase is not Phase.BETTING_OPEN:
        refuse(
            f"betting of round {current.number} is not open ({current.phase.value}):"
            ' "no more bets" closes open betting (000 §5.2, §3.9)',
            key="round.betting-not-open",
            params={"round": current.number},
        )
    if by_countdown:
        require_live_deadline(current, command)
    return [BettingClosed(**stamp(command, at), round=current.number, by_countdown=by_countdown)]


def uncover(state: LifecycleState, command: Uncover, at: datetime) -> list[LifecycleEvent]:
    require_role(command, (Role.DEALER,), rule="000 §5.2: the dealer uncovers the tumbler")
    require_open(state)
    current = round_in_play(state, command.round, "uncover")
    require_not_suspended(state, "uncover the tumbler")
    if current.phase is not Phase.BETTING_CLOSED:
        refuse(
            f"round {current.number} is {current.phase.value}: the tumbler is uncovered only"
            ' after "no more bets" (000 §5.2)',
            key="round.uncover-after-close",
            params={"round": current.number},
        )
    return [Uncovered(**stamp(command, at), round=current.number)]


# ---- irregularities -----------------------------------------------------------------------------


def declare_no_result(
    state: LifecycleState, command: DeclareNoResult, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _DEALER_OR_SUPERVISOR, rule="000 §7.1-7.4")
    config = require_open(state)
    current = current_round(state, command.round)
    if current.phase is Phase.RESULT_CONFIRMED:
        refuse(
            f'round {current.number} has a confirmed result: "no result" is announced'
            " before the result (000 §7.1-7.4); a supervisor may correct the result instead",
            key="round.result-confirmed",
            params={"round": current.number},
        )
    round_in_play(state, command.round, 'announce "no result"')
    # Allowed while suspended: a broken tumbler is both a malfunction (000 §7.7) and a
    # "no result" (000 §7.2, §7.4). The consequence for the wagers is the profile's (data).
    consequence = profile_of(config).no_result_policy.value
    return [
        NoResultDeclared(
            **stamp(command, at),
            round=current.number,
            reason=command.reason,
            detail=command.detail,
            consequence=consequence,
        )
    ]


def report_malfunction(
    state: LifecycleState, command: ReportMalfunction, at: datetime
) -> list[LifecycleEvent]:
    require_role(
        command,
        (Role.DEALER, Role.SUPERVISOR, Role.INSPECTOR, Role.SERVICE),
        rule="000 §7.6-7.7",
    )
    config = require_open(state)
    current = state.round
    if command.round is not None and current is not None and command.round < current.number:
        # A fault found late (the layout is checked after the result, 000 §2.3) when the next
        # round has already started: still a malfunction of the table (000 §7.7), recorded
        # against the round whose equipment failed.
        round_no: int | None = command.round
    elif command.round is not None:
        round_no = current_round(state, command.round).number
    else:  # a fault during a round is that round's (004 suspends the round)
        round_no = current.number if current is not None and current.in_progress else None
    return [
        TableSuspended(
            **stamp(command, at),
            equipment=command.equipment,
            detail=command.detail,
            round=round_no,
            policy=profile_of(config).illumination_fault.value,
        )
    ]


def clear_fault(state: LifecycleState, command: ClearFault, at: datetime) -> list[LifecycleEvent]:
    require_role(command, (Role.INSPECTOR,), rule="000 §7.7: an inspector rectifies the fault")
    require_open(state)
    suspension = state.suspension
    if suspension is None:
        refuse(
            f"table {state.table} is not suspended: there is no fault to clear",
            key="fault.not-suspended",
        )
    return lifted(state, command, at, command.detail, suspension)  # 004: betting resumes


# ---- settlement done ----------------------------------------------------------------------------


def complete_round(
    state: LifecycleState, command: CompleteRound, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, (Role.SERVICE,), rule="DESIGN.md Roles: settlement")
    require_open(state)
    current = current_round(state, command.round)
    if current.phase is Phase.COMPLETED:
        refuse(
            f"round {current.number} is already completed: a round is completed once",
            key="round.already-completed",
            params={"round": current.number},
        )
    if current.phase not in ENDED:
        refuse(
            f"round {current.number} has no outcome yet ({current.phase.value}): it completes"
            " after its result is confirmed, no result is declared, or it is invalidated or"
            " cancelled",
            key="round.no-outcome",
            params={"round": current.number},
        )
    # Not refused while suspended: wagers are still settled by the dice (000 §7.6).
    players = list(dict.fromkeys(command.players))
    events: list[LifecycleEvent] = [
        RoundCompleted(**stamp(command, at), round=current.number, players=players)
    ]
    # 000 §8.9: a third consecutive round without a wager while every seat is taken.
    idle = idle_after(state, players)
    for seat, player in sorted(state.seats.items()):
        if idle.get(player) == VACATE_AFTER_ROUNDS:
            events.append(
                VacateNoticeIssued(
                    **stamp(command, at),
                    player=player,
                    seat=seat,
                    rounds_without_wager=VACATE_AFTER_ROUNDS,
                )
            )
    return events
