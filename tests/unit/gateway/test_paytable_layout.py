"""The layout a paytable shows (``sicbo.gateway.paytable_layout``): every offered bet spot once,
in the printed layouts' groups (000 §2.1-2.2; 004's rows), with the pay as the layout prints it.

Expectations come from RULES.md, via the independent oracle of tests/unit/game/oracle.py (the
bet ids a profile offers and their pays, transcribed from the digest), not from the profiles.
"""

from fractions import Fraction
from typing import Any

import pytest

from sicbo.game.house_edge import format_pay
from sicbo.game.profiles import PROFILE_IDS, load_paytable, load_profile
from sicbo.gateway.paytable_layout import Layout, layout_of
from tests.unit.game.oracle import PAYS, offered

#: The documented group order, and the bet names (RULES.md catalogue) each group holds.
GROUPS = {
    "top": ("small", "odd", "double", "any-triple", "triple", "even", "big"),
    "totals": ("total",),
    "combos": ("combo",),
    "parity": ("all-odd", "two-odd-one-even", "two-even-one-odd", "all-even"),
    "four": ("four",),
    "three": ("three",),
    "pair-single": ("pair-single",),
    "singles": ("single",),
}
GROUP_OF = {name: group for group, names in GROUPS.items() for name in names}


def name_of(bet_id: str) -> str:
    return bet_id.partition(":")[0]


def spot_ids(layout: Layout) -> list[str]:
    return [spot.bet for group in layout.groups for spot in group.spots]


def pays_of(layout: Layout) -> dict[str, str]:
    return {spot.bet: spot.pays for group in layout.groups for spot in group.spots}


def rules_pays(profile: str, bet_id: str) -> str:
    """The pay RULES.md gives a bet, written N:D (singles: one / two / three dice)."""
    pays: dict[str, Any] = PAYS[profile]
    name, _, numbers = bet_id.partition(":")
    if name == "single":
        return " / ".join(f"{p}:1" for p in pays["single"])
    if name == "total":
        t = int(numbers)
        pay = pays["total"][min(t, 21 - t)]
    else:
        pay = pays[name]
    pay = Fraction(pay)
    return f"{pay.numerator}:{pay.denominator}"


@pytest.fixture(params=PROFILE_IDS)
def profile(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_the_four_profiles_are_those_of_rules_md() -> None:
    assert set(PROFILE_IDS) == set(PAYS)


def test_every_offered_bet_is_a_spot_exactly_once(profile: str) -> None:
    paytable = load_paytable(profile)
    ids = spot_ids(layout_of(paytable))
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert set(ids) == {bet.id for bet in paytable.offered_bets()}
    assert set(ids) == offered(profile)  # RULES.md: blank cells are not offered


def test_the_groups_are_non_empty_and_in_the_documented_order(profile: str) -> None:
    layout = layout_of(load_paytable(profile))
    names = [group.name for group in layout.groups]
    wanted = {GROUP_OF[name] for name in PAYS[profile]}
    assert names == [group for group in GROUPS if group in wanted]
    assert all(group.spots for group in layout.groups)
    assert all(group.title for group in layout.groups)


def test_each_spot_is_in_its_group(profile: str) -> None:
    for group in layout_of(load_paytable(profile)).groups:
        for spot in group.spots:
            assert GROUP_OF[name_of(spot.bet)] == group.name, spot.bet


def test_the_top_row_runs_small_odd_doubles_any_triple_triples_even_big(profile: str) -> None:
    top = layout_of(load_paytable(profile)).groups[0]
    assert top.name == "top"
    names = list(dict.fromkeys(name_of(spot.bet) for spot in top.spots))
    assert names == [n for n in GROUPS["top"] if n in PAYS[profile]]
    for kind in ("double", "triple"):
        if kind in PAYS[profile]:
            numbers = [spot.bet for spot in top.spots if name_of(spot.bet) == kind]
            assert numbers == [f"{kind}:{n}" for n in range(1, 7)]


def test_every_pay_is_the_rules_md_pay(profile: str) -> None:
    pays = pays_of(layout_of(load_paytable(profile)))
    expected = {bet_id: rules_pays(profile, bet_id) for bet_id in offered(profile)}
    assert pays == expected


def test_the_pay_is_the_paytables_pay_as_format_pay_writes_it(profile: str) -> None:
    paytable = load_paytable(profile)
    for bet_id, text in pays_of(layout_of(paytable)).items():
        name, _, numbers = bet_id.partition(":")
        if name == "single":
            want = " / ".join(format_pay(paytable.pays[f"single/{n}"]) for n in (1, 2, 3))
        elif name == "total":
            want = format_pay(paytable.pays[f"total/{numbers}"])
        else:
            want = format_pay(paytable.pays[name])
        assert text == want, bet_id


def test_the_layout_names_its_profile_and_paytable(profile: str) -> None:
    paytable = load_paytable(profile)
    layout = layout_of(paytable)
    assert layout.profile == profile
    assert layout.paytable == paytable.ref == f"{profile}@v{load_profile(profile).version}"
    assert layout.title == load_profile(profile).title


# ---- spot checks, numbers from RULES.md "Payouts" ------------------------------------------------


@pytest.mark.parametrize(
    ("profile_id", "bet", "pays"),
    [
        ("cca-1992", "any-triple", "31:1"),
        ("cca-1992", "total:4", "62:1"),
        ("cca-1992", "total:17", "62:1"),
        ("cca-1992", "total:10", "6:1"),
        ("cca-1992", "single:6", "1:1 / 2:1 / 12:1"),
        ("cca-1992", "double:3", "11:1"),
        ("cca-1992", "triple:2", "180:1"),
        ("cca-1992", "combo:1-6", "6:1"),
        ("macau-2003", "any-triple", "24:1"),
        ("macau-2003", "total:9", "6:1"),
        ("macau-2003", "single:1", "1:1 / 2:1 / 3:1"),
        ("macau-2004", "total:5", "18:1"),  # the 2003 value until the operator's choice
        ("macau-2004", "total:15", "14:1"),
        ("macau-2004", "pair-single:6-1", "50:1"),
        ("macau-2004", "even", "1:1"),
        ("online-live", "single:1", "1:1 / 2:1 / 3:1"),
        ("online-live", "single:6", "1:1 / 2:1 / 3:1"),
        ("online-live", "total:4", "60:1"),
        ("online-live", "any-triple", "30:1"),
        ("online-live", "two-odd-one-even", "3:2"),
        ("online-live", "all-even", "6:1"),
        ("online-live", "four:2-3-5-6", "7:1"),
        ("online-live", "three:1-2-3", "30:1"),
        ("online-live", "pair-single:2-5", "60:1"),
    ],
)
def test_spot_check(profile_id: str, bet: str, pays: str) -> None:
    assert pays_of(layout_of(load_paytable(profile_id)))[bet] == pays


@pytest.mark.parametrize(
    ("profile_id", "bet"),
    [
        ("cca-1992", "odd"),
        ("cca-1992", "three:1-2-3"),
        ("macau-2003", "double:1"),
        ("macau-2003", "combo:1-2"),
        ("macau-2004", "all-odd"),
    ],
)
def test_a_bet_the_profile_does_not_offer_has_no_spot(profile_id: str, bet: str) -> None:
    assert bet not in spot_ids(layout_of(load_paytable(profile_id)))


def test_the_operators_approved_choice_shows_on_the_layout_002_2004_art_8() -> None:
    paytable = load_paytable("macau-2004", {"total-5-16": 30, "total-6-15": 18})
    layout = layout_of(paytable)
    pays = pays_of(layout)
    assert [pays[f"total:{t}"] for t in (5, 16, 6, 15)] == ["30:1", "30:1", "18:1", "18:1"]
    assert pays["total:4"] == "50:1"
    assert layout.paytable == "macau-2004@v1?total-5-16=30&total-6-15=18"


@pytest.mark.parametrize(
    ("bet", "label"),
    [
        ("small", "SMALL"),
        ("any-triple", "ANY TRIPLE"),
        ("double:3", "3 3"),
        ("triple:5", "5 5 5"),
        ("total:11", "11"),
        ("combo:2-6", "2 6"),
        ("pair-single:4-1", "4 4 1"),
        ("four:1-2-3-4", "1 2 3 4"),
        ("single:2", "2"),
    ],
)
def test_labels_as_printed(bet: str, label: str) -> None:
    spots = {s.bet: s for g in layout_of(load_paytable("online-live")).groups for s in g.spots}
    assert spots[bet].label == label
    assert spots[bet].detail
