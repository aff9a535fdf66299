"""``evolve`` records facts: dice events move or annotate the round, events of another round
change nothing, and the state is immutable."""

import dataclasses
from types import MappingProxyType

import pytest

from sicbo.lifecycle.evolve import evolve, fold
from sicbo.lifecycle.state import LifecycleState, Phase, TableStatus, initial_state
from tests.support.common import NOW, SUPERVISOR, TABLE, Fact
from tests.support.dice import confirmed, corrected, dice_read, entered, held
from tests.support.lifecycle import (
    completed,
    given,
    no_result,
    phase_after,
    round_started,
    round_through,
    seated,
    table_opened,
)


def test_the_initial_state_is_a_table_never_opened() -> None:
    state = initial_state(TABLE)
    assert state == LifecycleState(table=TABLE)
    assert state.status is TableStatus.NEW and state.round is None and state.next_round == 1


def test_fold_is_evolve_in_log_order() -> None:
    history = [table_opened(), *round_through(1, Phase.UNCOVERED)]
    state = initial_state(TABLE)
    for e in history:
        state = evolve(state, e)
    assert fold(TABLE, history) == state


def test_a_confirmed_result_moves_the_round_to_result_confirmed() -> None:
    history = [table_opened(), *round_through(1, Phase.RESULT_CONFIRMED)]
    current = given(history).round
    assert current is not None
    assert (current.phase, current.ended_by, current.result) == (
        Phase.RESULT_CONFIRMED,
        Phase.RESULT_CONFIRMED,
        (2, 3, 5),
    )


def test_a_held_result_and_a_correction_are_recorded() -> None:
    history = [
        table_opened(),
        *round_through(1, Phase.UNCOVERED),
        entered((5, 3, 2)),
        dice_read((1, 3, 5)),
        held((2, 3, 5), (1, 3, 5)),
    ]
    on_hold = given(history).round
    assert on_hold is not None and on_hold.held and on_hold.phase is Phase.UNCOVERED
    assert on_hold.entered == (5, 3, 2)
    history += [
        confirmed((1, 3, 5), by=SUPERVISOR, entered_by=SUPERVISOR, reason="looked"),
        corrected((1, 3, 5), (2, 3, 5), "x"),
    ]
    after = given(history).round
    assert after is not None
    assert (after.held, after.result, after.corrections) == (False, (2, 3, 5), 1)
    assert after.phase is Phase.RESULT_CONFIRMED


def test_a_late_confirmation_does_not_undo_a_void_round() -> None:
    history = [
        table_opened(),
        *round_through(1, Phase.UNCOVERED),
        no_result(1, "refund", at=NOW),
        confirmed((1, 1, 1)),
    ]
    assert phase_after(history) is Phase.NO_RESULT


def test_events_of_another_round_change_nothing() -> None:
    history = [table_opened(), *round_through(1, Phase.BETTING_OPEN)]
    before = given(history)
    stray: list[Fact] = [
        confirmed((1, 2, 3), 7),
        completed(7, at=NOW),
    ]
    assert given(history, stray) == before


def test_a_completed_round_keeps_its_outcome_and_players() -> None:
    history = [table_opened(), *round_through(1, Phase.COMPLETED, players=["p1", "p2"])]
    current = given(history).round
    assert current is not None
    assert (current.phase, current.ended_by, current.players) == (
        Phase.COMPLETED,
        Phase.RESULT_CONFIRMED,
        ("p1", "p2"),
    )
    assert not current.in_progress and not current.void


def test_the_state_is_immutable() -> None:
    state = given(table_opened(), seated("p1"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.last_round = 9  # type: ignore[misc]
    assert isinstance(state.seats, MappingProxyType)
    with pytest.raises(TypeError):
        state.seats[2] = "p2"  # type: ignore[index]


@pytest.mark.parametrize("again", [1, 2, 3])
def test_a_round_started_again_changes_nothing(again: int) -> None:
    """A start of a round already started (forged into the log: the decider numbers rounds
    next_round) leaves the table at its round, so its next command is still decided."""
    history = [
        table_opened(),
        *round_through(1, Phase.COMPLETED),
        *round_through(2, Phase.COMPLETED),
        *round_through(3, Phase.BETTING_OPEN),
    ]
    playing = given(history)
    assert given([*history, round_started(again)]) == playing
    assert playing.round is not None and playing.round.number == 3 and playing.next_round == 4
