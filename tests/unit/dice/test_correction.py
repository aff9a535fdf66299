"""CorrectResult: a supervisor's manual correction of a confirmed result (GLI-19 §4.18.4)."""

import pytest

from sicbo_contracts.base import Actor
from tests.support.common import DEALER, INSPECTOR, READER
from tests.support.dice import (
    confirmed,
    correct,
    corrected,
    current,
    entered,
    next_round,
    refused,
    uncovered_round,
    when,
)
from tests.support.lifecycle import completed, invalidated

CONFIRMED = [*uncovered_round(), entered((4, 1, 1)), confirmed((4, 1, 1))]


def test_a_correction_records_the_result_before_and_after_with_the_reason() -> None:
    """DESIGN.md "Contracts": corrections record why, and the value before and after."""
    [event] = when(CONFIRMED, correct((4, 4, 1), "dealer pressed 1 for a 4"))
    assert event == corrected((1, 1, 4), (1, 4, 4), "dealer pressed 1 for a 4")
    assert current([*CONFIRMED, event]).result == (1, 4, 4)


@pytest.mark.parametrize("actor", [DEALER, INSPECTOR, READER], ids=lambda a: a.role.value)
def test_only_a_supervisor_corrects_gli_19_4_18_4(actor: Actor) -> None:
    refused(CONFIRMED, correct((4, 4, 1), "oops", by=actor), "GLI-19 §4.18.4", code="forbidden")


def test_a_correction_before_confirmation_is_refused() -> None:
    refused(
        [*uncovered_round(), entered((4, 1, 1))], correct((4, 4, 1), "x"), "no confirmed result yet"
    )


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


def test_a_correction_of_an_earlier_round_is_refused() -> None:
    """Only the current round (the latest started) is corrected here."""
    history = [*CONFIRMED, completed(), *next_round(2)]
    refused(history, correct((1, 1, 5), "late", 1), "not the current round")


def test_a_correction_of_an_invalidated_outcome_is_refused_000_8_4() -> None:
    refused([*CONFIRMED, invalidated()], correct((1, 1, 5), "x"), "invalidated")
