"""Seats, and the player asked to vacate after three rounds without a wager (000 §8.9)."""

from sicbo.lifecycle.state import Phase
from sicbo_contracts.lifecycle import (
    CompleteRound,
    LeaveSeat,
    RoundCompleted,
    SeatTaken,
    SeatVacated,
    TakeSeat,
    VacateNoticeIssued,
)
from tests.support.common import Fact, at, command, event
from tests.support.lifecycle import given, refused, round_through, seated, table_opened, when

FULL = ("p1", "p2", "p3")  # a three-seat table with every seat taken


def three_seat_table(*players: str) -> list[Fact]:
    return [table_opened(seats=3), *seated(*players)]


def play(history: list[Fact], *wagered: tuple[str, ...]) -> list[Fact]:
    """One round per entry, each entry naming who wagered; returns the longer history."""
    for players in wagered:
        n = given(history).next_round
        history = history + round_through(n, Phase.RESULT_CONFIRMED, minutes=-90 + 6 * n)
        history += when(history, command(CompleteRound, "service", round=n, players=[*players]))
    return history


def vacate_notices(events: list[Fact]) -> list[VacateNoticeIssued]:
    return [e for e in events if isinstance(e, VacateNoticeIssued)]


def test_a_dealer_seats_a_player() -> None:
    cmd = command(TakeSeat, "dealer", player="p1", seat=2)
    events = when(table_opened(), cmd)
    assert events == [event(SeatTaken, "dealer", player="p1", seat=2)]
    assert given(table_opened(), events).seats == {2: "p1"}


def test_a_seat_outside_the_layout_is_refused() -> None:
    refused(three_seat_table(), command(TakeSeat, "dealer", player="p1", seat=4), "seats 1 to 3")


def test_a_taken_seat_is_refused() -> None:
    cmd = command(TakeSeat, "supervisor", player="p9", seat=1)
    refused(three_seat_table("p1"), cmd, "seat 1 is taken by player 'p1'")


def test_a_player_sits_in_one_seat_only() -> None:
    cmd = command(TakeSeat, "dealer", player="p1", seat=3)
    refused(three_seat_table("p1"), cmd, "'p1' is already seated at seat 1")


def test_a_player_leaves_their_seat() -> None:
    events = when(three_seat_table("p1", "p2"), command(LeaveSeat, "dealer", player="p2"))
    assert events == [event(SeatVacated, "dealer", player="p2", seat=2)]
    assert given(three_seat_table("p1", "p2"), events).seats == {1: "p1"}


def test_a_player_not_seated_cannot_leave() -> None:
    refused(three_seat_table("p1"), command(LeaveSeat, "dealer", player="p2"), "not seated")


def test_third_round_without_a_wager_at_a_full_table_asks_to_vacate_000_8_9() -> None:
    """000 §8.9: no wager for three consecutive rounds while every other seat is in use; the
    notice comes in the same decision as the third RoundCompleted."""
    history = play(three_seat_table(*FULL), ("p1", "p2"), ("p1", "p2"))
    n = given(history).next_round
    history += round_through(n, Phase.RESULT_CONFIRMED, minutes=-10)
    events = when(history, command(CompleteRound, "service", round=n, players=["p1", "p2"]))
    assert events == [
        event(RoundCompleted, "service", round=n, players=["p1", "p2"]),
        event(VacateNoticeIssued, "service", player="p3", seat=3, rounds_without_wager=3),
    ]
    assert given(history, events).asked_to_vacate == {"p3"}


def test_two_rounds_without_a_wager_are_not_enough_000_8_9() -> None:
    history = play(three_seat_table(*FULL), ("p1",))
    assert given(history).idle_rounds == {"p1": 0, "p2": 1, "p3": 1}
    history = play(history, ("p1",))
    assert given(history).idle_rounds == {"p1": 0, "p2": 2, "p3": 2}


def test_no_notice_while_a_seat_is_free_000_8_9() -> None:
    history = play(three_seat_table("p1", "p2"), ("p1",), ("p1",))
    n = given(history).next_round
    history += round_through(n, Phase.RESULT_CONFIRMED, minutes=-10)
    events = when(history, command(CompleteRound, "service", round=n, players=["p1"]))
    assert vacate_notices(events) == []
    assert given(history, events).idle_rounds == {"p1": 0, "p2": 0}


def test_a_round_at_a_table_not_full_breaks_the_streak_000_8_9() -> None:
    """The three rounds must be consecutive rounds at a full table."""
    history = play(three_seat_table(*FULL), ("p1", "p2"), ("p1", "p2"))
    history += when(history, command(LeaveSeat, "dealer", player="p1"), at=at(-20))
    history = play(history, ("p2",))  # a round with seat 1 free
    history += when(history, command(TakeSeat, "dealer", player="p4", seat=1), at=at(-15))
    history = play(history, ("p2", "p4"))
    assert given(history).idle_rounds["p3"] == 1


def test_a_wager_resets_the_count_000_8_9() -> None:
    history = play(three_seat_table(*FULL), ("p1", "p2"), ("p1", "p2"), ("p1", "p2", "p3"))
    assert given(history).idle_rounds["p3"] == 0
    assert vacate_notices(history) == []


def test_the_notice_is_issued_once_per_streak_000_8_9() -> None:
    history = play(three_seat_table(*FULL), *[("p1", "p2")] * 5)
    notices = vacate_notices(history)
    assert [(n.player, n.rounds_without_wager) for n in notices] == [("p3", 3)]
    assert given(history).idle_rounds["p3"] == 5
    # After a wager, a new streak may earn a new notice.
    history = play(history, ("p1", "p2", "p3"), *[("p1", "p2")] * 3)
    assert [n.player for n in vacate_notices(history)] == ["p3", "p3"]


def test_players_who_wagered_without_a_seat_do_not_count_000_8_9() -> None:
    """Online players (no seat) are recorded as having wagered but have no seat to vacate."""
    history = play(three_seat_table(*FULL), ("p1", "p2", "online-9"))
    assert given(history).idle_rounds == {"p1": 0, "p2": 0, "p3": 1}
