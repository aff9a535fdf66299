"""EnterDice: the dealer or supervisor presses three buttons once the dice can be read
(000 §2.6, §5.3-5.4)."""

import pytest

from sicbo.dice.state import Phase
from sicbo_contracts.base import Actor
from tests.support.common import DEALER, INSPECTOR, OPERATOR, PLAYER, READER, SUPERVISOR
from tests.support.dice import (
    confirmed,
    enter,
    entered,
    given,
    next_round,
    refused,
    round_until_betting_closed,
    uncovered_round,
    when,
)
from tests.support.lifecycle import (
    cancelled,
    completed,
    invalidated,
    no_result,
    suspended,
    table_opened,
)


def test_entry_echoes_the_dice_as_pressed_and_announces_them_lowest_to_highest_000_5_3() -> None:
    """000 §5.3: "from the lowest number to the highest and the total"; 000 §5.4: the three
    buttons pressed are echoed back as pressed, for the dealer to check."""
    [event] = when(uncovered_round(), enter((6, 1, 4)))
    assert event == entered((6, 1, 4))
    assert event.dice == (6, 1, 4)
    assert event.announced == (1, 4, 6)
    assert event.total == 11


@pytest.mark.parametrize("actor", [DEALER, SUPERVISOR], ids=lambda a: a.role.value)
def test_a_dealer_or_the_supervisor_enters_the_result_000_5_4(actor: Actor) -> None:
    """000 §5.4: "A dealer or the game supervisor shall enter the result"."""
    assert when(uncovered_round(), enter((2, 2, 5), by=actor)) == [entered((2, 2, 5), by=actor)]


@pytest.mark.parametrize("actor", [PLAYER, INSPECTOR, READER, OPERATOR], ids=lambda a: a.role.value)
def test_no_one_else_may_enter_dice_000_5_4(actor: Actor) -> None:
    """000 §5.4 names only a dealer or the game supervisor (DESIGN.md "Roles")."""
    refused(uncovered_round(), enter((1, 2, 3), by=actor), "000 §5.4", code="forbidden")


def test_entry_before_the_uncover_is_refused_000_5_2_to_5_4() -> None:
    """000 §5.2-5.3: "no more bets", then uncover, then the result is announced and entered."""
    refused(
        round_until_betting_closed(),
        enter((1, 2, 3)),
        "not uncovered",
        Phase.BETTING_CLOSED.value,
        code="refused",
    )


def test_entry_after_no_result_is_refused_000_7_5() -> None:
    """000 §7.1, §7.5: dice not flat, "no result": all wagers void, there is no result."""
    refused(
        [*uncovered_round(), no_result()], enter((1, 2, 3)), "no result was declared", "000 §7.5"
    )


def test_entry_after_invalidation_is_refused_000_8_4() -> None:
    """000 §8.4-8.5: an invalidated outcome is refunded, not settled on any dice."""
    refused([*uncovered_round(), invalidated()], enter((1, 2, 3)), "invalidated")


def test_entry_after_cancellation_is_refused_004() -> None:
    """004 "Ralat Pengendalian": a cancelled round refunds every wager."""
    refused([*uncovered_round(), cancelled()], enter((1, 2, 3)), "cancelled")


def test_a_second_entry_is_refused_000_5_4() -> None:
    """One entry per round: a second press would silently replace the echoed dice."""
    refused(
        [*uncovered_round(), entered((1, 2, 3))],
        enter((4, 5, 6)),
        "already entered, confirm it or have a supervisor correct it",
    )


def test_a_second_entry_after_confirmation_is_refused_too_000_5_4() -> None:
    history = [*uncovered_round(), entered((1, 2, 3)), confirmed((1, 2, 3))]
    refused(history, enter((1, 2, 3)), "already entered")


def test_entry_for_another_round_than_the_current_one_is_refused() -> None:
    """Only the round named by the latest RoundStarted is captured."""
    refused(
        uncovered_round(2), enter((1, 2, 3), 1), "round 1 is not the current round", "round 2 is"
    )


def test_entry_for_a_round_not_yet_started_is_refused() -> None:
    refused(uncovered_round(1), enter((1, 2, 3), 2), "not the current round")


def test_entry_before_any_round_is_refused() -> None:
    refused([table_opened()], enter((1, 2, 3)), "no round has started")


def test_entry_for_a_completed_round_is_refused_002_art_4() -> None:
    """Defensive: a completed round was settled; the lifecycle never completes a round with
    no result unless it was void, but the refusal must stay clear if it did."""
    refused([*uncovered_round(), completed()], enter((1, 2, 3)), "already completed")


def test_entry_in_the_next_round_is_allowed_after_the_previous_one_had_a_result() -> None:
    history = [
        *uncovered_round(1),
        entered((1, 2, 3)),
        confirmed((1, 2, 3)),
        completed(1),
        *next_round(2),
    ]
    assert when(history, enter((6, 6, 6), 2)) == [entered((6, 6, 6), 2)]


def test_entry_is_allowed_while_the_table_is_suspended_000_7_6() -> None:
    """000 §7.6: if the layout is not lit, or lit wrongly, wagers are still "paid according
    to the result shown on the dice": the result must still be captured."""
    history = [*uncovered_round(), suspended()]
    assert given(history).suspended
    assert when(history, enter((3, 1, 2))) == [entered((3, 1, 2))]


def test_a_die_outside_1_to_6_is_refused_000_2_5() -> None:
    """Contracts reject such a die on decoding; a command built in code is refused too."""
    refused(uncovered_round(), enter((1, 2, 7)), "000 §2.5")
