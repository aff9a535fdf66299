"""Colour checks: issued by the dealer, one colour per player unless they agree (000 §3.6),
one value per player (000 §3.7-3.8), redeemed at the issuing table or, once it is closed, at
the cage (000 §3.5); never more redeemed than issued."""

import pytest

from sicbo_contracts.base import Actor
from sicbo_contracts.wagers import (
    ColorChecksIssued,
    ColorChecksRedeemed,
    IssueColorChecks,
    RedeemColorChecks,
)
from tests.unit.wagers.builders import (
    ALICE,
    AT,
    DEALER,
    INSPECTOR,
    OPERATOR,
    SUPERVISOR,
    TABLE,
    betting,
    colour,
    given,
    issued,
    place,
    placed,
    refused,
    table_closed,
    table_opened,
    when,
)


def issue(
    player: str = "alice",
    color: str = "red",
    value: int = 250,
    count: int = 20,
    *,
    actor: Actor = DEALER,
    shared: bool = False,
) -> IssueColorChecks:
    return IssueColorChecks(
        command_id="i-1",
        table=TABLE,
        actor=actor,
        player=player,
        color=color,
        marker_value=value,
        count=count,
        shared_with_consent=shared,
    )


def redeem(
    count: int, player: str = "alice", color: str = "red", *, actor: Actor = DEALER
) -> RedeemColorChecks:
    return RedeemColorChecks(
        command_id="r-1", table=TABLE, actor=actor, player=player, color=color, count=count
    )


def test_the_dealer_issues_colour_checks_000_3_7() -> None:
    assert when(given(table_opened()), issue()) == [
        ColorChecksIssued(
            table=TABLE,
            actor=DEALER,
            at=AT,
            player="alice",
            color="red",
            marker_value=250,
            count=20,
        )
    ]


@pytest.mark.parametrize("who", [ALICE, INSPECTOR, OPERATOR, SUPERVISOR])
def test_only_the_dealer_issues(who: Actor) -> None:
    refused(given(table_opened()), issue(actor=who), "only a dealer", code="forbidden")


def test_not_at_a_closed_table() -> None:
    refused(given(table_opened(), table_closed()), issue(), "not open")


def test_a_colour_of_another_player_needs_consent_000_3_6() -> None:
    state = given(table_opened(), issued("bob", "red", 250))
    refused(state, issue("alice", "red"), "color:", "bob", "000 §3.6", "shared_with_consent")
    assert when(state, issue("alice", "red", shared=True))[0].shared_with_consent


def test_more_checks_of_the_same_colour_for_the_same_player() -> None:
    state = given(table_opened(), issued("alice", "red", 250))
    assert when(state, issue("alice", "red", 250, 5))
    refused(state, issue("alice", "red", 500), "marker_value:", "valued 250", "000 §3.7")


def test_several_colours_for_one_player_share_one_value_000_3_8() -> None:
    state = given(table_opened(), issued("alice", "red", 250))
    assert when(state, issue("alice", "blue", 250))
    refused(state, issue("alice", "blue", 500), "marker_value:", "'red'", "000 §3.8")


def test_redeem_at_the_issuing_table() -> None:
    state = given(table_opened(), issued("alice", "red", 250, 20))
    assert when(state, redeem(8)) == [
        ColorChecksRedeemed(
            table=TABLE,
            actor=DEALER,
            at=AT,
            player="alice",
            color="red",
            count=8,
            value=2_000,
        )
    ]


def test_redeem_more_than_issued() -> None:
    state = given(table_opened(), issued("alice", "red", 250, 20), issued("alice", "red", 250, 5))
    assert when(state, redeem(25))
    refused(state, redeem(26), "count:", "holds 25", "not tracked")


def test_redeem_a_colour_never_issued_here_000_3_5() -> None:
    refused(given(table_opened()), redeem(1), "color:", "000 §3.5")
    refused(given(table_opened(), issued("bob", "red", 250)), redeem(1), "color:")


def test_a_closed_tables_checks_are_redeemed_at_the_cage_000_3_5() -> None:
    state = given(table_opened(), issued("alice", "red", 250, 20), table_closed())
    events = when(state, redeem(20, actor=OPERATOR))
    assert events[0].table_closed and events[0].value == 5_000
    refused(state, redeem(20, actor=DEALER), "closed", "cage", code="forbidden")


def test_the_cage_does_not_redeem_an_open_tables_checks_000_3_5() -> None:
    state = given(table_opened(), issued("alice", "red", 250, 20))
    refused(state, redeem(20, actor=OPERATOR), "open", "000 §3.5", code="forbidden")


@pytest.mark.parametrize("who", [ALICE, INSPECTOR])
def test_players_and_inspectors_do_not_redeem(who: Actor) -> None:
    state = given(table_opened(), issued("alice", "red", 250, 20))
    refused(state, redeem(1, actor=who), code="forbidden")


def test_a_colour_fully_redeemed_is_free_for_another_player() -> None:
    redeemed = ColorChecksRedeemed(
        table=TABLE, actor=DEALER, at=AT, player="bob", color="red", count=20, value=5_000
    )
    state = given(betting(), issued("bob", "red", 250, 20), redeemed)
    assert when(state, issue("alice", "red", 100))
    # ... and Bob no longer wagers with it.
    refused(
        state,
        place(actor=DEALER, player="bob", wagers=[colour("red", 250)]),
        "wagers[0].color:",
        "not issued to 'bob'",
    )


def test_a_slip_with_the_players_colour_is_placed() -> None:
    state = given(betting(), issued("alice", "red", 250))
    assert when(state, place(wagers=[colour("red", 750)])) == [placed(wagers=[colour("red", 750)])]
