"""ReadDice, ResultHeld and ResolveHeldResult: the automatic reader is a second source for
the result; when it and the entry disagree the round waits for a supervisor."""

import pytest

from sicbo_contracts.base import Actor
from tests.support.common import DEALER, DEALER_2, PLAYER, SUPERVISOR, SUPERVISOR_2
from tests.support.dice import (
    confirm,
    confirmed,
    current,
    dice_read,
    entered,
    held,
    read,
    refused,
    resolve,
    round_until_betting_closed,
    uncovered_round,
    when,
)
from tests.support.lifecycle import no_result


def test_the_reader_records_its_reading_after_the_uncover() -> None:
    assert when(uncovered_round(), read((6, 5, 4))) == [dice_read((6, 5, 4))]


@pytest.mark.parametrize("actor", [DEALER, SUPERVISOR, PLAYER], ids=lambda a: a.role.value)
def test_only_a_service_account_reads_dice(actor: Actor) -> None:
    """DESIGN.md "Roles": the automatic reader is a service account; people enter dice."""
    refused(uncovered_round(), read((6, 5, 4), by=actor), code="forbidden")


def test_a_reading_before_the_uncover_is_refused_000_5_2() -> None:
    refused(round_until_betting_closed(), read((1, 2, 3)), "not uncovered")


def test_a_reading_of_a_round_with_no_result_is_refused_000_7_5() -> None:
    refused([*uncovered_round(), no_result()], read((1, 2, 3)), "no result")


def test_one_reading_per_round() -> None:
    refused([*uncovered_round(), dice_read((1, 2, 3))], read((1, 2, 3)), "already read as 1-2-3")


def test_a_reading_after_an_unconfirmed_entry_is_only_recorded() -> None:
    """The comparison happens at confirmation, not at the reading."""
    history = [*uncovered_round(), entered((1, 2, 3))]
    assert when(history, read((1, 2, 4))) == [dice_read((1, 2, 4))]


def test_a_disagreeing_reading_after_confirmation_is_only_recorded() -> None:
    """Settlement may already run on the confirmed result: nothing is held after the fact;
    a supervisor may correct the result (GLI-19 §4.18.4)."""
    history = [*uncovered_round(), entered((1, 2, 3)), confirmed((1, 2, 3))]
    assert when(history, read((1, 2, 4))) == [dice_read((1, 2, 4))]
    assert current([*history, dice_read((1, 2, 4))]).result == (1, 2, 3)


def test_reader_disagreement_holds_the_round_and_a_supervisor_resolves_it() -> None:
    """Entry and reading differ as multisets: ResultHeld instead of ResultConfirmed; then only
    a supervisor decides, with their own dice and a reason."""
    history = [*uncovered_round(), dice_read((2, 2, 6)), entered((2, 6, 6))]
    assert when(history, confirm()) == [held((2, 6, 6), (2, 2, 6))]

    history.append(held((2, 6, 6), (2, 2, 6)))
    assert current(history).held and not current(history).confirmed

    decision = when(history, resolve((6, 2, 2), "camera shows 2-2-6"))
    assert decision == [
        confirmed((2, 2, 6), by=SUPERVISOR, entered_by=SUPERVISOR, reason="camera shows 2-2-6")
    ]
    after = current([*history, *decision])
    assert after.result == (2, 2, 6) and not after.held


def test_a_dealer_cannot_resolve_a_held_result() -> None:
    history = [
        *uncovered_round(),
        dice_read((2, 2, 6)),
        entered((2, 6, 6)),
        held((2, 6, 6), (2, 2, 6)),
    ]
    refused(history, resolve((2, 2, 6), "looks so", by=DEALER), code="forbidden")


def test_resolving_when_nothing_is_held_is_refused() -> None:
    history = [*uncovered_round(), entered((2, 6, 6))]
    refused(history, resolve((2, 6, 6), "ok"), "no held result")


def test_with_second_person_confirmation_the_entrant_cannot_resolve_their_own_hold() -> None:
    """The supervisor who entered the dice is not a second person for them."""
    history = [
        *uncovered_round(second_person=True),
        dice_read((1, 1, 1)),
        entered((1, 1, 2), by=SUPERVISOR),
        held((1, 1, 2), (1, 1, 1), by=DEALER_2),
    ]
    refused(history, resolve((1, 1, 2), "mine"), "second person")
    assert when(history, resolve((1, 1, 2), "checked", by=SUPERVISOR_2)) == [
        confirmed((1, 1, 2), by=SUPERVISOR_2, entered_by=SUPERVISOR_2, reason="checked")
    ]


def test_the_reading_may_come_first_and_then_the_entry_is_compared_at_confirmation() -> None:
    history = [*uncovered_round(), dice_read((3, 4, 5)), entered((5, 4, 3))]
    assert when(history, confirm()) == [confirmed((3, 4, 5))]
