"""``evolve`` records facts: dice events move or annotate the round, events of another round
change nothing, and the state is immutable."""

import dataclasses
from types import MappingProxyType

import pytest

from sicbo.lifecycle import LifecycleState, Phase, TableStatus, evolve, fold, initial_state
from sicbo_contracts.dice import DiceEntered, DiceRead, ResultConfirmed, ResultCorrected, ResultHeld
from sicbo_contracts.lifecycle import (
    NoResultDeclared,
    NoResultReason,
    RoundCompleted,
)
from tests.support.common import TABLE, Fact, event
from tests.support.lifecycle import given, phase_after, round_through, seated, table_opened


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
        event(DiceEntered, "dealer", round=1, dice=(5, 3, 2), announced=(2, 3, 5), total=10),
        event(DiceRead, "service", round=1, dice=(1, 3, 5)),
        event(ResultHeld, "dealer", round=1, entered=(2, 3, 5), read=(1, 3, 5)),
    ]
    held = given(history).round
    assert held is not None and held.held and held.phase is Phase.UNCOVERED
    assert held.entered == (5, 3, 2)
    history += [
        event(
            ResultConfirmed,
            "supervisor",
            round=1,
            dice=(1, 3, 5),
            total=9,
            entered_by="supervisor-1",
            reason="looked",
        ),
        event(
            ResultCorrected, "supervisor", round=1, before=(1, 3, 5), after=(2, 3, 5), reason="x"
        ),
    ]
    corrected = given(history).round
    assert corrected is not None
    assert (corrected.held, corrected.result, corrected.corrections) == (False, (2, 3, 5), 1)
    assert corrected.phase is Phase.RESULT_CONFIRMED


def test_a_late_confirmation_does_not_undo_a_void_round() -> None:
    history = [
        table_opened(),
        *round_through(1, Phase.UNCOVERED),
        event(
            NoResultDeclared,
            "dealer",
            round=1,
            reason=NoResultReason.DICE_NOT_FLAT,
            consequence="refund",
        ),
        event(ResultConfirmed, "dealer", round=1, dice=(1, 1, 1), total=3, entered_by="d"),
    ]
    assert phase_after(history) is Phase.NO_RESULT


def test_events_of_another_round_change_nothing() -> None:
    history = [table_opened(), *round_through(1, Phase.BETTING_OPEN)]
    before = given(history)
    stray: list[Fact] = [
        event(ResultConfirmed, "dealer", round=7, dice=(1, 2, 3), total=6, entered_by="d"),
        event(RoundCompleted, "service", round=7, players=[]),
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
