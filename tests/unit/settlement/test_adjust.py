"""A corrected result is compensated wager by wager; the settlement is never rewritten."""

from sicbo.settlement.compensation import adjust, apply_adjustments
from sicbo.settlement.engine import PART_SIZE, settle, wager_results, with_dice
from sicbo_contracts.settlement import SettlementAdjusted, WagerOutcome, WagerResult
from tests.support.common import NOW, SERVICE, TABLE
from tests.support.log import Log
from tests.support.wagers import chips, promo


def settled_round() -> tuple[Log, list[WagerResult]]:
    log = Log(profile="cca-1992", unit=1).start(1)
    log.slip(1, "ann", chips("big", 100), chips("total:12", 10), promo("small", 50))
    log.slip(1, "bob", chips("single:6", 20))
    log.close(1)
    log.confirm(1, (3, 4, 5))
    return log, wager_results(log.facts(1))


def adjust_to(current: list[WagerResult], before, after, seq: int = 99) -> list[SettlementAdjusted]:
    return adjust(
        current,
        table=TABLE,
        round_no=1,
        paytable="cca-1992@v1",
        unit=1,
        before=before,
        after=after,
        correction_seq=seq,
        actor=SERVICE,
        at=NOW,
    )


def test_only_wagers_whose_result_changes_are_adjusted() -> None:
    _, current = settled_round()
    # 3-4-5 (total 12): big wins, total:12 wins 7:1, token on small loses, single:6 loses.
    # corrected to 3-4-6 (total 13): big wins, total:12 loses, single:6 wins 1:1.
    (adjusted,) = adjust_to(current, (3, 4, 5), (3, 4, 6))
    assert [(a.slip_id, a.index, a.player) for a in adjusted.adjustments] == [
        ("s1", 1, "ann"),
        ("s2", 0, "bob"),
    ]
    total12, single6 = adjusted.adjustments
    assert total12.before.returned == 80 and total12.after.outcome is WagerOutcome.LOSE
    assert total12.delta == -80
    assert single6.before == current[3] and single6.after.returned == 40
    assert single6.delta == 40
    assert adjusted.delta == -40  # total change of what goes back to players
    assert (adjusted.before, adjusted.after, adjusted.correction_seq) == ((3, 4, 5), (3, 4, 6), 99)
    assert (adjusted.part, adjusted.parts, adjusted.round) == (1, 1, 1)


def test_adjusted_results_equal_a_settlement_by_the_corrected_dice() -> None:
    log, current = settled_round()
    events = adjust_to(current, (3, 4, 5), (1, 1, 1))
    after = apply_adjustments(current, events)
    assert after == wager_results(with_dice(log.facts(1), (1, 1, 1)))
    assert sum(e.delta for e in events) == sum(r.returned for r in after) - sum(
        r.returned for r in current
    )


def test_a_promotional_token_win_is_adjusted_to_winnings_only_000_1_1() -> None:
    _, current = settled_round()
    (adjusted,) = adjust_to(current, (3, 4, 5), (1, 2, 3))
    token = next(a for a in adjusted.adjustments if a.after.medium == "promo")
    assert (token.before.returned, token.after.returned, token.delta) == (0, 50, 50)


def test_a_correction_that_changes_nothing_is_still_recorded() -> None:
    _, current = settled_round()
    (same,) = adjust_to(current, (3, 4, 5), (5, 4, 3))  # the same result, listed otherwise
    assert same.adjustments == [] and same.delta == 0 and (same.part, same.parts) == (1, 1)


def test_a_second_correction_adjusts_from_the_first() -> None:
    log, current = settled_round()
    first = adjust_to(current, (3, 4, 5), (3, 4, 6), seq=50)
    now = apply_adjustments(current, first)
    second = adjust_to(now, (3, 4, 6), (2, 2, 2), seq=60)
    final = apply_adjustments(now, second)
    assert final == apply_adjustments(current, [*first, *second])
    assert final == wager_results(with_dice(log.facts(1), (2, 2, 2)))
    by_key = {(r.slip_id, r.index): r for r in now}
    assert all(a.before == by_key[a.slip_id, a.index] for a in second[0].adjustments)


def test_big_adjustments_come_in_parts_of_500() -> None:
    log = Log(profile="cca-1992").start(1)
    for n in range(6):
        log.slip(1, f"p{n}", *[chips("big", 10) for _ in range(200)])
    log.close(1)
    log.confirm(1, (4, 5, 6))  # 1200 big wagers win
    *parts, _ = settle(log.facts(1), actor=SERVICE, at=NOW)
    current = [w for p in parts for w in p.wagers]
    events = adjust_to(current, (4, 5, 6), (1, 2, 3))  # now they all lose
    assert [len(e.adjustments) for e in events] == [PART_SIZE, PART_SIZE, 200]
    assert [(e.part, e.parts) for e in events] == [(1, 3), (2, 3), (3, 3)]
    assert sum(e.delta for e in events) == -1200 * 20
