"""A player stakes only the colour checks they hold at this table (000 §3.4, §3.7): issued,
less those redeemed, at stake on the layout or lost, plus those won - as settlement paid them
(docs/rules.md "Colour checks")."""

from sicbo_contracts.settlement import WagerOutcome
from tests.support.common import DEALER
from tests.support.lifecycle import betting_closed
from tests.support.media import adjusted, result, settled
from tests.support.wagers import (
    betting,
    change,
    color,
    issue,
    issued,
    next_round,
    place,
    placed,
    redeem,
    refused,
    when,
    withdraw,
)

RED3 = color("big", 300, "red")  # three checks of 100


def _holding_five() -> list[object]:
    return [*betting(), issued("alice", "red", 100, 5)]


def _round_1_settled(outcome: WagerOutcome, winnings: int = 0) -> list[object]:
    """Alice stakes three of her five checks in round 1, settled ``outcome``; round 2 bets."""
    return [
        *_holding_five(),
        placed("s-1", [RED3]),
        betting_closed(1),
        settled(1, result(RED3, outcome, winnings=winnings)),
        *next_round(2),
    ]


def test_a_slip_stakes_no_more_checks_than_the_player_holds_000_3_7() -> None:
    history = _holding_five()
    assert when(history, place(wagers=[RED3, color("small", 200, "red")]))
    refused(
        history,
        place(wagers=[RED3, color("small", 300, "red")]),
        "wagers[1].stake:",
        "alice holds 5 'red' checks",
        "stakes 6",
        "000 §3.4, §3.7",
    )


def test_checks_at_stake_are_not_in_hand_000_3_7() -> None:
    history = [*_holding_five(), placed("s-1", [RED3])]
    refused(history, place("s-2", [RED3]), "wagers[0].stake:", "holds 2")
    refused(history, redeem(3), "count:", "holds 2")
    assert when(history, redeem(2))


def test_a_withdrawn_slip_gives_its_checks_back_000_3_9() -> None:
    history = [*_holding_five(), placed("s-1", [RED3])]
    history += when(history, withdraw("s-1"))
    assert when(history, place("s-2", [color("big", 500, "red")]))


def test_a_change_counts_the_slips_own_checks_000_3_9() -> None:
    history = [*_holding_five(), placed("s-1", [color("big", 500, "red")])]
    assert when(history, change([color("small", 500, "red")], slip="s-1"))
    refused(history, change([color("small", 600, "red")], slip="s-1"), "and 5 on the slip")


def test_lost_checks_are_gone_after_the_settlement_000_3_7() -> None:
    history = _round_1_settled(WagerOutcome.LOSE)
    refused(history, place("s-2", [RED3], round_no=2), "wagers[0].stake:", "holds 2")
    assert when(history, redeem(2))
    refused(history, redeem(3), "count:", "holds 2")


def test_won_checks_come_back_with_the_winnings_paid_in_checks_000_3_7() -> None:
    history = _round_1_settled(WagerOutcome.WIN, winnings=300)
    assert when(history, redeem(8))  # 2 in hand, 3 back, 3 won
    refused(history, redeem(9), "count:", "holds 8")


def test_a_void_round_gives_the_checks_back_000_7_5() -> None:
    assert when(_round_1_settled(WagerOutcome.VOID), redeem(5))


def test_a_carried_wager_keeps_its_checks_on_the_layout_002_2003_art_3() -> None:
    history = _round_1_settled(WagerOutcome.CARRIED)
    refused(history, redeem(3), "count:", "holds 2")


def test_a_correction_turns_lost_checks_into_won_ones_gli_19_4_18_4() -> None:
    lost = result(RED3, WagerOutcome.LOSE)
    won = result(RED3, WagerOutcome.WIN, winnings=300)
    history = [*_round_1_settled(WagerOutcome.LOSE), adjusted(1, lost, won)]
    assert when(history, redeem(8))


def test_a_player_who_lost_every_check_holds_the_colour_no_more_000_3_6() -> None:
    history = [
        *betting(),
        issued("alice", "red", 100, 3),
        placed("s-1", [RED3]),
        betting_closed(1),
        settled(1, result(RED3, WagerOutcome.LOSE)),
    ]
    assert when(history, issue("bob", "red", 200))  # no consent needed: alice has none left


def test_checks_on_the_layout_keep_the_colour_the_players_000_3_6() -> None:
    history = [*betting(), issued("alice", "red", 100, 3), placed("s-1", [RED3])]
    refused(history, issue("bob", "red", 200), "color:", "alice", "000 §3.6")
    refused(
        history,
        place("s-2", [RED3], by=DEALER, player="bob"),
        "wagers[0].color:",
        "issued to alice",
    )
