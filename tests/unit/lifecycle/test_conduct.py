"""A supervisor's powers over a person who used a prohibited device (000 §8.1, §8.3): wagers
declared void in the round in play (§8.3.1), exclusion from the game at the table and its
lifting (§8.3.2)."""

import pytest

from sicbo.lifecycle.state import Phase
from sicbo_contracts.base import Role
from sicbo_contracts.lifecycle import (
    ExcludePlayer,
    LiftExclusion,
    SeatTaken,
    SeatVacated,
    TakeSeat,
    VoidPlayerWagers,
)
from tests.support.common import NOW, Fact, command, event
from tests.support.lifecycle import (
    DEVICE,
    EARLIER,
    excluded,
    exclusion_lifted,
    given,
    no_result,
    refused,
    round_through,
    seated,
    table_closed,
    table_opened,
    wagers_voided,
    when,
)

NOT_SUPERVISORS = [r for r in Role if r is not Role.SUPERVISOR]


def in_round(phase: Phase, number: int = 1) -> list[Fact]:
    return [table_opened(), *round_through(number, phase)]


def void(player: str = "alice", round_no: int = 1, by: Role = Role.SUPERVISOR) -> VoidPlayerWagers:
    return command(VoidPlayerWagers, by, round=round_no, player=player, reason=DEVICE)


def exclude(player: str = "alice", by: Role = Role.SUPERVISOR) -> ExcludePlayer:
    return command(ExcludePlayer, by, player=player, reason=DEVICE)


def lift(player: str = "alice", by: Role = Role.SUPERVISOR) -> LiftExclusion:
    return command(LiftExclusion, by, player=player, reason="device was a hearing aid")


def sit(player: str = "alice", seat: int = 1) -> TakeSeat:
    return command(TakeSeat, Role.DEALER, player=player, seat=seat)


# ---- 000 §8.3.1: wagers declared void ------------------------------------------------------------


@pytest.mark.parametrize(
    "phase", [Phase.STARTED, Phase.BETTING_OPEN, Phase.BETTING_CLOSED, Phase.UNCOVERED]
)
def test_000_8_3_1_a_supervisor_voids_a_players_wagers_before_the_result(phase: Phase) -> None:
    assert when(in_round(phase), void()) == [wagers_voided(1, "alice", at=NOW)]


def test_000_8_3_1_the_void_is_recorded_for_the_round_only() -> None:
    history = [*in_round(Phase.UNCOVERED), wagers_voided(1, "alice")]
    current = given(history).round
    assert current is not None and current.voided == {"alice"}
    paid = round_through(1, Phase.COMPLETED)[4:]  # confirmed, completed
    later = [*history, *paid, *round_through(2, Phase.STARTED, minutes=-10)]
    current = given(later).round
    assert current is not None and current.number == 2 and current.voided == frozenset()


@pytest.mark.parametrize("phase", [Phase.RESULT_CONFIRMED, Phase.COMPLETED])
def test_000_8_3_1_voiding_after_the_confirmed_result_is_refused(phase: Phase) -> None:
    refused(in_round(phase), void(), "round:", "000 §8.3.1", "confirmed", "000 §8.4")


def test_000_8_3_1_voiding_a_round_ended_with_no_result_is_refused() -> None:
    history = [*in_round(Phase.UNCOVERED), no_result(1, "refund")]
    refused(history, void(), "already ended (no-result)", "000 §8.3.1")


def test_000_8_3_1_only_the_current_round_is_voided() -> None:
    history = [*in_round(Phase.COMPLETED), *round_through(2, Phase.BETTING_OPEN)]
    refused(history, void(round_no=1), "round 1 is not the current round 2")


def test_000_8_3_1_a_player_voided_twice_in_a_round_is_refused_naming_the_field() -> None:
    history = [*in_round(Phase.BETTING_CLOSED), wagers_voided(1, "alice")]
    error = refused(history, void(), "player:", "already declared void", "000 §8.3.1")
    assert error.field == "$.player"
    assert when(history, void("bob")) == [wagers_voided(1, "bob", at=NOW)]


@pytest.mark.parametrize("role", NOT_SUPERVISORS)
def test_000_8_3_1_only_a_supervisor_voids_wagers(role: Role) -> None:
    refused(in_round(Phase.UNCOVERED), void(by=role), "000 §8.3.1", code="forbidden")


# ---- 000 §8.3.2: excluded from further participation in the game --------------------------------


def test_000_8_3_2_a_supervisor_excludes_a_player() -> None:
    assert when([table_opened()], exclude()) == [excluded("alice", at=NOW)]
    state = given(table_opened(), excluded("alice"))
    assert state.excluded["alice"].by == "supervisor-1"
    assert state.excluded["alice"].reason == DEVICE


def test_000_8_3_2_an_excluded_player_leaves_their_seat() -> None:
    history = [table_opened(), *seated("bob", "alice")]
    assert when(history, exclude()) == [
        excluded("alice", at=NOW),
        event(SeatVacated, Role.SUPERVISOR, at=NOW, player="alice", seat=2),
    ]


@pytest.mark.parametrize("by", [Role.DEALER, Role.SUPERVISOR])
def test_000_8_3_2_an_excluded_player_takes_no_seat(by: Role) -> None:
    history = [table_opened(), excluded("alice")]
    take = command(TakeSeat, by, player="alice", seat=1)
    error = refused(history, take, "player:", "excluded", "000 §8.3.2", "take a seat")
    assert error.field == "$.player"
    assert when(history, sit("bob")) == [
        event(SeatTaken, Role.DEALER, at=NOW, player="bob", seat=1)
    ]


def test_000_8_3_2_lifting_the_exclusion_lets_the_player_sit_again() -> None:
    history = [table_opened(), excluded("alice", at=EARLIER)]
    [lifted] = when(history, lift())
    assert lifted == exclusion_lifted("alice", since=EARLIER, at=NOW)
    assert when([*history, lifted], sit()) == [
        event(SeatTaken, Role.DEALER, at=NOW, player="alice", seat=1)
    ]


def test_000_8_3_2_an_exclusion_outlives_the_tables_closing() -> None:
    history = [table_opened(), excluded("alice"), table_closed(), table_opened(at=EARLIER)]
    refused(history, sit(), "excluded", "000 §8.3.2")


def test_000_8_3_2_excluding_twice_or_lifting_no_exclusion_is_refused_naming_the_field() -> None:
    twice = refused([table_opened(), excluded("alice")], exclude(), "already excluded")
    nothing = refused([table_opened()], lift(), "is not excluded", "000 §8.3.2")
    assert twice.field == nothing.field == "$.player"


@pytest.mark.parametrize("role", NOT_SUPERVISORS)
def test_000_8_3_2_only_a_supervisor_excludes_or_lifts(role: Role) -> None:
    refused([table_opened()], exclude(by=role), "000 §8.3.2", code="forbidden")
    refused([table_opened(), excluded("alice")], lift(by=role), "000 §8.3.2", code="forbidden")


def test_000_8_3_an_exclusion_or_void_needs_an_open_table() -> None:
    refused([], exclude(), "is not open")
    refused([table_opened(), table_closed()], lift(), "was closed")
