"""Table management: opening, limits and their signs, closing, seats, paytables."""

from datetime import datetime, timedelta

from sicbo.decider import Refused, refuse, require_role, stamp
from sicbo.game.errors import InvalidChoice, UnknownProfile
from sicbo.game.house_edge import house_edge_report
from sicbo.game.profiles import load_profile
from sicbo.lifecycle.guards import (
    check_limits,
    hhmm,
    profile_of,
    require_open,
    show_limits,
)
from sicbo.lifecycle.paytables import (
    earliest_adoption,
    exact_ratio,
    paytable_in_force,
    same_profile,
)
from sicbo.lifecycle.state import LifecycleState, Phase, TableStatus
from sicbo_contracts.base import Role
from sicbo_contracts.lifecycle import (
    ApprovePaytable,
    ChangeLimits,
    CloseTable,
    ClosingNoticePosted,
    LeaveSeat,
    LifecycleEvent,
    LimitsChanged,
    LimitsNoticePosted,
    OpenTable,
    OverridePlayerLimits,
    PaytableApproved,
    PaytableProposed,
    PlayerLimitsOverridden,
    PostClosingNotice,
    PostLimitsNotice,
    ProposePaytable,
    SeatTaken,
    SeatVacated,
    TableClosed,
    TableOpened,
    TakeSeat,
)

#: 000 §4.3 (raising the minimum) and 000 §8.8 (closing with players present).
SIGN_NOTICE = timedelta(minutes=20)

_SUPERVISOR = (Role.SUPERVISOR,)  # 000 §4.3, §4.4, §8.8: "a casino supervisor"
_SEATING = (Role.DEALER, Role.SUPERVISOR)


def open_table(state: LifecycleState, command: OpenTable, at: datetime) -> list[LifecycleEvent]:
    require_role(command, (Role.OPERATOR, Role.SUPERVISOR), rule="DESIGN.md Roles")
    if state.status is TableStatus.OPEN:
        since = f" since {hhmm(state.opened_at)}" if state.opened_at else ""
        refuse(f"table {state.table} is already open{since}: close it before opening it again")
    config = command.config
    try:
        profile = load_profile(config.profile)
    except UnknownProfile as error:
        raise Refused(str(error)) from None
    check_limits(config.limits, "the table sign")
    if config.seats < 1:
        refuse(f"a table needs at least one seat, got {config.seats}")
    if profile.betting_countdown and config.betting_seconds is None:
        refuse(
            f'profile {profile.id!r} closes betting by a countdown (004 "Cara Bermain"):'
            " betting_seconds is required"
        )
    if not profile.betting_countdown and config.betting_seconds is not None:
        refuse(
            f'profile {profile.id!r} has no betting countdown: the dealer calls "no more bets"'
            " (000 §5.2, 002 art. 3); leave betting_seconds unset"
        )
    lamps = profile.layout_lamps
    if lamps.required and not config.layout_controller:
        # 000 §2.3 (002/2003 art. 3(2)): the winning areas shall be lit after every result, so
        # a table without its lamps' controller is a configuration error, not a silent default.
        refuse(
            f"config.layout_controller: profile {profile.id!r} requires the layout's winning"
            f" areas to be lit ({lamps.rule}); open the table with its layout controller"
        )
    # 002/2004 art. 8: an approved paytable from its adoption date, else the default.
    paytable = paytable_in_force(state.approvals, profile, at.date())
    return [TableOpened(**stamp(command, at), config=config, paytable=paytable)]


# ---- limits (000 §4.1-4.4) ----------------------------------------------------------------------


def post_limits_notice(
    state: LifecycleState, command: PostLimitsNotice, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule="000 §4.3")
    require_open(state)
    check_limits(command.limits, "the limits notice")
    return [
        LimitsNoticePosted(
            **stamp(command, at), limits=command.limits, effective_at=command.effective_at
        )
    ]


def change_limits(
    state: LifecycleState, command: ChangeLimits, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule="000 §4.3")
    before = require_open(state).limits
    after = command.limits
    check_limits(after, "the new limits")
    if after == before:
        refuse(f"the table limits are already {show_limits(before)}: nothing to change")
    if after.minimum > before.minimum:
        # 000 §4.3: "a minimum wager can only be changed to a higher minimum if a sign
        # indicating the new minimum and proposed time of change has been displayed at the
        # table at least 20 minutes before the change".
        signs = [n for n in state.limits_notices if n.limits.minimum == after.minimum]
        if not any(n.posted_at + SIGN_NOTICE <= at and n.effective_at <= at for n in signs):
            seen = "; ".join(
                f"one posted at {hhmm(n.posted_at)} for {hhmm(n.effective_at)}" for n in signs
            )
            refuse(
                f"raising the minimum from {before.minimum} to {after.minimum} needs a sign of"
                " the new minimum and its time of change, displayed at least 20 minutes before"
                f" the change and with that time reached (000 §4.3); at {hhmm(at)} there is "
                + (f"no such sign ({seen})" if signs else "no sign for that minimum")
            )
    # Lowering the minimum, or changing the maximum or the unit: any time (000 §4.3).
    return [LimitsChanged(**stamp(command, at), before=before, after=after, reason=command.reason)]


def override_player_limits(
    state: LifecycleState, command: OverridePlayerLimits, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule="000 §4.4")
    require_open(state)
    check_limits(command.limits, f"the limits of player {command.player!r}")
    before = state.player_limits.get(command.player)
    if before == command.limits:
        refuse(f"player {command.player!r} already has limits {show_limits(before)}")
    # 000 §4.4: the player's maximum may exceed the table maximum; the event is their sign.
    return [
        PlayerLimitsOverridden(
            **stamp(command, at),
            player=command.player,
            before=before,
            after=command.limits,
            reason=command.reason,
        )
    ]


# ---- closing (000 §8.8) -------------------------------------------------------------------------


def post_closing_notice(
    state: LifecycleState, command: PostClosingNotice, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule="000 §8.8")
    require_open(state)
    return [ClosingNoticePosted(**stamp(command, at), close_at=command.close_at)]


def close_table(state: LifecycleState, command: CloseTable, at: datetime) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule="000 §8.8")
    config = require_open(state)
    current = state.round
    if current is not None and current.in_progress:
        refuse(
            f"round {current.number} is in progress ({current.phase.value}): a table closes"
            " only between rounds, once every winner is paid (002 art. 4)"
        )
    policy = profile_of(config).no_result_policy
    if current is not None and current.ended_by is Phase.NO_RESULT and policy.carries_wagers:
        # 002/2003 art. 3(3), 002/2004 art. 3(3)(4), 004: after "no result" the round is run
        # again at once with the wagers standing; closing now would strand them.
        refuse(
            f"round {current.number} ended with no result and its wagers stand for the re-run"
            f" ({policy.value}): play the re-run round before closing the table"
        )
    if state.seats:
        notice = state.closing_notice
        # 000 §8.8: players present -> a sign of the proposed closing time, shown >= 20 min.
        if notice is None or notice.posted_at + SIGN_NOTICE > at or notice.close_at > at:
            shown = (
                "no closing sign is displayed"
                if notice is None
                else f"the sign posted at {hhmm(notice.posted_at)} shows {hhmm(notice.close_at)}"
            )
            refuse(
                f"{len(state.seats)} player(s) are seated at {state.table}: closing needs a sign"
                " of the closing time displayed at least 20 minutes before, and that time"
                f" reached (000 §8.8); at {hhmm(at)} {shown}"
            )
    vacated: list[LifecycleEvent] = [
        SeatVacated(**stamp(command, at), player=player, seat=seat)
        for seat, player in sorted(state.seats.items())
    ]
    return [*vacated, TableClosed(**stamp(command, at))]


# ---- seats (000 §8.9) ---------------------------------------------------------------------------


def take_seat(state: LifecycleState, command: TakeSeat, at: datetime) -> list[LifecycleEvent]:
    require_role(command, _SEATING)
    config = require_open(state)
    if not 1 <= command.seat <= config.seats:
        refuse(f"table {state.table} has seats 1 to {config.seats}, not seat {command.seat}")
    taken_by = state.seats.get(command.seat)
    if taken_by is not None:
        refuse(f"seat {command.seat} is taken by player {taken_by!r}")
    seated = state.seat_of(command.player)
    if seated is not None:
        refuse(f"player {command.player!r} is already seated at seat {seated}")
    return [SeatTaken(**stamp(command, at), player=command.player, seat=command.seat)]


def leave_seat(state: LifecycleState, command: LeaveSeat, at: datetime) -> list[LifecycleEvent]:
    require_role(command, _SEATING)
    require_open(state)
    seat = state.seat_of(command.player)
    if seat is None:
        refuse(f"player {command.player!r} is not seated at {state.table}")
    return [SeatVacated(**stamp(command, at), player=command.player, seat=seat)]


# ---- paytables (002/2004 art. 8) ----------------------------------------------------------------


def propose_paytable(
    state: LifecycleState, command: ProposePaytable, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, (Role.OPERATOR,), rule="002/2004 art. 8: the operator applies")
    profile = profile_of(require_open(state))
    if not profile.choices:
        refuse(
            f"profile {profile.id!r} has no optional pays to adopt: its paytable is fixed"
            " (optional choices are those of 002/2004 art. 6(6), authorised under art. 8)"
        )
    try:
        paytable = profile.paytable(command.choices)
    except InvalidChoice as error:
        raise Refused(f"{error} (002/2004 art. 6(6))") from None
    if command.applied_on > at.date():
        refuse(
            f"applied_on {command.applied_on} is in the future: the application to the"
            " regulator must already have been made (002/2004 art. 8)"
        )
    report = house_edge_report(paytable)
    return [
        PaytableProposed(
            **stamp(command, at),
            paytable=paytable.ref,
            choices=dict(sorted(paytable.choices.items())),
            applied_on=command.applied_on,
            max_rtp=exact_ratio(report.max_rtp),
            no_house_edge=sorted(edge.bet.id for edge in report.no_house_edge),
        )
    ]


def approve_paytable(
    state: LifecycleState, command: ApprovePaytable, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, (Role.OPERATOR, Role.SUPERVISOR), rule="002/2004 art. 8")
    profile = profile_of(require_open(state))
    proposal = state.proposals.get(command.paytable)
    if proposal is None:
        known = ", ".join(state.proposals) or "none"
        refuse(
            f"paytable {command.paytable!r} was never proposed at {state.table} (proposed:"
            f" {known}); the operator applies first (002/2004 art. 8)"
        )
    if not same_profile(proposal.paytable, profile):
        refuse(
            f"paytable {proposal.paytable!r} is not of profile {profile.id!r} v{profile.version},"
            " which this table plays"
        )
    earliest = earliest_adoption(proposal.applied_on)
    if command.adoption_date < earliest:
        refuse(
            f"applied for on {proposal.applied_on:%a %Y-%m-%d}, paytable {proposal.paytable!r}"
            f" can be adopted on {earliest:%a %Y-%m-%d} at the earliest, not"
            f" {command.adoption_date:%a %Y-%m-%d}: the application must reach the regulator"
            " three working days (Mon-Fri) before the adoption date (002/2004 art. 8)"
        )
    if command.adoption_date < at.date():
        refuse(
            f"adoption date {command.adoption_date} is before the approval ({at.date()}): the"
            " regulator's authorisation comes before adoption (002/2004 art. 8)"
        )
    flagged = sorted(proposal.no_house_edge)
    acknowledged = sorted(set(command.acknowledged_no_house_edge))
    if acknowledged != flagged:
        refuse(
            f"paytable {proposal.paytable!r} has NO HOUSE EDGE on: {', '.join(flagged) or 'none'}"
            f" (max RTP {proposal.max_rtp}); the approval must acknowledge exactly these bets,"
            f' it acknowledged: {", ".join(acknowledged) or "none"} (RULES.md "Triples")'
        )
    return [
        PaytableApproved(
            **stamp(command, at),
            paytable=proposal.paytable,
            adoption_date=command.adoption_date,
            no_house_edge=flagged,
        )
    ]
