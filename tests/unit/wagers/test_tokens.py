"""Promotional tokens (000 §1.1): issued by the casino operator with an id and a face amount
for one player's one free wager; staked at that amount, once; forfeited after a valid result,
returned by a void round and then free to wager again (docs/rules.md "Promotional tokens")."""

import pytest

from sicbo_contracts.base import Actor
from sicbo_contracts.settlement import WagerOutcome
from sicbo_contracts.wagers import Medium, Wager
from tests.support.common import ALICE, DEALER, INSPECTOR, SUPERVISOR
from tests.support.lifecycle import betting_closed, table_opened
from tests.support.media import issue_token, result, settled, token_issued, voided
from tests.support.wagers import (
    LIMITS,
    betting,
    change,
    chips,
    issued,
    next_round,
    place,
    placed,
    promo,
    refused,
    when,
    withdraw,
)

TOKEN = promo("big", 100, "tk-1")


def _with_token() -> list[object]:
    return [*betting(), token_issued("tk-1", "alice", 100)]


def _round_1_settled(outcome: WagerOutcome) -> list[object]:
    """The token staked in round 1, settled ``outcome``; round 2 takes wagers."""
    return [
        *_with_token(),
        placed("s-1", [TOKEN]),
        betting_closed(1),
        settled(1, result(TOKEN, outcome, winnings=100 if outcome is WagerOutcome.WIN else 0)),
        *next_round(2),
    ]


# ---- issuance ------------------------------------------------------------------------------------


def test_the_casino_operator_issues_a_token_with_an_id_and_a_face_amount_000_1_1() -> None:
    assert when(table_opened(limits=LIMITS), issue_token("tk-1", "alice", 200)) == [
        token_issued("tk-1", "alice", 200)
    ]


@pytest.mark.parametrize("who", [ALICE, DEALER, SUPERVISOR, INSPECTOR])
def test_only_the_operator_issues_tokens_000_1_1(who: Actor) -> None:
    refused(betting(), issue_token(by=who), "only an operator", "000 §1.1", code="forbidden")


def test_a_token_id_names_one_token_000_1_1() -> None:
    refused(_with_token(), issue_token("tk-1", "bob"), "token:", "already issued", "alice")


# ---- intake --------------------------------------------------------------------------------------


def test_a_promo_wager_names_its_token_000_1_1() -> None:
    refused(_with_token(), place(wagers=[promo("big", 100)]), "wagers[0].token:", "names the token")


def test_an_unknown_token_is_refused_000_1_1() -> None:
    refused(
        _with_token(),
        place(wagers=[chips(), promo("big", 100, "tk-9")]),
        "wagers[1].token:",
        "no promotional token 'tk-9'",
        "000 §1.1",
    )


def test_another_players_token_is_refused_000_1_1() -> None:
    history = [*betting(), token_issued("tk-1", "bob", 100)]
    refused(history, place(wagers=[TOKEN]), "wagers[0].token:", "issued to 'bob'", "000 §1.1")


def test_a_token_stakes_its_face_amount_000_1_1() -> None:
    refused(
        _with_token(),
        place(wagers=[promo("big", 200, "tk-1")]),
        "wagers[0].stake:",
        "face amount 100",
        "000 §1.1",
    )


def test_a_token_on_another_standing_slip_is_refused_000_1_1() -> None:
    history = [*_with_token(), placed("s-1", [TOKEN])]
    refused(history, place("s-2", [TOKEN]), "wagers[0].token:", "already stands on slip 's-1'")


def test_a_token_twice_on_one_slip_is_refused_000_1_1() -> None:
    wagers = [TOKEN, promo("small", 100, "tk-1")]
    refused(_with_token(), place(wagers=wagers), "wagers[1].token:", "twice", "wagers[0]")


@pytest.mark.parametrize("medium", [Medium.CHIPS, Medium.COLOR])
def test_only_a_promo_wager_names_a_token_000_1_1(medium: Medium) -> None:
    color = "red" if medium is Medium.COLOR else None
    wager = Wager(bet="big", stake=100, medium=medium, color=color, token="tk-1")
    history = [*_with_token(), issued("alice", "red", 100)]
    refused(history, place(wagers=[wager]), "wagers[0].token:", "000 §1.1")


# ---- one use -------------------------------------------------------------------------------------


@pytest.mark.parametrize("outcome", [WagerOutcome.WIN, WagerOutcome.LOSE, WagerOutcome.FORFEIT])
def test_a_token_is_forfeited_after_a_valid_result_win_or_lose_000_1_1(
    outcome: WagerOutcome,
) -> None:
    refused(
        _round_1_settled(outcome),
        place("s-2", [TOKEN], round_no=2),
        "wagers[0].token:",
        "is used",
        "000 §1.1",
    )


def test_a_void_round_returns_the_token_for_another_wager_000_1_1_7_5() -> None:
    assert when(_round_1_settled(WagerOutcome.VOID), place("s-2", [TOKEN], round_no=2))


def test_a_carried_token_stays_on_its_slip_002_2003_art_3() -> None:
    refused(
        _round_1_settled(WagerOutcome.CARRIED),
        place("s-2", [TOKEN], round_no=2),
        "already stands on slip 's-1'",
    )


def test_a_round_cancelled_after_its_result_returns_the_token_004() -> None:
    lost = result(TOKEN, WagerOutcome.LOSE)
    history = [*_round_1_settled(WagerOutcome.LOSE), voided(1, lost)]
    assert when(history, place("s-2", [TOKEN], round_no=2))


def test_a_withdrawn_or_changed_slip_returns_the_token_000_3_9() -> None:
    history = [*_with_token(), placed("s-1", [TOKEN])]
    gone = [*history, *when(history, withdraw("s-1"))]
    assert when(gone, place("s-2", [TOKEN]))
    away = [*history, *when(history, change([chips("small")], slip="s-1"))]
    assert when(away, place("s-2", [TOKEN]))


def test_a_slip_changed_keeps_its_own_token_000_3_9() -> None:
    history = [*_with_token(), placed("s-1", [TOKEN])]
    assert when(history, change([promo("small", 100, "tk-1")], slip="s-1"))
