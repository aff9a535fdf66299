"""ConfirmResult: the entry key after the echo, by a second person where the table requires
it (000 §5.4-5.5; TableConfig.second_person_confirmation)."""

import pytest

from sicbo_contracts.base import Actor
from sicbo_contracts.dice import ResultConfirmed
from tests.support.common import DEALER, DEALER_2, INSPECTOR, PLAYER, READER, SUPERVISOR
from tests.support.dice import (
    confirm,
    confirmed,
    dice_read,
    entered,
    given,
    held,
    refused,
    uncovered_round,
    when,
)
from tests.support.lifecycle import no_result, suspended


def test_confirmation_gives_the_result_lowest_to_highest_with_who_entered_it_000_5_3() -> None:
    history = [*uncovered_round(), entered((5, 2, 3))]
    [event] = when(history, confirm())
    assert event == confirmed((5, 2, 3))
    assert isinstance(event, ResultConfirmed)
    assert (event.dice, event.total, event.entered_by) == ((2, 3, 5), 10, DEALER.id)


def test_a_supervisor_may_confirm_a_dealers_entry_000_5_4() -> None:
    history = [*uncovered_round(), entered((5, 2, 3))]
    assert when(history, confirm(by=SUPERVISOR)) == [confirmed((5, 2, 3), by=SUPERVISOR)]


@pytest.mark.parametrize("actor", [PLAYER, INSPECTOR, READER], ids=lambda a: a.role.value)
def test_no_one_else_may_confirm_000_5_4(actor: Actor) -> None:
    refused([*uncovered_round(), entered((5, 2, 3))], confirm(by=actor), code="forbidden")


def test_confirmation_without_an_entry_is_refused_000_5_4() -> None:
    refused(uncovered_round(), confirm(), "enter them first")


def test_a_second_confirmation_is_refused() -> None:
    history = [*uncovered_round(), entered((1, 1, 2)), confirmed((1, 1, 2))]
    refused(history, confirm(by=DEALER_2), "already confirmed as 1-1-2")


def test_confirmation_after_no_result_is_refused_000_7_5() -> None:
    history = [*uncovered_round(), entered((1, 1, 2)), no_result()]
    refused(history, confirm(), "no result")


def test_confirmation_of_another_round_is_refused() -> None:
    history = [*uncovered_round(), entered((1, 1, 2))]
    refused(history, confirm(2), "not the current round")


def test_second_person_confirmation_refuses_the_one_who_entered() -> None:
    """TableConfig.second_person_confirmation: the confirmer must differ from the entrant."""
    history = [*uncovered_round(second_person=True), entered((4, 4, 1))]
    refused(history, confirm(by=DEALER), "second person", DEALER.id, code="refused")


def test_second_person_confirmation_accepts_another_person() -> None:
    history = [*uncovered_round(second_person=True), entered((4, 4, 1))]
    assert when(history, confirm(by=DEALER_2)) == [confirmed((4, 4, 1), by=DEALER_2)]


def test_without_second_person_confirmation_the_entrant_confirms() -> None:
    history = [*uncovered_round(second_person=False), entered((4, 4, 1))]
    assert when(history, confirm(by=DEALER)) == [confirmed((4, 4, 1))]


def test_a_reading_that_agrees_as_a_multiset_confirms() -> None:
    """The order the reader lists the dice in means nothing: results are multisets."""
    history = [*uncovered_round(), dice_read((3, 6, 3)), entered((6, 3, 3))]
    assert when(history, confirm()) == [confirmed((6, 3, 3))]


def test_confirmation_is_allowed_while_the_table_is_suspended_000_7_6() -> None:
    """000 §7.6: wagers are settled by the dice even when the lamps fail."""
    history = [*uncovered_round(), suspended(), entered((2, 5, 6))]
    assert given(history).suspended
    assert when(history, confirm()) == [confirmed((2, 5, 6))]


def test_a_held_result_cannot_be_confirmed_by_the_dealer() -> None:
    history = [
        *uncovered_round(),
        dice_read((1, 2, 3)),
        entered((1, 2, 4)),
        held((1, 2, 4), (1, 2, 3)),
    ]
    refused(history, confirm(by=DEALER_2), "held")
