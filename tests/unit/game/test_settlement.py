import pytest

from sicbo.game.dice import make_roll
from sicbo.game.errors import BetNotOffered, InvalidBet, InvalidStake
from sicbo.game.profiles import load_paytable
from sicbo.game.settlement import (
    Medium,
    Outcome,
    Settled,
    settle_round,
    settle_wager,
    void_wager,
    winnings_for,
)

ONLINE = load_paytable("online-live")
CCA = load_paytable("cca-1992")


def test_chips_win_returns_stake_plus_winnings() -> None:
    s = settle_wager(CCA, make_roll([1, 2, 3]), "small", 100, Medium.CHIPS)
    assert s == Settled(Outcome.WIN, 100, 200)


def test_colour_checks_settle_like_chips_000_3_7() -> None:
    s = settle_wager(CCA, make_roll([1, 1, 1]), "triple:1", 25, Medium.COLOR)
    assert s == Settled(Outcome.WIN, 25 * 180, 25 * 181)


def test_promo_token_pays_winnings_only_and_is_forfeited_000_1_1() -> None:
    assert settle_wager(CCA, make_roll([6, 6, 5]), "big", 50, Medium.PROMO) == Settled(
        Outcome.WIN, 50, 50
    )
    assert settle_wager(CCA, make_roll([1, 2, 3]), "big", 50, Medium.PROMO) == Settled(
        Outcome.LOSE, 0, 0
    )


def test_void_returns_every_medium_including_a_token() -> None:
    for medium in Medium:
        assert void_wager(70, medium) == Settled(Outcome.VOID, 0, 70)


def test_three_to_two_rounds_down_to_the_minimum_unit() -> None:
    roll = make_roll([1, 3, 2])
    assert settle_wager(ONLINE, roll, "two-odd-one-even", 3, Medium.CHIPS).winnings == 4
    assert settle_wager(ONLINE, roll, "two-odd-one-even", 30, Medium.CHIPS, unit=10).winnings == 45
    assert settle_wager(ONLINE, roll, "two-odd-one-even", 25, Medium.CHIPS, unit=5).winnings == 35
    assert winnings_for(25, 3, 2, 10) == 30  # 37.5 down to a unit of 10
    assert winnings_for(15, 1, 1, 10) == 15  # a whole pay is never rounded


def test_settle_round_agrees_with_settle_wager() -> None:
    roll = make_roll([2, 2, 5])
    wagers = [(b.id, 7, m) for b in ONLINE.offered_bets() for m in Medium]
    fast = settle_round(ONLINE, roll, wagers, unit=2)
    slow = [settle_wager(ONLINE, roll, b, s, m, unit=2) for b, s, m in wagers]
    assert fast == slow


def test_bad_wagers_are_refused() -> None:
    roll = make_roll([1, 2, 3])
    with pytest.raises(InvalidBet):
        settle_wager(CCA, roll, "combo:5-5", 10, Medium.CHIPS)
    with pytest.raises(BetNotOffered):
        settle_wager(CCA, roll, "odd", 10, Medium.CHIPS)
    for stake in (0, -5, 1.5, True):
        with pytest.raises(InvalidStake):
            settle_wager(CCA, roll, "small", stake, Medium.CHIPS)  # type: ignore[arg-type]
