"""000 §8.3.1: a player's wagers declared void are settled void (the stake returned, no
winnings) whatever the round's basis, recorded in the summary, kept void by a correction, and
never carried into a re-run after "no result" to be paid again."""

import pytest

from sicbo.settlement.compensation import adjust
from sicbo.settlement.engine import settle, wager_results
from sicbo_contracts.settlement import RoundSettled, WagerOutcome, WagerResult
from tests.support.common import NOW, SERVICE, TABLE
from tests.support.log import Log
from tests.support.wagers import chips, promo


def table(profile: str = "cca-1992") -> Log:
    log = Log(profile=profile).start(1)
    log.slip(1, "ann", chips("big", 100), promo("small", 50))
    log.slip(1, "bob", chips("big", 30))
    return log


def outcomes(results: list[WagerResult]) -> list[tuple[str, str, WagerOutcome, int, int]]:
    return [(r.player, r.bet, r.outcome, r.winnings, r.returned) for r in results]


def summary_of(log: Log, round_no: int) -> RoundSettled:
    *_, summary = settle(log.facts(round_no), actor=SERVICE, at=NOW)
    assert isinstance(summary, RoundSettled)
    return summary


def test_000_8_3_1_a_voided_players_wagers_are_void_on_a_confirmed_result() -> None:
    log = table()
    log.void_wagers(1, "ann")
    log.close(1)
    log.confirm(1, (4, 5, 6))  # big wins
    assert log.facts(1).voided == ("ann",)
    assert outcomes(wager_results(log.facts(1))) == [
        ("ann", "big", WagerOutcome.VOID, 0, 100),  # a winner, void: the stake only
        ("ann", "small", WagerOutcome.VOID, 0, 50),  # the token returned too (000 §1.1)
        ("bob", "big", WagerOutcome.WIN, 30, 60),
    ]
    summary = summary_of(log, 1)
    assert summary.voided == ["ann"]
    assert (summary.staked, summary.returned, summary.house_result) == (180, 210, -30)


def test_000_8_3_1_a_void_after_the_outcome_does_not_count() -> None:
    """The lifecycle refuses it; a log that holds one anyway settles by the outcome."""
    log = table()
    log.close(1)
    log.confirm(1, (4, 5, 6))
    log.void_wagers(1, "ann")
    assert log.facts(1).voided == ()
    assert {r.outcome for r in wager_results(log.facts(1))} == {WagerOutcome.WIN, WagerOutcome.LOSE}


@pytest.mark.parametrize(
    ("profile", "consequence"),
    [("macau-2003", "carry-over-locked"), ("macau-2004", "player-choice")],
)
def test_000_8_3_1_voided_wagers_are_returned_in_the_void_round_never_carried(
    profile: str, consequence: str
) -> None:
    log = table(profile)
    log.void_wagers(1, "ann")
    log.close(1)
    log.no_result(1, consequence)
    assert outcomes(wager_results(log.facts(1))) == [
        ("ann", "big", WagerOutcome.VOID, 0, 100),
        ("ann", "small", WagerOutcome.VOID, 0, 50),
        ("bob", "big", WagerOutcome.CARRIED, 0, 0),
    ]
    void_round = summary_of(log, 1)
    assert (void_round.staked, void_round.returned, void_round.carried) == (150, 150, 30)
    log.complete(1, "ann", "bob")
    log.start(2)
    log.close(2)
    log.confirm(2, (4, 5, 6))
    # The re-run settles bob's carried wager only: ann's were paid back once, in round 1.
    assert outcomes(wager_results(log.facts(2))) == [("bob", "big", WagerOutcome.WIN, 30, 60)]
    assert summary_of(log, 2).voided == []


def test_000_8_3_1_a_void_declared_in_the_rerun_voids_the_carried_wagers_too() -> None:
    log = table("macau-2003")
    log.close(1)
    log.no_result(1, "carry-over-locked")
    log.complete(1, "ann", "bob")
    log.start(2)
    log.void_wagers(2, "ann")
    log.close(2)
    log.confirm(2, (4, 5, 6))
    got = wager_results(log.facts(2))
    assert [(r.player, r.outcome, r.returned, r.carried_in) for r in got] == [
        ("ann", WagerOutcome.VOID, 100, True),
        ("ann", WagerOutcome.VOID, 50, True),
        ("bob", WagerOutcome.WIN, 60, True),
    ]


def test_000_8_5_a_forfeit_on_an_invalidation_for_fraud_takes_precedence() -> None:
    log = table()
    log.void_wagers(1, "ann")
    log.void_wagers(1, "bob")
    log.close(1)
    log.invalidate(1, "ann")
    assert [(r.player, r.outcome, r.returned) for r in wager_results(log.facts(1))] == [
        ("ann", WagerOutcome.FORFEIT, 0),
        ("ann", WagerOutcome.FORFEIT, 0),
        ("bob", WagerOutcome.VOID, 30),
    ]


def test_000_8_3_1_a_correction_leaves_voided_wagers_void() -> None:
    log = table()
    log.void_wagers(1, "ann")
    log.close(1)
    log.confirm(1, (1, 2, 3))  # small wins: ann's token would win, void it is not paid
    summary = summary_of(log, 1)
    (adjusted,) = adjust(
        wager_results(log.facts(1)),
        table=TABLE,
        round_no=1,
        paytable=summary.paytable,
        unit=summary.unit,
        before=(1, 2, 3),
        after=(4, 5, 6),
        correction_seq=99,
        actor=SERVICE,
        at=NOW,
        voided_players=summary.voided,
    )
    assert [(a.player, a.before.outcome, a.after.outcome) for a in adjusted.adjustments] == [
        ("bob", WagerOutcome.LOSE, WagerOutcome.WIN)
    ]
