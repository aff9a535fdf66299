"""Wager intake under a supervisor's powers of 000 §8.3: an excluded player's slips are refused
naming the clause and ``$.player`` (§8.3.2) until the exclusion is lifted; a player whose
wagers in the round are declared void wagers no more in it (§8.3.1), and their slips are not
carried into a re-run after "no result"."""

import pytest

from sicbo.wagers.state import StandingWager, wagers_of_round
from sicbo_contracts.base import Actor
from sicbo_contracts.wagers import CarriedChoice, SlipPlaced
from tests.support.common import ALICE, BOB, DEALER, Fact
from tests.support.lifecycle import (
    betting_closed,
    completed,
    excluded,
    exclusion_lifted,
    no_result,
    wagers_voided,
)
from tests.support.wagers import (
    betting,
    change,
    chips,
    choose,
    chosen,
    given,
    next_round,
    place,
    placed,
    refused,
    when,
    withdraw,
    withdrawn,
)

BIG = [chips("big", 200)]
SMALL = [chips("small", 300)]


def carried(*facts: Fact) -> list[Fact]:
    """macau-2004: alice's slip s-1 carried into the re-run, round 2, at her choice
    (002/2004 art. 3(4)); ``facts`` happen in the re-run."""
    return [
        *betting("macau-2004"),
        placed("s-1", BIG),
        betting_closed(1),
        no_result(1, "player-choice"),
        completed(1),
        *next_round(2, "macau-2004"),
        *facts,
    ]


# ---- 000 §8.3.2 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("by", [ALICE, DEALER], ids=["herself", "a-dealer-for-her"])
def test_000_8_3_2_an_excluded_players_slip_is_refused(by: Actor) -> None:
    history = [*betting(), excluded("alice")]
    error = refused(history, place(by=by), "player:", "excluded", "000 §8.3.2", "place a slip")
    assert error.field == "$.player"
    assert when(history, place("s-2", by=BOB, player="bob"))  # bob plays on


def test_000_8_3_2_an_excluded_player_changes_no_slip_but_may_withdraw_it() -> None:
    history = [*betting(), placed("s-1", BIG), excluded("alice")]
    error = refused(history, change(SMALL), "excluded", "000 §8.3.2", "change a slip")
    assert error.field == "$.player"
    assert when(history, withdraw()) == [withdrawn("s-1", BIG)]


@pytest.mark.parametrize("choice", [CarriedChoice.KEEP, CarriedChoice.CHANGE])
def test_000_8_3_2_an_excluded_player_keeps_or_changes_no_carried_slip(
    choice: CarriedChoice,
) -> None:
    wagers = SMALL if choice is CarriedChoice.CHANGE else []
    error = refused(carried(excluded("alice")), choose(choice, wagers), "excluded", "000 §8.3.2")
    assert error.field == "$.player"


def test_000_8_3_2_an_excluded_player_may_cancel_a_carried_slip() -> None:
    assert when(carried(excluded("alice")), choose(CarriedChoice.CANCEL)) == [
        chosen("s-1", CarriedChoice.CANCEL, BIG, [])
    ]


def test_000_8_3_2_lifting_the_exclusion_lets_the_player_wager_again() -> None:
    history = [*betting(), excluded("alice"), exclusion_lifted("alice")]
    [slip] = when(history, place())
    assert isinstance(slip, SlipPlaced) and slip.player == "alice"


def test_000_8_3_2_an_exclusion_outlives_a_new_round() -> None:
    history = [*betting(), excluded("alice"), betting_closed(1), completed(1), *next_round(2)]
    refused(history, place(round_no=2), "excluded", "000 §8.3.2")


# ---- 000 §8.3.1 ----------------------------------------------------------------------------------


def test_000_8_3_1_a_voided_player_wagers_no_more_in_that_round() -> None:
    history = [*betting(), placed("s-1", BIG), wagers_voided(1, "alice")]
    error = refused(history, place("s-2"), "declared void", "000 §8.3.1", "round 1")
    assert error.field == "$.player"
    refused(history, change(SMALL), "declared void", "000 §8.3.1")
    assert when(history, withdraw()) == [withdrawn("s-1", BIG)]


def test_000_8_3_1_a_voided_player_wagers_again_in_the_next_round() -> None:
    history = [*betting(), wagers_voided(1, "alice"), betting_closed(1), completed(1)]
    [slip] = when([*history, *next_round(2)], place(round_no=2))
    assert isinstance(slip, SlipPlaced) and slip.round == 2


@pytest.mark.parametrize(
    ("profile", "consequence"),
    [("macau-2003", "carry-over-locked"), ("macau-2004", "player-choice")],
)
def test_000_8_3_1_voided_slips_are_not_carried_into_the_rerun(
    profile: str, consequence: str
) -> None:
    """They are settled void in the void round (settlement) and never paid again."""
    history = [
        *betting(profile),
        placed("s-1", BIG),
        placed("s-2", SMALL, by=BOB, player="bob"),
        wagers_voided(1, "alice"),
        betting_closed(1),
        no_result(1, consequence),
        completed(1),
        *next_round(2, profile),
    ]
    state = given(history)
    assert [w.player for w in wagers_of_round(state, 1)] == ["alice", "bob"]
    assert wagers_of_round(state, 2) == [StandingWager("s-2", "bob", 0, SMALL[0], True)]
