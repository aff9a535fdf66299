"""Manual mode (GLI-19 §C.6.8(o)): a supervisor enters it before correcting a result by hand and
leaves it after; both are recorded on the table's log, and a correction needs it."""

import pytest

from sicbo_contracts.base import Actor
from tests.support.common import DEALER, EARLIER, INSPECTOR, SUPERVISOR_2
from tests.support.dice import (
    DICE,
    confirmed,
    correct,
    dual_control_opened,
    enter,
    enter_manual_mode,
    entered,
    leave_manual_mode,
    manual_mode_entered,
    manual_mode_left,
    next_round,
    proposed,
    refused,
    uncovered_round,
    when,
)
from tests.support.lifecycle import completed

CONFIRMED = [*uncovered_round(), entered((4, 1, 1)), confirmed((4, 1, 1))]


def test_manual_mode_is_entered_with_the_reason_and_recorded_gli_19_c_6_8_o() -> None:
    [event] = when(CONFIRMED, enter_manual_mode("the reader disagrees with round 1"))
    assert event == manual_mode_entered("the reader disagrees with round 1", at=event.at)
    manual = DICE.given(*CONFIRMED, event).manual
    assert manual is not None and (manual.by, manual.since) == ("supervisor-1", event.at)


def test_a_correction_outside_manual_mode_is_refused_gli_19_c_6_8_o() -> None:
    refused(CONFIRMED, correct((4, 4, 1), "x"), "not in manual mode", "GLI-19 §C.6.8(o)")
    left = [*CONFIRMED, manual_mode_entered(), manual_mode_left()]
    refused(left, correct((4, 4, 1), "x"), "not in manual mode")


def test_manual_mode_is_left_with_when_it_began_for_review_gli_19_c_6_8_o() -> None:
    history = [*CONFIRMED, manual_mode_entered()]
    [event] = when(history, leave_manual_mode(by=SUPERVISOR_2))  # any supervisor leaves it
    assert event == manual_mode_left(since=EARLIER, by=SUPERVISOR_2)
    assert DICE.given(*history, event).manual is None


def test_manual_mode_is_entered_once_and_left_only_when_in_it() -> None:
    refused([*CONFIRMED, manual_mode_entered()], enter_manual_mode(), "already in manual mode")
    refused(CONFIRMED, leave_manual_mode(), "not in manual mode")


@pytest.mark.parametrize("actor", [DEALER, INSPECTOR], ids=lambda a: a.role.value)
def test_only_a_supervisor_enters_and_leaves_manual_mode(actor: Actor) -> None:
    refused(CONFIRMED, enter_manual_mode(by=actor), "GLI-19 §C.6.8(o)", code="forbidden")
    history = [*CONFIRMED, manual_mode_entered()]
    refused(history, leave_manual_mode(by=actor), code="forbidden")


def test_manual_mode_stops_nothing_else_the_dealer_plays_on() -> None:
    """Only corrections need it: the next round's dice are entered while a supervisor corrects
    the last one (GLI-19 §C.6.8(o) asks that it be shown, not that play stop)."""
    history = [*CONFIRMED, completed(), manual_mode_entered(), *next_round(2)]
    assert when(history, enter((2, 3, 4), 2)) == [entered((2, 3, 4), 2)]


def test_manual_mode_is_not_left_while_a_proposal_waits_for_approval() -> None:
    history = [
        dual_control_opened(),
        *next_round(1),
        entered((4, 1, 1)),
        confirmed((4, 1, 1)),
        manual_mode_entered(),
        proposed((1, 1, 4), (1, 4, 4), "misread"),
    ]
    refused(history, leave_manual_mode(), "round 1 waits for a second supervisor")
