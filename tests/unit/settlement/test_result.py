"""Settlement of a round with a confirmed result, for every profile (000 §6.1, 002 art. 6-7,
004 "Pembayaran"), every medium (000 §1.1, §3.2-3.8) and the table's minimum unit (000 §4.1)."""

import pytest

from sicbo.game.dice import make_roll
from sicbo.game.profiles import parse_paytable_ref
from sicbo.game.settlement import settle_wager
from sicbo.settlement.engine import (
    PART_SIZE,
    SettlementError,
    settle,
    wager_results,
)
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementBasis,
    WagerOutcome,
    WagerResult,
    WagersSettled,
)
from sicbo_contracts.wagers import Medium
from tests.support.common import NOW, PROFILES, SERVICE
from tests.support.log import Log
from tests.support.wagers import chips, color, promo


def results_of(log: Log, round_no: int = 1) -> dict[str, WagerResult]:
    """Results by bet id (one wager per bet in these tests)."""
    return {r.bet: r for r in wager_results(log.facts(round_no))}


def one_round(profile: str, dice: tuple[int, int, int], *wagers, unit: int = 1) -> Log:
    log = Log(profile=profile, unit=unit).start(1)
    log.slip(1, "p1", *wagers)
    log.close(1)
    log.confirm(1, dice)
    return log


# ---- pays of every profile ------------------------------------------------------------------


def test_cca_1992_triple_two_000_6_1() -> None:
    log = one_round(
        "cca-1992",
        (2, 2, 2),
        chips("triple:2", 10),
        chips("any-triple", 10),
        chips("double:2", 10),
        chips("single:2", 10),
        chips("total:6", 10),
        chips("small", 10),
        chips("big", 10),
        chips("combo:1-2", 10),
    )
    got = results_of(log)
    assert got["triple:2"].returned == 10 + 180 * 10  # 000 §6.1 specific triple 180 to 1
    assert got["any-triple"].returned == 10 + 31 * 10  # any triple 31 to 1
    assert got["double:2"].returned == 10 + 11 * 10  # 000 §3.1.4: a triple of it wins too
    assert got["single:2"].returned == 10 + 12 * 10  # number on three dice 12 to 1
    assert got["total:6"].returned == 10 + 18 * 10  # 000 §3.1.6 a triple with that total wins
    assert got["small"].outcome is WagerOutcome.LOSE  # 000 §3.1.1.2: lose on a triple
    assert got["big"].outcome is WagerOutcome.LOSE
    assert got["combo:1-2"] == WagerResult(
        slip_id="s1",
        index=7,
        player="p1",
        bet="combo:1-2",
        stake=10,
        medium="chips",
        outcome=WagerOutcome.LOSE,
        winnings=0,
        returned=0,
    )


def test_macau_2003_pays_002_2003_art_6() -> None:
    got = results_of(
        one_round(
            "macau-2003",
            (3, 3, 3),
            chips("triple:3", 10),
            chips("any-triple", 10),
            chips("single:3", 10),
            chips("total:9", 10),
            chips("small", 10),
        )
    )
    assert got["triple:3"].winnings == 1500  # 150 to 1
    assert got["any-triple"].winnings == 240  # 24 to 1
    assert got["single:3"].winnings == 30  # three dice: 3 to 1
    assert got["total:9"].winnings == 60  # 6 to 1
    assert got["small"].outcome is WagerOutcome.LOSE  # 002 art. 7


def test_macau_2004_odd_even_stand_on_a_triple_002_2004_art_7() -> None:
    got = results_of(
        one_round(
            "macau-2004",
            (1, 1, 1),
            chips("odd", 10),
            chips("small", 10),
            chips("pair-single:1-2", 10),
        )
    )
    assert got["odd"].outcome is WagerOutcome.WIN  # art. 7 names only big and small
    assert got["small"].outcome is WagerOutcome.LOSE
    assert got["pair-single:1-2"].outcome is WagerOutcome.LOSE
    pair = results_of(one_round("macau-2004", (1, 1, 2), chips("pair-single:1-2", 10)))
    assert pair["pair-single:1-2"].winnings == 500  # 002/2004 art. 6: 50 to 1


def test_online_live_pays_004() -> None:
    got = results_of(
        one_round(
            "online-live",
            (2, 4, 6),
            chips("all-even", 10),
            chips("even", 10),
            chips("three:2-4-6", 10),
            chips("four:3-4-5-6", 10),
            chips("double:4", 10),
        )
    )
    assert got["all-even"].winnings == 60  # 6:1
    assert got["even"].winnings == 10  # 1:1
    assert got["three:2-4-6"].winnings == 300  # 30:1
    assert got["four:3-4-5-6"].outcome is WagerOutcome.LOSE  # 2 is not in the set
    assert got["double:4"].outcome is WagerOutcome.LOSE
    triple = results_of(one_round("online-live", (5, 5, 5), chips("odd", 10)))
    assert triple["odd"].outcome is WagerOutcome.LOSE  # 004: odd/even lose on a triple


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("dice", [(1, 2, 3), (4, 4, 6), (6, 6, 6), (1, 5, 5)])
def test_every_offered_bet_settles_as_the_game_library_says(profile: str, dice) -> None:
    """Every bet of the profile, in every medium, with a unit: the engine agrees with the
    validated single-wager path of the game library (the oracle of the pays)."""
    paytable = parse_paytable_ref(f"{profile}@v1")
    wagers = [
        w
        for bet in paytable.offered_bets()
        for w in (chips(bet.id, 15), promo(bet.id, 15), color(bet.id, 15))
    ]
    log = one_round(profile, dice, *wagers, unit=10)
    got = wager_results(log.facts(1))
    assert len(got) == len(wagers)
    roll = make_roll(dice)
    for wager, result in zip(wagers, got, strict=True):
        oracle = settle_wager(paytable, roll, wager.bet, 15, wager.medium, unit=10)
        assert (result.outcome.value, result.winnings, result.returned) == (
            oracle.outcome.value,
            oracle.winnings,
            oracle.returned,
        )
        assert result.medium == wager.medium.value and result.stake == 15


def test_a_round_settles_under_the_paytable_it_was_started_with() -> None:
    """macau-2004 with the operator's approved choice of 30 to 1 on 5/16 (002/2004 art. 6(6))."""
    log = Log(profile="macau-2004", paytable="macau-2004@v1?total-5-16=30").start(1)
    log.slip(1, "p1", chips("total:16", 10))
    log.close(1)
    log.confirm(1, (6, 5, 5))
    assert results_of(log)["total:16"].winnings == 300
    default = one_round("macau-2004", (6, 5, 5), chips("total:16", 10))
    assert results_of(default)["total:16"].winnings == 180  # 18 until a choice is approved


# ---- media ---------------------------------------------------------------------------------


def test_promotional_token_wins_its_winnings_only_000_1_1() -> None:
    got = results_of(one_round("cca-1992", (4, 5, 6), promo("big", 50), promo("small", 50)))
    assert (got["big"].outcome, got["big"].winnings, got["big"].returned) == (
        WagerOutcome.WIN,
        50,
        50,
    )
    # The token itself is forfeited after a valid result, win or lose.
    assert (got["small"].outcome, got["small"].returned) == (WagerOutcome.LOSE, 0)
    assert got["big"].medium == Medium.PROMO.value


def test_colour_checks_settle_like_value_chips_000_3_7() -> None:
    got = results_of(one_round("cca-1992", (4, 5, 6), color("big", 50), chips("total:15", 20)))
    assert got["big"].returned == 100 and got["big"].medium == "color"
    assert got["total:15"].returned == 20 + 18 * 20


# ---- money ---------------------------------------------------------------------------------


def test_a_pay_that_is_not_whole_rounds_down_to_the_unit_rules_money() -> None:
    """004 two-odd-one-even pays 3 to 2; the sign's unit is 10 (000 §4.1)."""
    got = results_of(one_round("online-live", (1, 3, 2), chips("two-odd-one-even", 15), unit=10))
    assert got["two-odd-one-even"].winnings == 20  # 22.5 rounded down to a unit of 10
    assert got["two-odd-one-even"].returned == 35
    whole = results_of(one_round("online-live", (1, 3, 2), chips("two-odd-one-even", 30), unit=10))
    assert whole["two-odd-one-even"].winnings == 45  # a whole pay is never rounded
    unit1 = results_of(one_round("online-live", (1, 3, 2), chips("two-odd-one-even", 15)))
    assert unit1["two-odd-one-even"].winnings == 22


def test_the_unit_is_the_one_in_force_when_the_outcome_was_stored() -> None:
    log = Log(profile="online-live", unit=1).start(1)
    log.slip(1, "p1", chips("two-odd-one-even", 15))
    log.close(1)
    log.change_unit(10)  # the sign changes before the result: the new unit rounds the pay
    log.confirm(1, (1, 3, 2))
    log.change_unit(5)  # a later change does not reach back
    facts = log.facts(1)
    assert facts.unit == 10
    assert wager_results(facts)[0].winnings == 20


# ---- the summary and the parts -------------------------------------------------------------


def test_summary_staked_returned_house_result_and_players() -> None:
    log = Log(profile="cca-1992").start(1)
    log.slip(1, "ann", chips("big", 100), chips("total:15", 10))
    log.slip(1, "bob", chips("small", 200))
    log.slip(1, "ann", promo("big", 50))
    log.close(1)
    log.confirm(1, (4, 5, 6))
    events = settle(log.facts(1), actor=SERVICE, at=NOW)
    *parts, summary = events
    assert [type(e) for e in parts] == [WagersSettled]
    assert isinstance(summary, RoundSettled)
    assert summary.basis is SettlementBasis.RESULT and summary.dice == (4, 5, 6)
    assert summary.paytable == "cca-1992@v1" and summary.unit == 1
    assert summary.staked == 360
    assert summary.returned == 200 + 190 + 0 + 50
    assert summary.house_result == summary.staked - summary.returned == -80
    assert summary.players == ["ann", "bob"]
    assert summary.wagers == 4 and summary.parts == 1 and summary.carried == 0
    assert summary.as_of == log.events[-1][0]
    assert all(e.actor == SERVICE and e.at == NOW and e.table == "T1" for e in events)


def test_wager_results_come_in_parts_of_at_most_500() -> None:
    log = Log(profile="cca-1992").start(1)
    for n in range(7):  # 7 slips of 200 wagers = 1400
        log.slip(1, f"p{n}", *[chips("big", 10 + i) for i in range(200)])
    log.close(1)
    log.confirm(1, (1, 2, 3))
    *parts, summary = settle(log.facts(1), actor=SERVICE, at=NOW)
    assert [len(p.wagers) for p in parts] == [PART_SIZE, PART_SIZE, 400]
    assert [p.part for p in parts] == [1, 2, 3]
    assert summary.parts == 3 and summary.wagers == 1400
    keys = [(w.slip_id, w.index) for p in parts for w in p.wagers]
    assert len(set(keys)) == 1400  # every wager exactly once


def test_a_round_without_wagers_is_one_summary() -> None:
    log = Log().start(1).close(1)
    log.confirm(1, (1, 2, 3))
    (summary,) = settle(log.facts(1), actor=SERVICE, at=NOW)
    assert isinstance(summary, RoundSettled)
    assert (summary.wagers, summary.parts, summary.staked, summary.players) == (0, 0, 0, [])


def test_withdrawn_and_changed_slips_settle_as_they_stood_000_3_12() -> None:
    log = Log().start(1)
    gone = log.slip(1, "p1", chips("big", 100))
    log.withdraw(1, "p1", gone, [chips("big", 100)])
    kept = log.slip(1, "p2", chips("big", 100))
    log.change(1, "p2", kept, [chips("big", 100)], [chips("small", 40), chips("big", 60)])
    log.close(1)
    log.confirm(1, (1, 2, 3))
    got = wager_results(log.facts(1))
    assert [(r.slip_id, r.index, r.bet, r.stake, r.returned) for r in got] == [
        (kept, 0, "small", 40, 80),
        (kept, 1, "big", 60, 0),
    ]


def test_no_settlement_before_an_outcome() -> None:
    log = Log().start(1).close(1)
    facts = log.facts(1)
    assert facts.basis is None and not facts.ended
    with pytest.raises(SettlementError):
        settle(facts, actor=SERVICE, at=NOW)
