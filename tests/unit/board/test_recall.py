"""Game recall (AGCO 13.1: the last 10 games) in full detail, from the log alone."""

from sicbo.board.readmodel import TableReadModel
from sicbo.board.recall import recall_round
from sicbo_contracts.board import Recall, RecallRound
from sicbo_contracts.settlement import SettlementBasis, WagerOutcome
from sicbo_contracts.wagers import Medium, Wager
from tests.support.common import TABLE
from tests.support.floor import Floor
from tests.support.wagers import chips

Out = WagerOutcome


def recall_of(floor: Floor, limit: int = 10) -> Recall:
    return TableReadModel.of_log(TABLE, floor.stored()).recall(limit)


def only(floor: Floor, n: int) -> RecallRound:
    got = recall_round(TABLE, n, floor.stored())
    assert got is not None
    return got


def test_the_last_10_rounds_oldest_first() -> None:
    floor = Floor("cca-1992")
    for n in range(1, 13):
        floor.result(((n % 6) + 1, 3, 4), [(f"p{n}", [chips("big", 100)])])
    floor.in_progress([("ann", [chips("small", 100)])])  # round 13: no outcome yet
    recall = recall_of(floor)
    assert recall.limit == 10 and recall.table == TABLE
    assert [r.round for r in recall.rounds] == list(range(3, 13))
    assert [r.wagers[0].player for r in recall.rounds] == [f"p{n}" for n in range(3, 13)]
    assert recall.as_of == floor.stored()[-1].seq
    assert [r.round for r in recall_of(floor, 3).rounds] == [10, 11, 12]


def test_every_wager_with_its_settlement() -> None:
    floor = Floor("cca-1992")
    promo = Wager(bet="small", stake=50, medium=Medium.PROMO)
    n = floor.result(
        (6, 4, 5),
        [
            ("ann", [chips("big", 200), chips("total:15", 100)]),
            ("bob", [chips("small", 300), promo]),
        ],
    )
    r = only(floor, n)
    assert (r.basis, r.dice, r.final_dice, r.paytable) == (
        SettlementBasis.RESULT,
        (4, 5, 6),
        (4, 5, 6),
        "cca-1992@v1",
    )
    assert [(w.slip_id, w.index, w.player, w.bet, w.stake, w.medium) for w in r.wagers] == [
        ("s1", 0, "ann", "big", 200, "chips"),
        ("s1", 1, "ann", "total:15", 100, "chips"),
        ("s2", 0, "bob", "small", 300, "chips"),
        ("s2", 1, "bob", "small", 50, "promo"),
    ]
    assert [(w.outcome, w.returned, w.final_outcome, w.final_returned) for w in r.wagers] == [
        (Out.WIN, 400, Out.WIN, 400),
        (Out.WIN, 100 + 18 * 100, Out.WIN, 1900),  # 000 §6.1: 18 to 1
        (Out.LOSE, 0, Out.LOSE, 0),
        (Out.LOSE, 0, Out.LOSE, 0),
    ]
    assert (r.settled, r.completed, r.staked, r.returned, r.house_result) == (
        True,
        True,
        650,
        2300,
        -1650,
    )
    assert r.void is None and r.corrections == [] and r.adjustments == [] and r.refund is None
    assert r.confirmed_at is not None and r.started_at < r.confirmed_at


def test_a_correction_and_its_adjustment() -> None:
    floor = Floor("cca-1992")
    n = floor.result(
        (5, 5, 4),
        [
            ("ann", [chips("single:5", 100), chips("total:15", 100)]),
            ("bob", [chips("single:6", 100)]),
        ],
    )
    seq = floor.correct(n, (5, 5, 4), (6, 5, 4))
    r = only(floor, n)
    assert (r.dice, r.final_dice) == ((4, 5, 5), (4, 5, 6))
    (correction,) = r.corrections
    assert (correction.seq, correction.before, correction.after) == (seq, (4, 5, 5), (4, 5, 6))
    assert correction.actor.role.value == "supervisor" and correction.reason
    (adjustment,) = r.adjustments
    assert (adjustment.correction_seq, adjustment.delta) == (seq, 2000)
    assert {(a.player, a.before.bet): a.delta for a in adjustment.wagers} == {
        ("ann", "single:5"): -100,
        ("ann", "total:15"): 1900,
        ("bob", "single:6"): 200,
    }
    # The wagers show what was settled, then the final result after the adjustment.
    assert [(w.bet, w.returned, w.final_returned) for w in r.wagers] == [
        ("single:5", 300, 200),
        ("total:15", 0, 1900),
        ("single:6", 0, 200),
    ]
    assert (r.staked, r.returned, r.house_result) == (300, 300 + 2000, 300 - 2300)


def test_a_correction_not_adjusted_yet_shows_the_settled_results() -> None:
    floor = Floor("cca-1992")
    n = floor.result((5, 5, 4), [("ann", [chips("single:6", 100)])])
    floor.correct(n, (5, 5, 4), (6, 5, 4), adjust=False)
    r = only(floor, n)
    assert r.final_dice == (4, 5, 6) and len(r.corrections) == 1 and r.adjustments == []
    assert [(w.outcome, w.final_outcome) for w in r.wagers] == [(Out.LOSE, Out.LOSE)]


def test_void_rounds_no_result_and_invalidation_with_a_forfeit() -> None:
    floor = Floor("cca-1992")
    refunded = floor.no_result([("ann", [chips("big", 200)])])
    forfeited = floor.invalidated(
        [("ann", [chips("big", 200)]), ("eve", [chips("triple:6", 500)])], "eve"
    )
    recall = recall_of(floor)
    first, second = recall.rounds
    assert (first.round, first.basis, first.dice) == (refunded, SettlementBasis.NO_RESULT, None)
    assert first.void is not None
    assert (first.void.basis, first.void.reason, first.void.consequence) == (
        SettlementBasis.NO_RESULT,
        "dice-not-flat",
        "refund",
    )
    assert [(w.outcome, w.returned) for w in first.wagers] == [(Out.VOID, 200)]
    assert second.void is not None
    assert (second.round, second.void.basis, second.void.reason, second.void.forfeits) == (
        forfeited,
        SettlementBasis.INVALIDATED,
        "fraud",
        ["eve"],
    )
    assert second.void.actor.role.value == "supervisor"
    assert [(w.player, w.outcome, w.returned) for w in second.wagers] == [
        ("ann", Out.VOID, 200),
        ("eve", Out.FORFEIT, 0),
    ]
    assert second.house_result == 500


def test_carried_wagers_are_recalled_in_both_rounds_002_2003_art_3_3() -> None:
    floor = Floor("macau-2003")
    void = floor.no_result([("ann", [chips("big", 100)])], consequence="carry-over-locked")
    rerun = floor.result((6, 5, 4), [("bob", [chips("small", 100)])])
    first, second = recall_of(floor).rounds
    assert first.round == void and first.void is not None
    assert first.void.consequence == "carry-over-locked"
    assert [(w.player, w.outcome, w.carried_in) for w in first.wagers] == [
        ("ann", Out.CARRIED, False)
    ]
    assert second.round == rerun
    assert [(w.player, w.outcome, w.returned, w.carried_in) for w in second.wagers] == [
        ("ann", Out.WIN, 200, True),
        ("bob", Out.LOSE, 0, False),
    ]


def test_a_round_not_settled_yet_lists_its_standing_wagers_carried_ones_too() -> None:
    floor = Floor("macau-2003")
    floor.no_result([("ann", [chips("big", 100)])], consequence="carry-over-locked")
    n = floor.result((1, 2, 3), [("bob", [chips("small", 100)])], settle=False)
    model = TableReadModel.of_log(TABLE, floor.stored())
    r = model.recall().rounds[-1]
    assert r.round == n and model.chain(n) == [n - 1, n]
    assert not r.settled and not r.completed
    assert (r.staked, r.returned, r.house_result) == (None, None, None)
    assert [(w.player, w.bet, w.carried_in, w.outcome) for w in r.wagers] == [
        ("ann", "big", True, None),
        ("bob", "small", False, None),
    ]


def test_a_result_cancelled_afterwards_is_refunded_004() -> None:
    floor = Floor("online-live")
    n = floor.result((1, 2, 4), [("ann", [chips("small", 100)]), ("bob", [chips("big", 100)])])
    cancel_seq = floor.cancel_after_result(n)
    r = only(floor, n)
    assert r.basis is SettlementBasis.CANCELLED and r.dice == (1, 2, 4)
    assert r.void is not None and r.void.reason == "no quick fix"
    assert r.refund is not None and r.refund.cancel_seq == cancel_seq
    assert [(w.outcome, w.returned, w.final_outcome, w.final_returned) for w in r.wagers] == [
        (Out.WIN, 200, Out.VOID, 100),
        (Out.LOSE, 0, Out.VOID, 100),
    ]
    assert (r.staked, r.returned, r.house_result) == (200, 200, 0)


def test_a_round_being_played_is_not_recalled() -> None:
    floor = Floor("cca-1992")
    n = floor.in_progress([("ann", [chips("big", 100)])])
    assert recall_round(TABLE, n, floor.stored()) is None
    assert recall_of(floor).rounds == []
