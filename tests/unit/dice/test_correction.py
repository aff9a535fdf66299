"""CorrectResult: a supervisor's manual correction of a confirmed result (GLI-19 §4.18.4), of the
current round or an earlier one, in manual mode (GLI-19 §C.6.8(o))."""

import pytest

from sicbo.dice.state import CORRECTABLE_ROUNDS
from sicbo_contracts.base import Actor
from tests.support.common import DEALER, INSPECTOR, READER
from tests.support.dice import (
    DICE,
    confirmed,
    correct,
    corrected,
    current,
    entered,
    manual_mode_entered,
    next_round,
    refused,
    uncovered_round,
    when,
)
from tests.support.lifecycle import completed, invalidated, no_result

MANUAL = manual_mode_entered()
CONFIRMED = [*uncovered_round(), entered((4, 1, 1)), confirmed((4, 1, 1)), MANUAL]


def played(round_no: int, dice: tuple[int, int, int]) -> list[object]:
    """Round ``round_no`` played to its confirmed result and completed (paid)."""
    result = [entered(dice, round_no), confirmed(dice, round_no), completed(round_no)]
    return [*next_round(round_no), *result]


def test_a_correction_records_the_result_before_and_after_with_the_reason() -> None:
    """DESIGN.md "Contracts": corrections record why, and the value before and after."""
    [event] = when(CONFIRMED, correct((4, 4, 1), "dealer pressed 1 for a 4"))
    assert event == corrected((1, 1, 4), (1, 4, 4), "dealer pressed 1 for a 4")
    assert current([*CONFIRMED, event]).result == (1, 4, 4)


@pytest.mark.parametrize("actor", [DEALER, INSPECTOR, READER], ids=lambda a: a.role.value)
def test_only_a_supervisor_corrects_gli_19_4_18_4(actor: Actor) -> None:
    refused(CONFIRMED, correct((4, 4, 1), "oops", by=actor), "GLI-19 §4.18.4", code="forbidden")


def test_a_correction_before_confirmation_is_refused() -> None:
    history = [*uncovered_round(), entered((4, 1, 1)), MANUAL]
    refused(history, correct((4, 4, 1), "x"), "no confirmed result yet")


def test_a_correction_must_change_the_dice_as_a_multiset() -> None:
    refused(CONFIRMED, correct((1, 4, 1), "same"), "must change the dice")


def test_a_correction_may_follow_a_correction() -> None:
    history = [*CONFIRMED, corrected((1, 1, 4), (1, 4, 4), "first")]
    assert when(history, correct((4, 4, 4), "second")) == [
        corrected((1, 4, 4), (4, 4, 4), "second")
    ]


def test_a_correction_after_the_round_completed_is_allowed_while_it_is_current() -> None:
    history = [*CONFIRMED, completed()]
    assert when(history, correct((1, 1, 5), "late")) == [corrected((1, 1, 4), (1, 1, 5), "late")]


def test_a_correction_of_an_earlier_round_paid_and_played_past_gli_19_4_18_4() -> None:
    """Round 1 completed and paid, rounds 2 and 3 played since: round 1's result (not the
    current round's) is corrected, from round 1's own confirmed result."""
    history = [*CONFIRMED, completed(), *played(2, (6, 6, 2)), *played(3, (3, 3, 3))]
    [event] = when(history, correct((1, 1, 5), "the camera shows a 5", 1))
    assert event == corrected((1, 1, 4), (1, 1, 5), "the camera shows a 5", 1)
    state = DICE.given(*history, event)
    assert state.round_of(1) is not None and state.round_of(1).result == (1, 1, 5)
    assert state.round is not None and state.round.result == (3, 3, 3)  # round 3 unchanged
    # corrected again, from the corrected result
    again = when([*history, event], correct((1, 1, 6), "no, a 6", 1))
    assert again == [corrected((1, 1, 5), (1, 1, 6), "no, a 6", 1)]


def test_an_earlier_round_without_a_result_is_not_corrected_000_7_5() -> None:
    history = [*uncovered_round(), no_result(), MANUAL, *played(2, (6, 6, 2))]
    refused(history, correct((1, 1, 5), "x", 1), "round 1 has no result to correct", "000 §7.5")


def test_a_round_not_started_yet_is_not_corrected() -> None:
    refused(CONFIRMED, correct((1, 1, 5), "x", 2), "round 2 has not started")


def test_a_round_older_than_the_correctable_rounds_is_refused_naming_the_bound() -> None:
    """GLI-19 §4.18.4 with our bound (docs/rules.md): the CORRECTABLE_ROUNDS before the current
    one are kept; round 1 is one too many, round 2 is still corrected."""
    later = [e for n in range(2, CORRECTABLE_ROUNDS + 3) for e in played(n, (2, 3, 4))]
    history = [*CONFIRMED, completed(), *later]
    refused(history, correct((1, 1, 5), "x", 1), f"more than {CORRECTABLE_ROUNDS} rounds")
    assert when(history, correct((2, 3, 5), "x", 2)) == [corrected((2, 3, 4), (2, 3, 5), "x", 2)]


def test_a_correction_of_an_invalidated_outcome_is_refused_000_8_4() -> None:
    refused([*CONFIRMED, invalidated()], correct((1, 1, 5), "x"), "invalidated")
