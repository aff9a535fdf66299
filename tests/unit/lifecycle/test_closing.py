"""Closing a table (000 §8.8) and never in the middle of a round (002 art. 4)."""

import pytest

from sicbo.lifecycle.state import Phase, TableStatus
from sicbo_contracts.lifecycle import (
    CloseTable,
    ClosingNoticePosted,
    CompleteRound,
    DeclareNoResult,
    NoResultReason,
    PostClosingNotice,
    SeatVacated,
    TableClosed,
)
from tests.support.common import at, command, event
from tests.support.lifecycle import (
    given,
    no_result,
    played_rounds,
    refused,
    round_through,
    seated,
    table_opened,
    when,
)


def closing_notice(*, posted: float, close_at: float) -> ClosingNoticePosted:
    return event(ClosingNoticePosted, "supervisor", at=at(posted), close_at=at(close_at))


def test_a_supervisor_posts_the_closing_sign_000_8_8() -> None:
    cmd = command(PostClosingNotice, "supervisor", close_at=at(30))
    assert when(table_opened(), cmd) == [closing_notice(posted=0, close_at=30)]


def test_an_empty_table_closes_without_a_sign_000_8_8() -> None:
    history = [table_opened(), *played_rounds(1, 2)]
    events = when(history, command(CloseTable, "supervisor"))
    assert events == [event(TableClosed, "supervisor")]
    state = given(history, events)
    assert state.status is TableStatus.CLOSED
    assert state.closed_at == at(0)


def test_a_table_with_players_seated_needs_a_closing_sign_000_8_8() -> None:
    history = [table_opened(), *seated("p1", "p2")]
    refused(
        history, command(CloseTable, "supervisor"), match=r"2 player\(s\) .*000 §8\.8.*no closing"
    )


def test_an_online_table_with_players_betting_in_the_last_rounds_needs_a_sign_000_8_8() -> None:
    """Online players take no seat: those who wagered in the last rounds are present."""
    history = [
        table_opened("online-live"),
        *round_through(1, Phase.COMPLETED, profile="online-live", minutes=-60, players=["ann"]),
    ]
    refused(
        history,
        command(CloseTable, "supervisor"),
        match=r"1 player\(s\) are present .*last 3 rounds.*000 §8\.8",
    )


def test_players_of_rounds_older_than_the_last_three_are_not_present_000_8_8() -> None:
    history = [
        table_opened("online-live"),
        *round_through(1, Phase.COMPLETED, profile="online-live", minutes=-90, players=["ann"]),
    ]
    for n in (2, 3, 4):
        history += round_through(n, Phase.COMPLETED, profile="online-live", minutes=-90 + 7 * n)
    assert given(history).players_present == frozenset()
    assert when(history, command(CloseTable, "supervisor")) == [event(TableClosed, "supervisor")]


def test_a_closing_sign_shown_for_19_minutes_is_not_enough_000_8_8() -> None:
    history = [table_opened(), *seated("p1"), closing_notice(posted=-19, close_at=-1)]
    refused(history, command(CloseTable, "supervisor"), "at least 20 minutes before")


def test_the_table_does_not_close_before_the_time_on_the_sign_000_8_8() -> None:
    history = [table_opened(), *seated("p1"), closing_notice(posted=-60, close_at=15)]
    refused(history, command(CloseTable, "supervisor"), match="shows .*T20:15")


def test_after_20_minutes_of_the_sign_the_table_closes_and_the_seats_empty_000_8_8() -> None:
    history = [table_opened(), *seated("p1", "p2"), closing_notice(posted=-20, close_at=0)]
    assert when(history, command(CloseTable, "supervisor")) == [
        event(SeatVacated, "supervisor", player="p1", seat=1),
        event(SeatVacated, "supervisor", player="p2", seat=2),
        event(TableClosed, "supervisor"),
    ]


@pytest.mark.parametrize(
    "phase",
    [Phase.STARTED, Phase.BETTING_OPEN, Phase.UNCOVERED, Phase.RESULT_CONFIRMED],
)
def test_a_table_never_closes_while_a_round_is_in_progress_002_art_4(phase: Phase) -> None:
    """A round not completed (not yet settled) keeps the table open: winners get paid."""
    history = [table_opened(), *played_rounds(1, 1), *round_through(2, phase)]
    refused(
        history, command(CloseTable, "supervisor"), match=r"round 2 is in progress .*002 art\. 4"
    )


def test_a_void_round_awaiting_settlement_also_keeps_the_table_open() -> None:
    history = [
        table_opened(),
        *round_through(1, Phase.STARTED),
        no_result(1, "refund", reason=NoResultReason.BROKEN_DICE, at=at(-1)),
    ]
    refused(
        history, command(CloseTable, "supervisor"), match=r"round 1 is in progress \(no-result\)"
    )


def test_a_closed_table_cannot_be_closed_again() -> None:
    history = [table_opened(), event(TableClosed, "supervisor", at=at(-1))]
    refused(history, command(CloseTable, "supervisor"), "was closed")


@pytest.mark.parametrize("profile", ["macau-2003", "macau-2004", "online-live"])
def test_a_table_is_not_closed_with_wagers_carried_to_a_re_run(profile: str) -> None:
    """002 art. 3(3), 004: after "no result" the round is run again with the wagers standing."""
    history = [table_opened(profile), *round_through(1, Phase.UNCOVERED, profile=profile)]
    reason = NoResultReason.DICE_NOT_FLAT
    history += when(history, command(DeclareNoResult, "dealer", round=1, reason=reason))
    history += when(history, command(CompleteRound, "service", round=1))
    refused(history, command(CloseTable, "supervisor"), "stand for the re-run")


def test_a_table_closes_after_a_refunded_no_result_000_7_5() -> None:
    history = [table_opened(), *round_through(1, Phase.UNCOVERED)]
    reason = NoResultReason.DICE_NOT_FLAT
    history += when(history, command(DeclareNoResult, "dealer", round=1, reason=reason))
    history += when(history, command(CompleteRound, "service", round=1))
    assert isinstance(when(history, command(CloseTable, "supervisor"))[-1], TableClosed)
