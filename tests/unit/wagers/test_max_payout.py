"""The table's maximum payout per round (``TableConfig.max_payout_per_round``, a house limit: no
seed has one): a slip that would raise the round's worst case above it is refused."""

from itertools import product

import pytest

from sicbo.game.dice import make_roll
from sicbo.game.evaluation import ROLLS
from sicbo.game.settlement import settle_round
from sicbo.wagers.exposure import paytable_by_ref
from sicbo.wagers.state import wagers_of_round
from sicbo_contracts.wagers import CarriedChoice
from tests.support.common import default_paytable
from tests.support.lifecycle import betting_opened, no_result, round_started, table_opened
from tests.support.wagers import (
    LIMITS,
    betting,
    change,
    changed,
    chips,
    choose,
    given,
    place,
    placed,
    promo,
    refused,
    when,
    withdrawn,
)

CAP = 10_000


def capped(profile: str = "cca-1992", cap: int = CAP) -> list[object]:
    """Round 1 of a table that pays at most ``cap`` in winnings a round, taking wagers."""
    return [
        table_opened(profile, limits=LIMITS, max_payout_per_round=cap),
        round_started(1, profile),
        betting_opened(1),
    ]


def test_a_slip_within_the_maximum_payout_is_taken() -> None:
    assert when(capped(), place(wagers=[chips("big", 10_000)])) == [
        placed(wagers=[chips("big", 10_000)])
    ]


def test_a_slip_whose_worst_case_is_above_the_maximum_payout_is_refused() -> None:
    """A specific triple of 100 pays 180 to 1 (000 §6.1): 18,000 on 6-6-6."""
    refused(
        capped(),
        place(wagers=[chips("big", 100), chips("triple:6", 100)]),
        "wagers:",
        "could pay 18000 in winnings (on 6-6-6)",
        "maximum payout per round 10000",
        "config.max_payout_per_round",
        "already pay 0",
    )


def test_the_rounds_accepted_wagers_count_toward_the_maximum() -> None:
    history = [*capped(), placed("s-1", [chips("big", 6_000)])]
    refused(
        history,
        place("s-2", [chips("big", 5_000)]),
        "could pay 11000",
        "already pay 6000 at most",
    )


def test_the_worst_case_is_the_largest_total_over_the_outcomes() -> None:
    """Big and small never both win: 6,000 each is a worst case of 6,000, not 12,000."""
    history = [*capped(), placed("s-1", [chips("big", 6_000)])]
    assert when(history, place("s-2", [chips("small", 6_000)]))
    history += [placed("s-2", [chips("small", 6_000)])]
    # total:15 pays 18 to 1 (000 §6.1) where big wins too: 6,000 + 18 x 250 on 4-5-6.
    refused(history, place("s-3", [chips("total:15", 250)]), "could pay 10500 in winnings")
    assert when(history, place("s-3", [chips("total:15", 200)]))


def test_a_withdrawn_slip_frees_its_share() -> None:
    history = [*capped(), placed("s-1", [chips("big", 6_000)])]
    history += [withdrawn("s-1", [chips("big", 6_000)])]
    assert when(history, place("s-2", [chips("big", 6_000)]))


def test_a_change_counts_the_slip_as_changed() -> None:
    history = [*capped(), placed("s-1", [chips("big", 6_000)])]
    refused(history, change([chips("big", 6_000), chips("big", 5_000)]), "could pay 11000")
    assert when(history, change([chips("big", 10_000)]))  # its own 6,000 no longer counts
    history += [changed("s-1", [chips("big", 6_000)], [chips("big", 4_000)])]
    assert when(history, place("s-2", [chips("big", 6_000)]))


def test_carried_wagers_count_in_the_re_run_002_2003_art_3_3() -> None:
    history = [
        *capped("macau-2003"),
        placed("s-1", [chips("big", 6_000)]),
        no_result(1, "carry-over-locked"),
        round_started(2, "macau-2003"),
        betting_opened(2),
    ]
    refused(history, place("s-2", [chips("big", 5_000)], round_no=2), "already pay 6000")


def test_a_carried_slip_changed_by_its_player_is_checked_002_2004_art_3_4() -> None:
    history = [
        *capped("macau-2004"),
        placed("s-1", [chips("big", 6_000), chips("small", 4_010)]),
        no_result(1, "player-choice"),
        round_started(2, "macau-2004"),
        betting_opened(2),
    ]
    history += [placed("s-2", [chips("big", 4_000)], round_no=2)]
    # The same stake moved onto big (002/2004 art. 3(4) lets the bets change, not the stake
    # rise): big would pay 6,010 + 4,000.
    moved = [chips("big", 6_010), chips("small", 4_000)]
    refused(history, choose(CarriedChoice.CHANGE, moved), "could pay 10010")
    assert when(history, choose(CarriedChoice.CHANGE, [chips("big", 5_000), chips("small", 5_010)]))


def test_wagers_that_do_not_raise_an_exceeded_worst_case_are_taken() -> None:
    """total:5 of 500 carried at 18 to 1 (9,000) into a re-run under 30 to 1 (15,000, above
    the maximum: it stands, 000 §4.2). Big does not win on a total of 5: taken; more on
    total:5 is refused; reducing the carried slip is taken."""
    richer = "macau-2004@v1?total-5-16=30"
    history = [
        *capped("macau-2004"),
        placed("s-1", [chips("total:5", 500)]),
        no_result(1, "player-choice"),
        round_started(2, "macau-2004", paytable=richer),
        betting_opened(2),
    ]
    assert when(history, place("s-2", [chips("big", 5_000)], round_no=2))
    refused(history, place("s-2", [chips("total:5", 100)], round_no=2), "already pay 15000")
    assert when(history, choose(CarriedChoice.CHANGE, [chips("total:5", 300)]))


def test_a_table_without_a_maximum_payout_keeps_no_exposure() -> None:
    state = given(betting(), placed("s-1", [chips("triple:6", 10_000)]))
    assert state.round is not None and state.round.exposure is None


@pytest.mark.parametrize("profile", ["cca-1992", "macau-2004", "online-live"])
def test_the_exposure_is_what_settlement_would_pay_on_each_of_the_216_outcomes(
    profile: str,
) -> None:
    """Kept wager by wager, the exposure equals settling the round's wagers on every outcome
    (winnings before rounding to the unit: unit 1)."""
    bets = ["big", "small", "single:3", "double:2", "total:9", "combo:2-5", "triple:1"]
    if profile != "cca-1992":
        bets += ["odd", "three:1-2-3", "four:2-3-5-6", "pair-single:1-2"]
    paytable = default_paytable(profile)
    history: list[object] = [*capped(profile, cap=10**12)]
    for n, bet in enumerate(bets):
        history.append(placed(f"s-{n}", [chips(bet, 110 + 10 * n), promo(bets[-n], 130)]))
    history.append(withdrawn("s-1", []))
    history.append(changed("s-2", [], [chips("total:10", 250)]))
    state = given(history)
    assert state.round is not None and state.round.exposure is not None
    standing = [(w.wager.bet, w.wager.stake, w.wager.medium) for w in wagers_of_round(state, 1)]
    table = paytable_by_ref(paytable)
    for dice in product(range(1, 7), repeat=3):
        roll = make_roll(dice)
        paid = sum(s.winnings for s in settle_round(table, roll, standing))
        assert state.round.exposure[ROLLS.index(roll)] == paid, dice
