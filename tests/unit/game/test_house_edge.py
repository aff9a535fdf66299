from fractions import Fraction

import pytest

from sicbo.game.bets import parse_bet
from sicbo.game.errors import InvalidChoice
from sicbo.game.house_edge import bet_edge, house_edge_report
from sicbo.game.profiles import PROFILE_IDS, load_paytable


def test_online_live_max_rtp_is_004s_97_22_percent() -> None:
    report = house_edge_report(load_paytable("online-live"))
    # 004 "Tambahan": RTP maksimum 97.22% (small/big/odd/even win 105/216 at 1 to 1)
    assert report.max_rtp == Fraction(210, 216)
    assert round(float(report.max_rtp) * 100, 2) == 97.22
    best = {e.bet.id for e in report.bets if e.rtp == report.max_rtp}
    assert {"small", "big", "odd", "even"} <= best


@pytest.mark.parametrize("profile", ["cca-1992", "macau-2003", "online-live"])
def test_no_bet_beats_the_house_outside_macau_2004(profile: str) -> None:
    report = house_edge_report(load_paytable(profile))
    assert report.no_house_edge == ()
    assert all(e.rtp < 1 for e in report.bets)


def test_macau_2004_odd_even_flagged_with_no_house_edge() -> None:
    # 002/2004 art. 7 names only big and small: odd/even are not lost on a triple.
    report = house_edge_report(load_paytable("macau-2004"))
    assert {e.bet.id for e in report.no_house_edge} == {"odd", "even"}
    for edge in report.no_house_edge:
        assert edge.wins_out_of_216 == 108
        assert edge.rtp == 1
        assert edge.house_edge == 0


def test_small_is_105_of_216_everywhere() -> None:
    for profile in PROFILE_IDS:
        edge = bet_edge(load_paytable(profile), parse_bet("small"))
        assert edge.wins_out_of_216 == 105
        assert edge.house_edge == Fraction(6, 216)


def test_cca_single_die_return_uses_12_to_1_on_three_dice() -> None:
    edge = bet_edge(load_paytable("cca-1992"), parse_bet("single:1"))
    # 75 ways on one die at 2 back, 15 on two at 3 back, 1 on three at 13 back
    assert edge.rtp == Fraction(75 * 2 + 15 * 3 + 1 * 13, 216)
    assert edge.pays_by_dice == (1, 2, 12)


def test_macau_2004_choices_default_and_range() -> None:
    default = load_paytable("macau-2004")
    assert bet_edge(default, parse_bet("total:5")).pays == 18
    assert bet_edge(default, parse_bet("total:15")).pays == 14
    chosen = load_paytable("macau-2004", {"total-5-16": 30, "total-6-15": 18})
    assert bet_edge(chosen, parse_bet("total:16")).pays == 30
    assert bet_edge(chosen, parse_bet("total:6")).pays == 18
    assert chosen.ref == "macau-2004@v1?total-5-16=30&total-6-15=18"


@pytest.mark.parametrize(
    "profile,choices",
    [
        ("macau-2004", {"total-5-16": 17}),
        ("macau-2004", {"total-5-16": 31}),
        ("macau-2004", {"total-6-15": 13}),
        ("macau-2004", {"total-6-15": 19}),
        ("macau-2004", {"total-4-17": 60}),
        ("online-live", {"total-5-16": 20}),
    ],
)
def test_choices_outside_the_rules_are_refused(profile: str, choices: dict[str, int]) -> None:
    with pytest.raises(InvalidChoice):
        load_paytable(profile, choices)
