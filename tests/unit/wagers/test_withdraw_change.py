"""WithdrawSlip / ChangeSlip: by the slip's player or a dealer, only before "no more bets"
(000 §3.9), never after a withdrawal; a change is checked like a new slip."""

import pytest

from sicbo_contracts.wagers import Wager
from tests.support.common import BOB, DEALER, INSPECTOR
from tests.support.lifecycle import betting_closed
from tests.support.wagers import (
    betting,
    change,
    changed,
    chips,
    color,
    issued,
    placed,
    refused,
    when,
    withdraw,
    withdrawn,
)


def test_the_player_withdraws_their_slip_before_no_more_bets() -> None:
    history = [*betting(), placed("s-1", [chips("big", 200)])]
    assert when(history, withdraw()) == [withdrawn("s-1", [chips("big", 200)])]


def test_a_dealer_withdraws_a_slip_for_its_player() -> None:
    history = [*betting(), placed()]
    assert when(history, withdraw(by=DEALER))[0].actor == DEALER


def test_withdrawing_someone_elses_slip_is_forbidden() -> None:
    history = [*betting(), placed("s-1")]
    # Bob names himself: the slip is Alice's.
    refused(history, withdraw(by=BOB, player="bob"), "'alice''s", code="forbidden")
    # Bob names Alice: he may not act for her.
    refused(history, withdraw(by=BOB, player="alice"), "may not act for", code="forbidden")


def test_an_inspector_cannot_withdraw() -> None:
    refused([*betting(), placed()], withdraw(by=INSPECTOR), code="forbidden")


def test_withdraw_after_no_more_bets_000_3_9() -> None:
    history = [*betting(), placed(), betting_closed(1)]
    refused(history, withdraw(), "betting is closed", "000 §3.9")


def test_withdraw_twice() -> None:
    history = [*betting(), placed(), *when([*betting(), placed()], withdraw())]
    refused(history, withdraw(command_id="w-2"), "slip_id:", "withdrawn")


def test_withdraw_an_unknown_slip() -> None:
    unknown = refused(betting(), withdraw("nope"), "slip_id:", "no slip 'nope'")
    assert unknown.key == "slip.unknown"  # the pages write it in their reader's language


def test_a_slip_gone_or_another_players_has_its_message_key() -> None:
    history = [*betting(), placed(), *when([*betting(), placed()], withdraw())]
    assert refused(history, withdraw(command_id="w-2"), "withdrawn").key == "slip.gone"
    others = refused([*betting(), placed("s-1")], withdraw(by=BOB, player="bob"), code="forbidden")
    assert others.key == "wager.not-yours"


def test_withdraw_naming_another_round() -> None:
    refused([*betting(), placed()], withdraw(round_no=2), "round:", "stands in round 1")


def test_the_player_changes_their_slip_before() -> None:
    history = [*betting(), placed("s-1", [chips("big", 200)])]
    after = [chips("small", 300), chips("total:10", 100)]
    assert when(history, change(after)) == [changed("s-1", [chips("big", 200)], after)]


@pytest.mark.parametrize(
    ("wagers", "words"),
    [
        ([chips("big"), chips("odd")], ["wagers[1].bet:", "not offered"]),
        ([chips("big", 50)], ["wagers[0].stake:", "below the table minimum"]),
        ([chips("big", 20_000)], ["wagers[0].stake:", "above the table maximum"]),
        ([chips("big", 155)], ["wagers[0].stake:", "units of 10"]),
        ([color("big", 500, "blue")], ["wagers[0].color:", "issued to bob", "000 §3.6"]),
        ([chips("big")], ["already stands so"]),
        ([], ["at least one"]),
    ],
)
def test_a_change_is_checked_like_a_new_slip(wagers: list[Wager], words: list[str]) -> None:
    history = [*betting(), issued("bob", "blue", 100), placed("s-1", [chips("big")])]
    refused(history, change(wagers), *words)


def test_change_after_no_more_bets_or_after_withdrawal() -> None:
    closed = [*betting(), placed(), betting_closed(1)]
    refused(closed, change([chips("small")]), "betting is closed", "000 §3.9")
    gone = [*betting(), placed(), *when([*betting(), placed()], withdraw())]
    refused(gone, change([chips("small")]), "withdrawn")


def test_changing_someone_elses_slip_is_forbidden() -> None:
    history = [*betting(), placed("s-1")]
    refused(history, change([chips("small")], by=BOB, player="bob"), code="forbidden")
