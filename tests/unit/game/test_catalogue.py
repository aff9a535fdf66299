"""The paytables' bet catalogue of the partners' kit: fresh, complete, and what settlement pays.

``contracts/catalogue/paytables.json`` and ``docs/paytables.md`` are generated (``make
schemas``); every pay they state is checked against the evaluation settlement uses, on every
one of the 56 distinct results.
"""

import json
from fractions import Fraction

import pytest

from sicbo.game import catalogue
from sicbo.game.bets import catalogue as every_bet
from sicbo.game.bets import parse_bet
from sicbo.game.dice import is_triple
from sicbo.game.evaluation import ROLLS, pay_for, winning_bets
from sicbo.game.profiles import PROFILE_IDS, parse_paytable_ref


def test_the_checked_in_catalogue_is_fresh() -> None:
    assert catalogue.stale() == [], "run `make schemas` and commit the catalogue"


def test_it_names_every_bet_once_with_its_canonical_id() -> None:
    doc = json.loads(catalogue.render_json())
    ids = [b["id"] for b in doc["bets"]]
    assert ids == [b.id for b in every_bet()] and len(set(ids)) == len(ids)
    assert all(parse_bet(i).id == i for i in ids)
    assert {"name": "Pair 5, single 2", "wins": "the dice show 5, 5 and 2"}.items() <= next(
        b for b in doc["bets"] if b["id"] == "pair-single:5-2"
    ).items()


def ratio(text: str) -> Fraction:
    num, _, den = text.partition(":")
    return Fraction(int(num), int(den))


@pytest.mark.parametrize("entry", json.loads(catalogue.render_json())["paytables"], ids=str)
def test_every_pay_it_states_is_what_settlement_pays_on_every_result(
    entry: dict[str, object],
) -> None:
    paytable = parse_paytable_ref(str(entry["ref"]))
    bets = {b["id"]: b for b in entry["bets"]}  # type: ignore[attr-defined]
    assert list(bets) == [b.id for b in paytable.offered_bets()]
    for roll in ROLLS:
        winners = winning_bets(paytable, roll)
        for bet, pay in winners.items():
            stated = bets[bet.id]
            if "pays_by_dice" in stated:
                assert ratio(stated["pays_by_dice"][str(roll.count(bet.numbers[0]))]) == pay
            else:
                assert ratio(stated["pays"]) == pay
        if is_triple(roll):  # what a triple kills is listed, and wins nothing
            for kind in entry["lose_on_a_triple"]:  # type: ignore[attr-defined]
                assert kind not in {b.kind.value for b in winners}
        for bet_id in bets:
            bet = parse_bet(bet_id)
            assert (pay_for(paytable, bet, roll) is not None) == (bet in winners)


def test_every_shipped_profile_is_in_it_with_its_choices() -> None:
    doc = json.loads(catalogue.render_json())
    assert [p["profile"] for p in doc["paytables"]] == list(PROFILE_IDS)
    macau = next(p for p in doc["paytables"] if p["profile"] == "macau-2004")
    total_5 = next(c for c in macau["choices"] if c["name"] == "total-5-16")
    assert (total_5["min"], total_5["max"], total_5["pays_totals"]) == (18, 30, [5, 16])
    assert "| Pair and single | `pair-single:1-2` … `pair-single:6-5` |" in (
        catalogue.render_markdown()
    )
