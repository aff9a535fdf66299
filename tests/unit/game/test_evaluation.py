"""Every profile x every bet x all 216 outcomes against the independent oracle.

The wagers offered and what each pays: 000 §3.1.1-3.1.8 and §6.1; 002/2003 arts. 5-7;
002/2004 arts. 5-7; 004 "Pembayaran".
"""

from fractions import Fraction
from itertools import product

import pytest

from sicbo.game.bets import catalogue, parse_bet
from sicbo.game.dice import make_roll
from sicbo.game.evaluation import pay_for, winning_bets
from sicbo.game.profiles import PROFILE_IDS, load_paytable
from tests.unit.game.oracle import offered, oracle_pay

OUTCOMES = list(product(range(1, 7), repeat=3))


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_profile_offers_exactly_the_bets_of_rules_md(profile: str) -> None:
    paytable = load_paytable(profile)
    assert {b.id for b in paytable.offered_bets()} == offered(profile)
    for bet in catalogue():
        assert paytable.offers(bet) == (bet.id in offered(profile))


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_every_bet_every_outcome_matches_the_oracle(profile: str) -> None:
    paytable = load_paytable(profile)
    checked = 0
    for bet in paytable.offered_bets():
        for dice in OUTCOMES:
            assert pay_for(paytable, bet, make_roll(dice)) == oracle_pay(profile, bet.id, dice), (
                profile,
                bet.id,
                dice,
            )
            checked += 1
    assert checked == 216 * len(offered(profile))


# Ways to win out of 216, counted by hand from combinatorics (not by enumeration):
# a total T has as many ordered ways as the coefficient of x^T in (x + ... + x^6)^3.
TOTAL_WAYS = {4: 3, 5: 6, 6: 10, 7: 15, 8: 21, 9: 25, 10: 27}
KNOWN_WAYS = {
    "any-triple": 6,
    "triple:4": 1,
    "double:3": 16,  # 15 ordered pairs-with-another + 1 triple
    "combo:2-5": 30,  # 6 with a third die other than 2 and 5 = 4*6, plus 2,2,5 and 2,5,5 = 3+3
    "three:1-3-5": 6,
    "pair-single:1-2": 3,
    "four:1-2-3-4": 24,  # 4 choices of three faces x 6 orders
    "all-odd": 27,
    "two-odd-one-even": 81,
}


@pytest.mark.parametrize("bet_id,ways", sorted(KNOWN_WAYS.items()))
def test_ways_to_win_match_combinatorics(bet_id: str, ways: int) -> None:
    paytable = load_paytable("online-live")
    bet = parse_bet(bet_id)
    assert sum(pay_for(paytable, bet, make_roll(d)) is not None for d in OUTCOMES) == ways


@pytest.mark.parametrize("t", range(4, 18))
def test_total_ways(t: int) -> None:
    paytable = load_paytable("cca-1992")
    bet = parse_bet(f"total:{t}")
    wins = sum(pay_for(paytable, bet, make_roll(d)) is not None for d in OUTCOMES)
    assert wins == TOTAL_WAYS[min(t, 21 - t)]


def test_triple_kills_small_big_everywhere_but_odd_even_only_online() -> None:
    triple_two = make_roll([2, 2, 2])  # total 6: small and even by total
    for profile in PROFILE_IDS:
        wins = {b.id for b in winning_bets(load_paytable(profile), triple_two)}
        assert "small" not in wins  # 000 §3.1.1.1, 002 art. 7, 004
        assert "total:6" in wins  # 000 §3.1.6: a triple with that total wins
    assert "even" in {b.id for b in winning_bets(load_paytable("macau-2004"), triple_two)}
    assert "even" not in {b.id for b in winning_bets(load_paytable("online-live"), triple_two)}


def test_single_paid_by_how_many_dice_000_3_1_8() -> None:
    cca = load_paytable("cca-1992")
    bet = parse_bet("single:5")
    assert pay_for(cca, bet, make_roll([5, 1, 2])) == 1
    assert pay_for(cca, bet, make_roll([5, 5, 2])) == 2
    assert pay_for(cca, bet, make_roll([5, 5, 5])) == 12  # 000 §6.1: 12 to 1 on three dice
    assert pay_for(load_paytable("macau-2003"), bet, make_roll([5, 5, 5])) == 3


def test_two_odd_one_even_pays_three_to_two_online() -> None:
    paytable = load_paytable("online-live")
    assert pay_for(paytable, parse_bet("two-odd-one-even"), make_roll([1, 3, 2])) == Fraction(3, 2)
