"""The play of a round: tumble (000 §5.1, 002 art. 2, 004; the ways to start it are
test_activation.py), place your bets, no more bets, uncover (000 §5.2), and the next round only
once this one is completed (002 art. 4)."""

from datetime import timedelta

import pytest

from sicbo.lifecycle.state import Phase
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    CancelRound,
    CloseBetting,
    CompleteRound,
    DeclareNoResult,
    InvalidateRound,
    InvalidationReason,
    LifecycleCommand,
    NoResultReason,
    OpenBetting,
    ReportMalfunction,
    RoundStarted,
    StartRound,
    Uncover,
    Uncovered,
)
from tests.support.common import at, command, event
from tests.support.lifecycle import given, played_rounds, refused, round_through, table_opened, when


def test_the_first_round_is_round_1_and_records_its_paytable_000_5_1() -> None:
    events = when(table_opened(), command(StartRound, "dealer", round=1, tumbles=3))
    assert events == [event(RoundStarted, "dealer", round=1, tumbles=3, paytable="cca-1992@v1")]
    state = given(table_opened(), events)
    assert state.round is not None
    assert (state.round.number, state.round.phase) == (1, Phase.STARTED)


def test_a_game_supervisor_may_start_the_round_000_5_1() -> None:
    [started] = when(table_opened(), command(StartRound, "supervisor", round=1, tumbles=4))
    assert isinstance(started, RoundStarted)


def test_the_first_round_must_be_numbered_1() -> None:
    cmd = command(StartRound, "dealer", round=2, tumbles=3)
    refused(table_opened(), cmd, "round 2 cannot start: the next round of T1 is 1")


def test_round_numbers_have_no_gaps() -> None:
    history = [table_opened(), *played_rounds(1, 2)]
    refused(history, command(StartRound, "dealer", round=4, tumbles=3), "next round of T1 is 3")
    assert when(history, command(StartRound, "dealer", round=3, tumbles=3))


def test_a_completed_round_is_not_started_again() -> None:
    history = [table_opened(), *played_rounds(1, 2)]
    refused(history, command(StartRound, "dealer", round=2, tumbles=3), "next round of T1 is 3")


def test_a_started_round_is_not_started_again() -> None:
    history = [table_opened(), *round_through(1, Phase.STARTED)]
    refused(history, command(StartRound, "dealer", round=1, tumbles=3), "already started")


@pytest.mark.parametrize(
    "phase",
    [
        Phase.STARTED,
        Phase.BETTING_OPEN,
        Phase.BETTING_CLOSED,
        Phase.UNCOVERED,
        Phase.RESULT_CONFIRMED,
    ],
)
def test_the_next_round_waits_until_every_winner_is_paid_002_art_4(phase: Phase) -> None:
    """002 art. 4: the cover may not go back on until every winning wager is paid, i.e. until
    settlement completes the round (RoundCompleted)."""
    history = [table_opened(), *round_through(1, phase)]
    refused(
        history,
        command(StartRound, "dealer", round=2, tumbles=3),
        match=rf"round 1 is not completed \({phase.value}\).*002 art\. 4",
    )


def test_place_your_bets_after_the_tumble_000_5_1() -> None:
    history = [table_opened(), *round_through(1, Phase.STARTED)]
    assert when(history, command(OpenBetting, "dealer", round=1)) == [
        event(BettingOpened, "dealer", round=1, closes_at=None)
    ]


def test_an_online_round_opens_betting_with_a_countdown_004() -> None:
    """004 "Cara Bermain": the betting countdown starts with the round."""
    history = [
        table_opened("online-live", betting_seconds=20),
        *round_through(1, Phase.STARTED, profile="online-live"),
    ]
    events = when(history, command(OpenBetting, "dealer", round=1))
    assert events == [
        event(BettingOpened, "dealer", round=1, closes_at=at(0) + timedelta(seconds=20))
    ]
    assert given(history, events).countdown_closes_at == at(0) + timedelta(seconds=20)


def test_betting_is_opened_once() -> None:
    history = [table_opened(), *round_through(1, Phase.BETTING_OPEN)]
    refused(history, command(OpenBetting, "dealer", round=1), "already opened")


def test_no_more_bets_by_the_dealer_000_5_2() -> None:
    history = [table_opened(), *round_through(1, Phase.BETTING_OPEN)]
    events = when(history, command(CloseBetting, "dealer", round=1))
    assert events == [event(BettingClosed, "dealer", round=1, by_countdown=False)]
    state = given(history, events)
    assert state.round is not None and state.round.phase is Phase.BETTING_CLOSED
    assert state.countdown_closes_at is None


def test_the_countdown_closes_betting_by_itself_004() -> None:
    history = [
        table_opened("online-live"),
        *round_through(1, Phase.BETTING_OPEN, profile="online-live"),
    ]
    assert given(history).countdown_closes_at == at(-29) + timedelta(seconds=15)
    assert when(history, command(CloseBetting, "service", round=1)) == [
        event(BettingClosed, "service", round=1, by_countdown=True)
    ]


def test_a_service_cannot_close_betting_where_there_is_no_countdown_000_5_2() -> None:
    history = [table_opened(), *round_through(1, Phase.BETTING_OPEN)]
    refused(history, command(CloseBetting, "service", round=1), "no betting countdown")


@pytest.mark.parametrize("phase", [Phase.STARTED, Phase.BETTING_CLOSED, Phase.UNCOVERED])
def test_no_more_bets_only_while_betting_is_open_000_5_2(phase: Phase) -> None:
    history = [table_opened(), *round_through(1, phase)]
    refused(history, command(CloseBetting, "dealer", round=1), "betting of round 1 is not open")


def test_uncover_after_no_more_bets_000_5_2() -> None:
    history = [table_opened(), *round_through(1, Phase.BETTING_CLOSED)]
    assert when(history, command(Uncover, "dealer", round=1)) == [
        event(Uncovered, "dealer", round=1)
    ]


@pytest.mark.parametrize("phase", [Phase.STARTED, Phase.BETTING_OPEN])
def test_the_tumbler_stays_covered_until_no_more_bets_000_5_2(phase: Phase) -> None:
    history = [table_opened(), *round_through(1, phase)]
    refused(
        history,
        command(Uncover, "dealer", round=1),
        match=r'only after "no more bets" \(000 §5\.2\)',
    )


def test_the_tumbler_is_uncovered_once() -> None:
    history = [table_opened(), *round_through(1, Phase.UNCOVERED)]
    refused(history, command(Uncover, "dealer", round=1), "round 1 is uncovered")


ROUND_COMMANDS: list[LifecycleCommand] = [
    command(OpenBetting, "dealer", round=2),
    command(CloseBetting, "dealer", round=2),
    command(Uncover, "dealer", round=2),
    command(DeclareNoResult, "dealer", round=2, reason=NoResultReason.DICE_NOT_FLAT),
    command(InvalidateRound, "supervisor", round=2, reason=InvalidationReason.FIRE, detail="smoke"),
    command(CancelRound, "supervisor", round=2, reason="no fix"),
    command(CompleteRound, "service", round=2),
    command(ReportMalfunction, "dealer", round=2, equipment="lamp", detail="dark"),
]


@pytest.mark.parametrize("cmd", ROUND_COMMANDS, ids=lambda c: type(c).__name__)
def test_a_command_for_another_round_is_refused(cmd: LifecycleCommand) -> None:
    history = [table_opened(), *round_through(1, Phase.BETTING_OPEN)]
    refused(history, cmd, "round 2 is not the current round 1")


@pytest.mark.parametrize("cmd", ROUND_COMMANDS, ids=lambda c: type(c).__name__)
def test_a_round_command_before_any_round_is_refused(cmd: LifecycleCommand) -> None:
    refused(table_opened(), cmd, "round 2 is not the current round: no round has started")


def test_commands_for_a_completed_round_are_refused() -> None:
    history = [table_opened(), *played_rounds(1, 1)]
    refused(history, command(OpenBetting, "dealer", round=1), "round 1 is already completed")
    refused(history, command(CompleteRound, "service", round=1), "already completed")
