"""Rounds without a valid result: no result (000 §7.5; 002 art. 3(3)(4); 004), invalidated
(000 §8.4-8.5) and cancelled (004 "Ralat Pengendalian")."""

import pytest

from sicbo.settlement.engine import SettlementError, settle, wager_results
from sicbo_contracts.settlement import RoundSettled, SettlementBasis, WagerOutcome
from sicbo_contracts.wagers import CarriedChoice
from tests.support.common import NOW, SERVICE
from tests.support.log import Log
from tests.support.wagers import chips, color, promo


def void_table(profile: str = "cca-1992") -> Log:
    log = Log(profile=profile).start(1)
    log.slip(1, "ann", chips("big", 100), promo("small", 50))
    log.slip(1, "bob", color("triple:6", 30))
    log.close(1)
    return log


def test_no_result_refunds_every_wager_token_included_000_7_5() -> None:
    log = void_table("cca-1992")
    log.no_result(1, "refund")
    *_, summary = settle(log.facts(1), actor=SERVICE, at=NOW)
    got = wager_results(log.facts(1))
    assert {r.outcome for r in got} == {WagerOutcome.VOID}
    # 000 §7.5 all wagers void; 000 §1.1 forfeits a token only after a valid result.
    assert [(r.medium, r.returned, r.winnings) for r in got] == [
        ("chips", 100, 0),
        ("promo", 50, 0),
        ("color", 30, 0),
    ]
    assert isinstance(summary, RoundSettled)
    assert summary.basis is SettlementBasis.NO_RESULT and summary.consequence == "refund"
    assert (summary.staked, summary.returned, summary.house_result) == (180, 180, 0)
    assert summary.dice is None


@pytest.mark.parametrize(
    ("profile", "consequence"),
    [
        ("macau-2003", "carry-over-locked"),
        ("online-live", "carry-over-locked"),
        ("macau-2004", "player-choice"),
    ],
)
def test_carried_wagers_stay_for_the_re_run_002_art_3_3_004(profile: str, consequence: str) -> None:
    log = void_table(profile)
    log.no_result(1, consequence)
    *_, summary = settle(log.facts(1), actor=SERVICE, at=NOW)
    got = wager_results(log.facts(1))
    assert {(r.outcome, r.returned) for r in got} == {(WagerOutcome.CARRIED, 0)}
    assert isinstance(summary, RoundSettled)
    # Nothing is collected or returned: the stakes are reported as carried, not staked.
    assert (summary.staked, summary.returned, summary.house_result) == (0, 0, 0)
    assert summary.carried == 180 and summary.consequence == consequence
    assert summary.players == ["ann", "bob"]


def test_carried_wagers_settle_in_the_re_run_round_002_2003_art_3_3() -> None:
    log = void_table("macau-2003")
    log.no_result(1, "carry-over-locked")
    log.complete(1, "ann", "bob")
    log.start(2)
    log.slip(2, "cat", chips("big", 10))  # new bets are accepted for the re-run (art. 3(3))
    log.close(2)
    log.confirm(2, (6, 6, 6))
    got = wager_results(log.facts(2))
    assert [(r.player, r.bet, r.outcome, r.carried_in) for r in got] == [
        ("ann", "big", WagerOutcome.LOSE, True),
        ("ann", "small", WagerOutcome.LOSE, True),
        ("bob", "triple:6", WagerOutcome.WIN, True),
        ("cat", "big", WagerOutcome.LOSE, False),
    ]
    assert got[2].returned == 30 + 150 * 30


def test_a_player_may_cancel_or_change_a_carried_slip_002_2004_art_3_4() -> None:
    log = Log(profile="macau-2004").start(1)
    s1 = log.slip(1, "ann", chips("big", 100))
    s2 = log.slip(1, "bob", chips("small", 100))
    s3 = log.slip(1, "cat", chips("odd", 100))
    log.close(1)
    log.no_result(1, "player-choice")
    log.complete(1, "ann", "bob", "cat")
    log.start(2)
    log.choose(2, "ann", s1, CarriedChoice.CANCEL, [chips("big", 100)], [])
    log.choose(2, "bob", s2, CarriedChoice.CHANGE, [chips("small", 100)], [chips("small", 40)])
    log.choose(2, "cat", s3, CarriedChoice.KEEP, [chips("odd", 100)], [chips("odd", 100)])
    log.close(2)
    log.confirm(2, (1, 2, 4))
    got = wager_results(log.facts(2))
    assert [(r.slip_id, r.bet, r.stake, r.returned, r.carried_in) for r in got] == [
        (s2, "small", 40, 80, True),
        (s3, "odd", 100, 200, True),
    ]


def test_invalidation_refunds_and_forfeits_the_fraudsters_wagers_000_8_5() -> None:
    log = void_table("cca-1992")
    log.confirm(1, (6, 6, 6))  # bob's triple would have won 180 to 1 ...
    log.invalidate(1, "bob")  # ... but the supervisor found fraud (000 §8.4.2)
    facts = log.facts(1)
    assert facts.basis is SettlementBasis.INVALIDATED and facts.forfeits == ("bob",)
    got = wager_results(facts)
    assert [(r.player, r.outcome, r.returned) for r in got] == [
        ("ann", WagerOutcome.VOID, 100),
        ("ann", WagerOutcome.VOID, 50),  # the token goes back too
        ("bob", WagerOutcome.FORFEIT, 0),
    ]
    *_, summary = settle(facts, actor=SERVICE, at=NOW)
    assert isinstance(summary, RoundSettled)
    assert summary.forfeits == ["bob"] and summary.dice is None
    assert (summary.staked, summary.returned, summary.house_result) == (180, 150, 30)


def test_invalidation_for_a_disruption_refunds_everyone_000_8_4_1() -> None:
    log = void_table("cca-1992")
    log.invalidate(1, fraud=False)
    assert {(r.outcome, r.returned) for r in wager_results(log.facts(1))} == {
        (WagerOutcome.VOID, 100),
        (WagerOutcome.VOID, 50),
        (WagerOutcome.VOID, 30),
    }


def test_a_cancelled_round_refunds_every_wager_004() -> None:
    log = void_table("online-live")
    log.confirm(1, (1, 2, 3))  # 004: suspended after the result, no quick fix: cancelled
    log.cancel(1)
    facts = log.facts(1)
    assert facts.basis is SettlementBasis.CANCELLED and facts.dice == (1, 2, 3)
    assert [r.returned for r in wager_results(facts)] == [100, 50, 30]
    *_, summary = settle(facts, actor=SERVICE, at=NOW)
    assert isinstance(summary, RoundSettled) and summary.house_result == 0


def test_a_confirmation_after_no_result_leaves_the_round_void() -> None:
    log = void_table("cca-1992")
    log.no_result(1, "refund")
    log.confirm(1, (1, 2, 3))
    assert log.facts(1).basis is SettlementBasis.NO_RESULT


def test_an_outcome_after_completion_does_not_change_the_basis() -> None:
    log = void_table("cca-1992")
    log.confirm(1, (1, 2, 3))
    log.complete(1, "ann", "bob")
    log.invalidate(1, "bob")  # refused by the lifecycle; a log replays whatever it holds
    facts = log.facts(1)
    assert facts.basis is SettlementBasis.RESULT and facts.completed


def test_an_unknown_no_result_consequence_is_not_guessed() -> None:
    log = void_table("cca-1992")
    log.no_result(1, "something-new")
    with pytest.raises(SettlementError):
        wager_results(log.facts(1))
