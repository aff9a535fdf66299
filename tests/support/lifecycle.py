"""The round lifecycle's facts, and given / when / then for its decider.

Every aggregate's tests set their scene with these facts: a table opened (``table_opened``,
four hours before ``NOW``), a round's steps (``round_started`` ... ``completed``, at
``EARLIER`` unless told), or a whole round played up to a phase (``round_through``, a minute a
step from ``minutes`` after ``NOW``).
"""

from collections.abc import Iterable
from datetime import date, datetime, timedelta
from typing import Any

from sicbo.game.profiles import load_profile
from sicbo.lifecycle.decider import decide
from sicbo.lifecycle.evolve import evolve
from sicbo.lifecycle.state import Phase, initial_state
from sicbo_contracts.base import Limits
from sicbo_contracts.dice import ResultConfirmed
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    ExclusionLifted,
    FaultCleared,
    InvalidationReason,
    NoResultDeclared,
    NoResultReason,
    PlayerExcluded,
    PlayerLimitsOverridden,
    PlayerWagersVoided,
    ReportMalfunction,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    RoundStarted,
    SeatTaken,
    TableClosed,
    TableConfig,
    TableOpened,
    TableSuspended,
    Uncovered,
)
from tests.support.common import (
    DEALER,
    EARLIER,
    INSPECTOR,
    SERVICE,
    SUPERVISOR,
    Fact,
    Who,
    at,
    command,
    countdown,
    default_paytable,
    event,
)
from tests.support.deciders import Decider

#: Why a supervisor voids or excludes in the tests (000 §8.1: a prohibited device).
DEVICE = "phone recording the dice at seat 3 (000 §8.1)"

#: When the test table opened, unless told: four hours before NOW.
OPENED_AT = at(-240)

LIFECYCLE = Decider(initial_state, evolve, decide)
given, when, refused = LIFECYCLE.given, LIFECYCLE.when, LIFECYCLE.refused


def phase_after(*history: Any) -> Phase | None:
    """The current round's phase after ``history`` (None before the first round)."""
    current = given(*history).round
    return None if current is None else current.phase


# ---- the table -----------------------------------------------------------------------------------


def config(
    profile: str = "cca-1992",
    *,
    minimum: int = 10,
    maximum: int = 1_000,
    unit: int = 1,
    limits: Limits | None = None,
    seats: int = 7,
    betting_seconds: int | None = None,
    fault_grace_seconds: int = 120,
    second_person_confirmation: bool = False,
    time_zone: str | None = None,
    holidays: Iterable[date] = (),
    max_payout_per_round: int | None = None,
    layout_controller: bool | None = None,
    check_colors: int | None = None,
    dual_control: bool = False,
) -> TableConfig:
    """A table's sign (``limits``, else ``minimum`` to ``maximum`` in ``unit``s) and layout; a
    countdown profile gets 15 s of betting unless told, and a layout controller where its rules
    require the layout lit (000 §2.3) unless told."""
    if betting_seconds is None and countdown(profile):
        betting_seconds = 15
    if layout_controller is None:
        layout_controller = load_profile(profile).layout_lamps.required
    return TableConfig(
        profile=profile,
        limits=limits or Limits(minimum=minimum, maximum=maximum, unit=unit),
        seats=seats,
        betting_seconds=betting_seconds,
        fault_grace_seconds=fault_grace_seconds,
        second_person_confirmation=second_person_confirmation,
        time_zone=time_zone,
        holidays=sorted(holidays),
        max_payout_per_round=max_payout_per_round,
        layout_controller=layout_controller,
        check_colors=check_colors,
        dual_control=dual_control,
    )


def table_opened(
    profile: str = "cca-1992",
    *,
    at: datetime = OPENED_AT,
    by: Who = SUPERVISOR,
    paytable: str | None = None,
    **layout: Any,
) -> TableOpened:
    """The table opened (four hours ago) under ``profile`` and its default paytable; ``layout``
    goes to :func:`config`."""
    return event(
        TableOpened,
        by,
        at=at,
        config=config(profile, **layout),
        paytable=paytable or default_paytable(profile),
    )


def table_closed(*, at: datetime = EARLIER) -> TableClosed:
    return event(TableClosed, SUPERVISOR, at=at)


def override(player: str, limits: Limits, *, at: datetime = EARLIER) -> PlayerLimitsOverridden:
    """A supervisor's sign for one ``player`` (000 §4.4)."""
    return event(
        PlayerLimitsOverridden,
        SUPERVISOR,
        at=at,
        player=player,
        before=None,
        after=limits,
        reason="high roller sign",
    )


def excluded(player: str, *, at: datetime = EARLIER) -> PlayerExcluded:
    """A supervisor excluded ``player`` from the game at the table (000 §8.3.2)."""
    return event(PlayerExcluded, SUPERVISOR, at=at, player=player, reason=DEVICE)


def exclusion_lifted(
    player: str, *, since: datetime = EARLIER, at: datetime = EARLIER
) -> ExclusionLifted:
    return event(
        ExclusionLifted,
        SUPERVISOR,
        at=at,
        player=player,
        reason="device was a hearing aid",
        excluded_since=since,
        excluded_for=DEVICE,
    )


def wagers_voided(round_no: int, player: str, *, at: datetime = EARLIER) -> PlayerWagersVoided:
    """A supervisor declared ``player``'s wagers in ``round_no`` void (000 §8.3.1)."""
    return event(
        PlayerWagersVoided, SUPERVISOR, at=at, round=round_no, player=player, reason=DEVICE
    )


def suspended(round_no: int | None = 1, *, at: datetime = EARLIER) -> TableSuspended:
    """The layout's lamps failed during ``round_no``: the table is suspended (000 §7.7)."""
    return event(
        TableSuspended,
        DEALER,
        at=at,
        equipment="layout-lamps",
        detail="winning areas not lit",
        round=round_no,
        policy="suspend-table",
    )


def malfunction(role: str = "dealer", *, round_no: int | None = None) -> ReportMalfunction:
    """The command reporting the layout's lamps not lit (000 §7.6-7.7, 004)."""
    return command(
        ReportMalfunction, role, equipment="layout-lamps", detail="not lit", round=round_no
    )


def suspended_round(profile: str, phase: Phase, *, minutes: float = -10) -> list[Fact]:
    """A table of ``profile`` opened, round 1 played to ``phase``, then a malfunction reported
    by the dealer at ``at(minutes)``: suspended under the profile's policy."""
    history = [table_opened(profile), *round_through(1, phase, profile=profile)]
    return history + when(history, malfunction(), at=at(minutes))


def fault_cleared(*, at: datetime = EARLIER) -> FaultCleared:
    return event(FaultCleared, INSPECTOR, at=at, detail="lamps fixed", suspended_since=at)


def suspended_while_betting(
    *, seconds_left: float = 10, at: datetime = EARLIER, betting_seconds: int = 15, **layout: Any
) -> list[Fact]:
    """An online table whose round 1 was suspended at ``at`` with ``seconds_left`` of its
    ``betting_seconds`` countdown to run (004 "Ralat Pengendalian"); ``layout`` goes to
    :func:`config`."""
    countdown = timedelta(seconds=betting_seconds)
    opened_at = at - (countdown - timedelta(seconds=seconds_left))
    return [
        table_opened("online-live", betting_seconds=betting_seconds, **layout),
        round_started(1, "online-live", at=opened_at - timedelta(minutes=1)),
        betting_opened(1, closes_at=opened_at + countdown, at=opened_at),
        event(
            TableSuspended,
            DEALER,
            at=at,
            equipment="video-stream",
            detail="the stream froze",
            round=1,
            policy="suspend-round",
        ),
    ]


# ---- a round's steps -----------------------------------------------------------------------------


def round_started(
    round_no: int = 1,
    profile: str = "cca-1992",
    *,
    at: datetime = EARLIER,
    paytable: str | None = None,
) -> RoundStarted:
    return event(
        RoundStarted,
        DEALER,
        at=at,
        round=round_no,
        tumbles=3,
        paytable=paytable or default_paytable(profile),
    )


def betting_opened(
    round_no: int = 1, *, closes_at: datetime | None = None, at: datetime = EARLIER
) -> BettingOpened:
    return event(BettingOpened, DEALER, at=at, round=round_no, closes_at=closes_at)


def betting_closed(
    round_no: int = 1, *, by_countdown: bool = False, at: datetime = EARLIER
) -> BettingClosed:
    """No more bets, by the dealer or by the countdown (a service, 004)."""
    by = SERVICE if by_countdown else DEALER
    return event(BettingClosed, by, at=at, round=round_no, by_countdown=by_countdown)


def uncovered(round_no: int = 1, *, at: datetime = EARLIER) -> Uncovered:
    return event(Uncovered, DEALER, at=at, round=round_no)


def no_result(
    round_no: int = 1,
    consequence: str = "refund",
    *,
    reason: NoResultReason = NoResultReason.DICE_NOT_FLAT,
    at: datetime = EARLIER,
) -> NoResultDeclared:
    return event(
        NoResultDeclared, DEALER, at=at, round=round_no, reason=reason, consequence=consequence
    )


def invalidated(
    round_no: int = 1, *forfeits: str, fraud: bool = True, at: datetime = EARLIER
) -> RoundInvalidated:
    """A supervisor voids the round for fraud (forfeiting ``forfeits``' wagers) or a fire."""
    return event(
        RoundInvalidated,
        SUPERVISOR,
        at=at,
        round=round_no,
        reason=InvalidationReason.FRAUD if fraud else InvalidationReason.FIRE,
        detail="supervisor's report",
        forfeits=list(forfeits),
    )


def cancelled(round_no: int = 1, *, at: datetime = EARLIER) -> RoundCancelled:
    return event(RoundCancelled, SUPERVISOR, at=at, round=round_no, reason="no quick fix")


def completed(round_no: int = 1, *players: str, at: datetime = EARLIER) -> RoundCompleted:
    """Settlement completed the round; ``players`` wagered in it."""
    return event(RoundCompleted, SERVICE, at=at, round=round_no, players=list(players))


# ---- rounds played -------------------------------------------------------------------------------

_ORDER = (
    Phase.STARTED,
    Phase.BETTING_OPEN,
    Phase.BETTING_CLOSED,
    Phase.UNCOVERED,
    Phase.RESULT_CONFIRMED,
    Phase.COMPLETED,
)


def round_through(
    number: int,
    phase: Phase,
    *,
    profile: str = "cca-1992",
    minutes: float = -30,
    players: Iterable[str] = (),
) -> list[Fact]:
    """Round ``number`` played normally up to ``phase`` (one of started ... completed), a
    minute a step from ``at(minutes)``; the result is 2-3-5. Under a countdown profile betting
    closes 15 s after it opens (the ``config()`` default)."""
    timed = countdown(profile)
    closes_at = at(minutes + 1) + timedelta(seconds=15) if timed else None
    steps: list[Fact] = [
        round_started(number, profile, at=at(minutes)),
        betting_opened(number, closes_at=closes_at, at=at(minutes + 1)),
        betting_closed(number, by_countdown=timed, at=at(minutes + 2)),
        uncovered(number, at=at(minutes + 3)),
        event(
            ResultConfirmed,
            DEALER,
            at=at(minutes + 4),
            round=number,
            dice=(2, 3, 5),
            total=10,
            entered_by=DEALER.id,
        ),
        completed(number, *players, at=at(minutes + 5)),
    ]
    return steps[: _ORDER.index(phase) + 1]


def played_rounds(first: int, last: int, *, minutes: float = -200) -> list[Fact]:
    """Rounds ``first``..``last`` played and completed, six minutes apart."""
    history: list[Fact] = []
    for n in range(first, last + 1):
        history += round_through(n, Phase.COMPLETED, minutes=minutes + 6 * (n - first))
    return history


def seated(*players: str, minutes: float = -100) -> list[Fact]:
    """``players`` seated at seats 1, 2, 3..."""
    return [
        event(SeatTaken, DEALER, at=at(minutes), player=p, seat=i)
        for i, p in enumerate(players, start=1)
    ]
