"""Table management: opening, closing, seats (limits: :mod:`sicbo.lifecycle.limits`;
paytables: :mod:`sicbo.lifecycle.adoption`)."""

from datetime import datetime, timedelta

from sicbo.decider import Refused, refuse, require_role, stamp
from sicbo.game.errors import UnknownProfile
from sicbo.game.profiles import load_profile
from sicbo.lifecycle.calendar import UnknownTimeZone, table_calendar
from sicbo.lifecycle.guards import (
    check_limits,
    hhmm,
    profile_of,
    require_open,
)
from sicbo.lifecycle.paytables import paytable_in_force
from sicbo.lifecycle.state import PRESENT_ROUNDS, LifecycleState, Phase, TableStatus
from sicbo_contracts.base import Role
from sicbo_contracts.lifecycle import (
    CloseTable,
    ClosingNoticePosted,
    LeaveSeat,
    LifecycleEvent,
    OpenTable,
    PostClosingNotice,
    SeatTaken,
    SeatVacated,
    TableClosed,
    TableOpened,
    TakeSeat,
)

#: 000 §8.8: closing with players present needs the sign displayed this long before.
SIGN_NOTICE = timedelta(minutes=20)

_SUPERVISOR = (Role.SUPERVISOR,)  # 000 §8.8: "a casino supervisor"
_SEATING = (Role.DEALER, Role.SUPERVISOR)


def open_table(state: LifecycleState, command: OpenTable, at: datetime) -> list[LifecycleEvent]:
    require_role(command, (Role.OPERATOR, Role.SUPERVISOR), rule="DESIGN.md Roles")
    if state.status is TableStatus.OPEN:
        since = f" since {hhmm(state.opened_at)}" if state.opened_at else ""
        refuse(
            f"table {state.table} is already open{since}: close it before opening it again",
            key="table.already-open",
        )
    config = command.config
    try:
        profile = load_profile(config.profile)
    except UnknownProfile as error:
        raise Refused(str(error)) from None
    check_limits(config.limits, "the table sign", profile, field="config.limits")
    if config.max_payout_per_round is not None and config.max_payout_per_round < 1:
        refuse(
            "config.max_payout_per_round: a maximum payout per round is at least 1 minor unit,"
            f" got {config.max_payout_per_round}"
        )
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
    try:
        calendar = table_calendar(config, profile)
    except UnknownTimeZone as error:
        raise Refused(f"config.time_zone: {error} (e.g. 'Asia/Macau')") from None
    # 002/2004 art. 8: an approved paytable from its adoption date, else the default; the
    # day is the table's (its time zone's).
    paytable = paytable_in_force(state.approvals, profile, calendar.day_of(at))
    return [TableOpened(**stamp(command, at), config=config, paytable=paytable)]


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
            " only between rounds, once every winner is paid (002 art. 4)",
            key="table.round-in-progress",
            params={"round": current.number},
        )
    policy = profile_of(config).no_result_policy
    if current is not None and current.ended_by is Phase.NO_RESULT and policy.carries_wagers:
        # 002/2003 art. 3(3), 002/2004 art. 3(3)(4), 004: after "no result" the round is run
        # again at once with the wagers standing; closing now would strand them.
        refuse(
            f"round {current.number} ended with no result and its wagers stand for the re-run"
            f" ({policy.value}): play the re-run round before closing the table",
            key="table.rerun-pending",
            params={"round": current.number},
        )
    present = state.players_present
    if present:
        notice = state.closing_notice
        # 000 §8.8: players present -> a sign of the proposed closing time, shown >= 20 min.
        if notice is None or notice.posted_at + SIGN_NOTICE > at or notice.close_at > at:
            shown = (
                "no closing sign is displayed"
                if notice is None
                else f"the sign posted at {hhmm(notice.posted_at)} shows {hhmm(notice.close_at)}"
            )
            refuse(
                f"{len(present)} player(s) are present at {state.table} (seated, or wagering in"
                f" the last {PRESENT_ROUNDS} rounds): closing needs a sign"
                " of the closing time displayed at least 20 minutes before, and that time"
                f" reached (000 §8.8); at {hhmm(at)} {shown}",
                key="table.players-present",
                params={"count": len(present)},
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
        refuse(
            f"table {state.table} has seats 1 to {config.seats}, not seat {command.seat}",
            key="seat.no-such",
            params={"seat": command.seat, "seats": config.seats},
        )
    taken_by = state.seats.get(command.seat)
    if taken_by is not None:
        refuse(
            f"seat {command.seat} is taken by player {taken_by!r}",
            key="seat.taken",
            params={"seat": command.seat, "player": taken_by},
        )
    seated = state.seat_of(command.player)
    if seated is not None:
        refuse(
            f"player {command.player!r} is already seated at seat {seated}",
            key="seat.already-seated",
            params={"player": command.player, "seat": seated},
        )
    return [SeatTaken(**stamp(command, at), player=command.player, seat=command.seat)]


def leave_seat(state: LifecycleState, command: LeaveSeat, at: datetime) -> list[LifecycleEvent]:
    require_role(command, _SEATING)
    require_open(state)
    seat = state.seat_of(command.player)
    if seat is None:
        refuse(
            f"player {command.player!r} is not seated at {state.table}",
            key="seat.not-seated",
            params={"player": command.player},
        )
    return [SeatVacated(**stamp(command, at), player=command.player, seat=seat)]
