import pytest

from sicbo.game.bets import catalogue, parse_bet
from sicbo.game.errors import InvalidBet


def test_every_catalogue_id_round_trips() -> None:
    bets = catalogue()
    assert len({b.id for b in bets}) == len(bets)
    for bet in bets:
        assert parse_bet(bet.id) == bet
        assert str(bet) == bet.id
    # RULES.md catalogue: 9 plain + 6 single + 6 double + 6 triple + 14 totals + 15 combos
    # + 20 three + 30 pair-single + 4 four-number sets
    assert len(bets) == 9 + 6 + 6 + 6 + 14 + 15 + 20 + 30 + 4


@pytest.mark.parametrize(
    "bet_id,message",
    [
        ("total:3", "totals on the layout are 4..17"),
        ("total:18", "totals on the layout are 4..17"),
        ("combo:5-5", "must all differ"),
        ("combo:5-2", "ascending order (2-5)"),
        ("four:1-2-3-5", "four-number sets are"),
        ("pair-single:3-3", "pair and the single must differ"),
        ("single:7", "not a die face"),
        ("single:0", "not a die face"),
        ("single", "needs numbers"),
        ("small:1", "takes no numbers"),
        ("jackpot", "unknown bet 'jackpot'"),
        ("", "non-empty string"),
        ("total:09", "not a whole number"),
        ("total:x", "not a whole number"),
        ("combo:1-2-3", "takes 2 number(s)"),
        ("three:1-2", "takes 3 number(s)"),
        ("double:-1", "takes 1 number(s)"),
        (" small", "unknown bet"),
    ],
)
def test_bad_ids_are_refused_with_a_clear_error(bet_id: str, message: str) -> None:
    with pytest.raises(InvalidBet) as err:
        parse_bet(bet_id)
    assert message in str(err.value)


def test_non_string_is_refused() -> None:
    with pytest.raises(InvalidBet):
        parse_bet(5)  # type: ignore[arg-type]
