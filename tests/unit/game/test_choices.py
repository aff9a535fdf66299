"""The options of 002/2004 as profile choices: which clause gives each, what it may be, what it
does to the paytable (002/2004 arts. 1, 2, 5, 6; their adoption is art. 8's)."""

import tomllib
from importlib import resources
from typing import Any

import pytest

from sicbo.game.bets import parse_bet
from sicbo.game.dice import make_roll
from sicbo.game.errors import BetNotOffered, InvalidChoice
from sicbo.game.house_edge import house_edge_report
from sicbo.game.profiles import (
    PROFILE_IDS,
    load_paytable,
    load_profile,
    parse_paytable_ref,
    parse_profile,
)
from sicbo.game.settlement import Medium, settle_wager

ART_5 = [f"002/2004 art. 5({n})" for n in range(1, 14)]


def macau_2004_doc() -> dict[str, Any]:
    text = resources.files("sicbo.game").joinpath("profiles/macau-2004.toml").read_text()
    return tomllib.loads(text)


def test_macau_2004_has_a_choice_for_every_option_of_arts_1_2_5_and_6() -> None:
    rules = {c.name: c.rule for c in load_profile("macau-2004").choices.values()}
    assert rules["activation"] == "002/2004 art. 1(2)(1), art. 2(1)"  # 把手或一電子啟動裝置
    assert rules["layouts"] == "002/2004 art. 1(3)"  # 一張或多張台證
    assert rules["auto-betting-sign"] == "002/2004 art. 2(2)"  # 可...自動亮著
    assert rules["betting-call"] == "002/2004 art. 2(3)"  # 莊荷亦可高聲宣布
    assert sorted(r for r in rules.values() if "art. 5(" in r) == sorted(ART_5)
    assert rules["total-5-16"] == rules["total-6-15"] == "002/2004 art. 6(6)"
    assert len(rules) == 4 + 13 + 2


def test_the_authorisation_of_macau_2004_is_art_8() -> None:
    auth = load_profile("macau-2004").authorisation
    assert auth is not None
    assert (auth.rule, auth.notice_working_days, auth.reference_required) == (
        "002/2004 art. 8",
        3,
        True,
    )


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_only_macau_2004_has_options_and_macau_tables_keep_macau_time(profile: str) -> None:
    loaded = load_profile(profile)
    assert bool(loaded.choices) == (profile == "macau-2004")
    assert loaded.time_zone == ("Asia/Macau" if profile.startswith("macau") else "UTC")


def test_the_defaults_are_the_paytable_played_without_an_approval() -> None:
    """Every art. 5 bet offered, 5/16 at 18 and 6/15 at 14 (the 2003 pays), the handle."""
    default = load_paytable("macau-2004")
    assert default.ref == "macau-2004@v1"
    assert default.choice("activation") == "handle"
    assert default.choice("total-5-16") == 18 and default.choice("layouts") == 1
    assert {b.kind.value for b in default.offered_bets()} >= {"odd", "even", "four"}


def test_a_bet_taken_off_the_layout_is_not_offered_002_2004_art_5() -> None:
    paytable = load_paytable("macau-2004", {"offer-odd": "no"})
    assert paytable.ref == "macau-2004@v1?offer-odd=no"
    assert parse_paytable_ref(paytable.ref) == paytable
    assert [e.bet.id for e in house_edge_report(paytable).no_house_edge] == ["even"]
    with pytest.raises(BetNotOffered):
        settle_wager(paytable, make_roll([1, 2, 4]), "odd", 100, Medium.CHIPS)
    assert paytable.offers(parse_bet("even"))


def test_a_pay_of_totals_taken_off_the_layout_is_refused_002_2004_art_6_6() -> None:
    with pytest.raises(InvalidChoice, match="offer-total=no takes off the layout"):
        load_paytable("macau-2004", {"offer-total": "no", "total-5-16": 24})
    no_totals = load_paytable("macau-2004", {"offer-total": "no"})
    assert not no_totals.offers(parse_bet("total:5"))


def test_a_layout_keeps_at_least_one_bet_002_2004_art_1_3() -> None:
    every = {n: "no" for n, c in load_profile("macau-2004").choices.items() if c.offers}
    with pytest.raises(InvalidChoice, match="offers at least one bet"):
        load_paytable("macau-2004", every)


@pytest.mark.parametrize(
    ("choices", "message"),
    [
        ({"layouts": 0}, r"'layouts' of 'macau-2004' is 1 to 8, got 0 \(002/2004 art\. 1\(3\)\)"),
        ({"layouts": True}, "got True"),  # a bool is not a count
        ({"layouts": "2"}, "got '2'"),
        ({"offer-odd": "maybe"}, r"is one of yes, no, got 'maybe' \(002/2004 art\. 5\(8\)\)"),
        ({"betting-call": 1}, r"is one of no, yes, got 1 \(002/2004 art\. 2\(3\)\)"),
        ({"total-6-15": 19}, r"pays 14 to 18 to 1, got 19 \(002/2004 art\. 6\(6\)\)"),
    ],
)
def test_a_value_outside_the_option_is_refused_citing_its_clause(
    choices: dict[str, Any], message: str
) -> None:
    with pytest.raises(InvalidChoice, match=message):
        load_paytable("macau-2004", choices)


def test_a_paytable_reference_with_named_values_round_trips() -> None:
    chosen = {"activation": "electric", "layouts": 2, "total-5-16": 30}
    paytable = load_paytable("macau-2004", chosen)
    assert paytable.ref == "macau-2004@v1?activation=electric&layouts=2&total-5-16=30"
    assert parse_paytable_ref(paytable.ref).choices == chosen


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["choices"]["layouts"].pop("rule"), "names the clause"),
        (lambda d: d["choices"]["layouts"].update(values=["a"]), "either min and max"),
        (lambda d: d["choices"]["layouts"].update(default=9), "the default 9 is 1 to 8"),
        (lambda d: d["choices"]["activation"].update(totals=[5]), "a whole number"),
        (lambda d: d.pop("authorisation"), "says what adopting one needs"),
        (lambda d: d["authorisation"].pop("regulator"), "regulator is required"),
    ],
)
def test_a_malformed_choice_document_is_refused_naming_the_field(change: Any, message: str) -> None:
    doc = macau_2004_doc()
    change(doc)
    with pytest.raises(ValueError, match=message):
        parse_profile(doc)
