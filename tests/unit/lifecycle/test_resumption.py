"""004 "Ralat Pengendalian": a suspended round "resumes and continues as usual" once the problem
is solved quickly; the dealer tells the supervisor, who resumes it (or cancels it).

The scene: an online table whose round 1 was suspended at EARLIER (five minutes ago) with 10 s
of its 15 s betting countdown left (``suspended_while_betting``).
"""

from datetime import timedelta

import pytest

from sicbo.game.profiles import load_profile
from sicbo.lifecycle.resumption import resumable_round
from sicbo.lifecycle.state import Phase
from sicbo_contracts.lifecycle import (
    BettingClosed,
    CancelRound,
    ClearFault,
    CloseBetting,
    FaultCleared,
    ReportMalfunction,
    Uncover,
)
from sicbo_contracts.resumption import BettingResumed, ResumeRound
from tests.support.common import EARLIER, NOW, Fact, at, command, event
from tests.support.lifecycle import (
    given,
    refused,
    round_through,
    suspended_while_betting,
    table_opened,
    when,
)

OLD_DEADLINE = EARLIER + timedelta(seconds=10)


def resume(round_no: int = 1, who: str = "supervisor") -> ResumeRound:
    return command(ResumeRound, who, round=round_no, detail="stream back")


def by_countdown(closes_at: object) -> CloseBetting:
    return command(CloseBetting, "service", round=1, closes_at=closes_at)


def resumed() -> list[Fact]:
    history = suspended_while_betting()
    return history + when(history, resume())


# ---- the pause -----------------------------------------------------------------------------------


def test_004_a_suspension_pauses_the_betting_countdown() -> None:
    state = given(suspended_while_betting())
    assert state.round is not None and state.round.phase is Phase.BETTING_OPEN
    assert state.round.betting_paused and state.round.betting_left == timedelta(seconds=10)
    assert state.round.closes_at is None and state.countdown_closes_at is None


def test_004_a_suspension_after_the_countdown_ended_pauses_nothing() -> None:
    """Its deadline had passed (the countdown's close on its way): nothing is left to pause,
    and the countdown still closes betting while suspended (not "further play", 000 §7.7)."""
    history = suspended_while_betting(seconds_left=-1)
    current = given(history).round
    assert current is not None and not current.betting_paused
    assert current.closes_at == EARLIER - timedelta(seconds=1)
    [closed] = when(history, by_countdown(current.closes_at))
    assert isinstance(closed, BettingClosed) and closed.by_countdown


def test_004_the_paused_countdown_does_not_close_betting() -> None:
    """The old deadline passes during the suspension: its close is refused, betting stays
    open for the resumption."""
    history = suspended_while_betting()
    refused(history, by_countdown(OLD_DEADLINE), "paused", "suspended", '004 "Ralat')


def test_the_dealer_may_still_close_paused_betting_by_hand_000_5_2() -> None:
    history = suspended_while_betting()
    history += when(history, command(CloseBetting, "dealer", round=1))
    events = when(history, resume())
    assert [type(e) for e in events] == [FaultCleared]  # nothing to resume: betting is over


# ---- the resumption ------------------------------------------------------------------------------


def test_004_the_supervisor_resumes_the_round_with_the_time_left() -> None:
    history = suspended_while_betting()
    events = when(history, resume())
    assert events == [
        event(FaultCleared, "supervisor", detail="stream back", suspended_since=EARLIER),
        event(BettingResumed, "supervisor", round=1, closes_at=NOW + timedelta(seconds=10)),
    ]
    state = given(history, events)
    assert not state.suspended and state.round is not None
    assert not state.round.betting_paused
    assert state.countdown_closes_at == NOW + timedelta(seconds=10)


def test_004_resumed_betting_is_open_at_least_the_profiles_minimum() -> None:
    assert load_profile("online-live").resume_betting_seconds == 5
    [_, resumed_betting] = when(suspended_while_betting(seconds_left=2), resume())
    assert resumed_betting == event(
        BettingResumed, "supervisor", round=1, closes_at=NOW + timedelta(seconds=5)
    )


def test_resumed_betting_is_never_longer_than_a_whole_countdown() -> None:
    history = suspended_while_betting(seconds_left=2, betting_seconds=3)
    [_, resumed_betting] = when(history, resume())
    assert isinstance(resumed_betting, BettingResumed)
    assert resumed_betting.closes_at == NOW + timedelta(seconds=3)


def test_004_the_countdown_closes_resumed_betting_at_its_new_deadline_only() -> None:
    history = resumed()
    refused(history, by_countdown(OLD_DEADLINE), "superseded", "now closes at")
    new_deadline = NOW + timedelta(seconds=10)
    closed = when(history, by_countdown(new_deadline), at=new_deadline)
    assert closed == [event(BettingClosed, "service", at=new_deadline, round=1, by_countdown=True)]


def test_an_inspector_clearing_the_fault_resumes_betting_too_000_7_7() -> None:
    events = when(suspended_while_betting(), command(ClearFault, "inspector", detail="fixed"))
    assert events == [
        event(FaultCleared, "inspector", detail="fixed", suspended_since=EARLIER),
        event(BettingResumed, "inspector", round=1, closes_at=NOW + timedelta(seconds=10)),
    ]


def test_004_a_round_suspended_after_betting_resumes_where_it_was() -> None:
    history: list[Fact] = [
        table_opened("online-live"),
        *round_through(1, Phase.BETTING_CLOSED, profile="online-live"),
    ]
    history += when(history, command(ReportMalfunction, "dealer", equipment="tumbler", detail="x"))
    refused(history, command(Uncover, "dealer", round=1), "supervisor resumes the round")
    events = when(history, resume())
    assert [type(e) for e in events] == [FaultCleared]
    assert when([*history, *events], command(Uncover, "dealer", round=1))


# ---- who resumes, and what --------------------------------------------------------------------


@pytest.mark.parametrize("who", ["dealer", "inspector", "operator"])
def test_004_only_the_supervisor_resumes_the_round(who: str) -> None:
    refused(suspended_while_betting(), resume(who=who), "supervisor", code="forbidden")


def test_a_land_tables_fault_is_cleared_by_an_inspector_000_7_7() -> None:
    history: list[Fact] = [table_opened(), *round_through(1, Phase.UNCOVERED)]
    history += when(history, command(ReportMalfunction, "dealer", equipment="lamp", detail="x"))
    refused(history, resume(), "suspend-table", "inspector", "000 §7.7")


def test_only_the_suspended_round_resumes() -> None:
    refused(suspended_while_betting(), resume(2), "round 2 is not the suspended round")
    refused(table_opened("online-live"), resume(), "not suspended")


def test_004_a_cancelled_round_does_not_resume() -> None:
    history = suspended_while_betting()
    history += when(history, command(CancelRound, "supervisor", round=1, reason="no fix"))
    refused(history, resume(), "was cancelled", "does not resume")


def test_a_second_fault_while_paused_keeps_the_time_left() -> None:
    history = suspended_while_betting()
    later = command(ReportMalfunction, "dealer", equipment="tumbler", detail="stuck")
    history += when(history, later, at=at(-1))
    state = given(history)
    assert state.round is not None and state.round.betting_left == timedelta(seconds=10)


def test_004_the_round_a_supervisor_may_resume() -> None:
    """What a terminal or the demo supervisor offers: the same rounds ResumeRound accepts."""
    assert resumable_round(given(suspended_while_betting())) == 1
    land: list[Fact] = [table_opened(), *round_through(1, Phase.UNCOVERED)]
    land += when(land, command(ReportMalfunction, "dealer", equipment="lamp", detail="x"))
    assert resumable_round(given(land)) is None
    cancelled = suspended_while_betting()
    cancelled += when(cancelled, command(CancelRound, "supervisor", round=1, reason="no fix"))
    assert resumable_round(given(cancelled)) is None
    assert resumable_round(given(table_opened("online-live"))) is None
