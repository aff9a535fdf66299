"""Colour checks: issued by the dealer, one colour per player unless they agree (000 §3.6),
one value per player (000 §3.7-3.8), redeemed at the issuing table or, once it is closed, at
the cage (000 §3.5); never more redeemed than the player holds. A second colour:
test_second_colour.py; what a player holds: test_colour_holdings.py."""

import pytest

from sicbo_contracts.base import Actor
from tests.support.common import ALICE, DEALER, INSPECTOR, OPERATOR, SUPERVISOR
from tests.support.lifecycle import table_closed, table_opened
from tests.support.wagers import (
    LIMITS,
    betting,
    color,
    issue,
    issued,
    place,
    placed,
    redeem,
    redeemed,
    refused,
    when,
)


def test_the_dealer_issues_colour_checks_000_3_7() -> None:
    assert when(table_opened(limits=LIMITS), issue()) == [issued("alice", "red", 250, 20)]


@pytest.mark.parametrize("who", [ALICE, INSPECTOR, OPERATOR])
def test_only_the_dealer_issues(who: Actor) -> None:
    refused(
        table_opened(limits=LIMITS), issue(by=who), "only a dealer or supervisor", code="forbidden"
    )


def test_a_players_first_colour_is_the_dealers_not_a_supervisors_000_3_7() -> None:
    refused(
        table_opened(limits=LIMITS),
        issue(by=SUPERVISOR),
        "first colour",
        "000 §3.7",
        code="forbidden",
    )


def test_not_at_a_closed_table() -> None:
    refused([table_opened(limits=LIMITS), table_closed()], issue(), "not open")


def test_a_colour_of_another_player_needs_consent_000_3_6() -> None:
    history = [table_opened(limits=LIMITS), issued("bob", "red", 250)]
    refused(history, issue("alice", "red"), "color:", "bob", "000 §3.6", "shared_with_consent")
    assert when(history, issue("alice", "red", shared=True))[0].shared_with_consent


def test_more_checks_of_the_same_colour_for_the_same_player() -> None:
    history = [table_opened(limits=LIMITS), issued("alice", "red", 250)]
    assert when(history, issue("alice", "red", 250, 5))
    refused(history, issue("alice", "red", 500), "marker_value:", "valued 250", "000 §3.7")


def test_several_colours_for_one_player_share_one_value_000_3_8() -> None:
    history = [table_opened(limits=LIMITS, check_colors=10), issued("alice", "red", 250)]
    assert when(history, issue("alice", "blue", 250, by=SUPERVISOR))
    refused(
        history, issue("alice", "blue", 500, by=SUPERVISOR), "marker_value:", "'red'", "000 §3.8"
    )


def test_redeem_at_the_issuing_table() -> None:
    history = [table_opened(limits=LIMITS), issued("alice", "red", 250, 20)]
    assert when(history, redeem(8)) == [redeemed("alice", "red", 8, 2_000)]


def test_redeem_more_than_issued() -> None:
    history = [
        table_opened(limits=LIMITS),
        issued("alice", "red", 250, 20),
        issued("alice", "red", 250, 5),
    ]
    assert when(history, redeem(25))
    refused(history, redeem(26), "count:", "holds 25", "at stake or lost")


def test_redeem_a_colour_never_issued_here_000_3_5() -> None:
    refused(table_opened(limits=LIMITS), redeem(1), "color:", "000 §3.5")
    refused([table_opened(limits=LIMITS), issued("bob", "red", 250)], redeem(1), "color:")


def test_a_closed_tables_checks_are_redeemed_at_the_cage_000_3_5() -> None:
    history = [table_opened(limits=LIMITS), issued("alice", "red", 250, 20), table_closed()]
    events = when(history, redeem(20, by=OPERATOR))
    assert events[0].table_closed and events[0].value == 5_000
    refused(history, redeem(20, by=DEALER), "closed", "cage", code="forbidden")


def test_the_cage_does_not_redeem_an_open_tables_checks_000_3_5() -> None:
    history = [table_opened(limits=LIMITS), issued("alice", "red", 250, 20)]
    refused(history, redeem(20, by=OPERATOR), "open", "000 §3.5", code="forbidden")


@pytest.mark.parametrize("who", [ALICE, INSPECTOR])
def test_players_and_inspectors_do_not_redeem(who: Actor) -> None:
    history = [table_opened(limits=LIMITS), issued("alice", "red", 250, 20)]
    refused(history, redeem(1, by=who), code="forbidden")


def test_a_colour_fully_redeemed_is_free_for_another_player() -> None:
    history = [*betting(), issued("bob", "red", 250, 20), redeemed("bob", "red", 20, 5_000)]
    assert when(history, issue("alice", "red", 100))
    # ... and Bob no longer wagers with it.
    refused(
        history,
        place(by=DEALER, player="bob", wagers=[color("big", 250, "red")]),
        "wagers[0].color:",
        "not issued to 'bob'",
    )


def test_a_slip_with_the_players_colour_is_placed() -> None:
    history = [*betting(), issued("alice", "red", 250)]
    assert when(history, place(wagers=[color("big", 750, "red")])) == [
        placed(wagers=[color("big", 750, "red")])
    ]
