"""004 "Ralat Pengendalian": a round settled by its result, then suspended and cancelled
because the fault was not fixed in time, has every wager refunded by a compensating void."""

from sicbo.settlement.compensation import adjust, apply_adjustments, void, voided
from sicbo.settlement.engine import PART_SIZE, settle
from sicbo_contracts.settlement import SettlementBasis, WagerOutcome, WagerResult
from tests.support.common import NOW, SERVICE, TABLE
from tests.support.log import Log
from tests.support.wagers import chips, promo


def settled_then_cancelled() -> tuple[Log, list[WagerResult], int]:
    log = Log(profile="online-live", unit=1).start(1)
    log.slip(1, "ann", chips("big", 100), promo("small", 50))
    log.slip(1, "bob", chips("single:6", 20), chips("odd", 30))
    log.close(1)
    log.confirm(1, (3, 4, 6))  # total 13: big wins, small loses, one 6, odd wins
    events = settle(log.facts(1), actor=SERVICE, at=NOW)
    results = [w for e in events[:-1] for w in e.wagers]  # type: ignore[union-attr]
    log.complete(1, "ann", "bob")
    cancel_seq = log.cancel(1)
    return log, results, cancel_seq


def void_of(current: list[WagerResult], cancel_seq: int = 99) -> list:
    return void(
        current,
        table=TABLE,
        round_no=1,
        cancel_seq=cancel_seq,
        reason="lamps not fixed in time",
        actor=SERVICE,
        at=NOW,
    )


def test_every_wager_is_refunded_the_token_too_004() -> None:
    _, results, cancel_seq = settled_then_cancelled()
    [refund] = void_of(results, cancel_seq)
    assert (refund.cancel_seq, refund.reason, refund.part, refund.parts) == (
        cancel_seq,
        "lamps not fixed in time",
        1,
        1,
    )
    rows = {
        (a.before.bet, a.before.returned, a.after.outcome, a.after.returned, a.delta)
        for a in refund.adjustments
    }
    assert rows == {
        ("big", 200, WagerOutcome.VOID, 100, -100),
        ("small", 0, WagerOutcome.VOID, 50, 50),  # a void round returns the token (000 §1.1)
        ("single:6", 40, WagerOutcome.VOID, 20, -20),
        ("odd", 60, WagerOutcome.VOID, 30, -30),
    }
    assert refund.delta == -100
    final = apply_adjustments(results, [refund])
    assert [(r.outcome, r.winnings, r.returned) for r in final] == [
        (WagerOutcome.VOID, 0, r.stake) for r in results
    ]
    assert sum(r.returned for r in final) == sum(r.stake for r in results)


def test_a_void_starts_from_the_adjusted_results() -> None:
    _, results, _ = settled_then_cancelled()
    corrected = adjust(
        results,
        table=TABLE,
        round_no=1,
        paytable="online-live@v1",
        unit=1,
        before=(3, 4, 6),
        after=(1, 2, 3),
        correction_seq=50,
        actor=SERVICE,
        at=NOW,
    )
    current = apply_adjustments(results, corrected)
    [refund] = void_of(current)
    assert all(a.before == c for a, c in zip(refund.adjustments, current, strict=False))
    assert sum(r.returned for r in apply_adjustments(current, [refund])) == 200


def test_wagers_already_refunded_are_left_out_and_an_empty_round_still_records_the_void() -> None:
    _, results, _ = settled_then_cancelled()
    refunded = [voided(r) for r in results]
    [nothing] = void_of(refunded)
    assert nothing.adjustments == [] and nothing.delta == 0
    [empty] = void_of([])
    assert empty.adjustments == [] and empty.parts == 1


def test_a_big_round_is_voided_in_parts() -> None:
    _, results, _ = settled_then_cancelled()
    many = [r for n in range(PART_SIZE) for r in (results[0], results[2])]
    many = [
        WagerResult(**{**{f: getattr(r, f) for f in r.__struct_fields__}, "slip_id": f"s{n}"})
        for n, r in enumerate(many)
    ]
    parts = void_of(many)
    assert [p.part for p in parts] == [1, 2] and {p.parts for p in parts} == {2}
    assert sum(len(p.adjustments) for p in parts) == 2 * PART_SIZE


def test_the_log_shows_the_cancellation_after_the_round_was_completed() -> None:
    log, _, cancel_seq = settled_then_cancelled()
    facts = log.facts(1)
    # The settlement stands on the result (the round was completed before the cancellation)...
    assert facts.basis is SettlementBasis.RESULT and facts.completed
    # ...and the cancellation that calls for the void is found in the log.
    cancellation = log.table_log().cancellation(1)
    assert cancellation is not None and cancellation.seq == cancel_seq
    assert cancellation.reason == "no quick fix"


def test_a_round_cancelled_before_it_is_settled_is_settled_as_cancelled() -> None:
    log = Log(profile="online-live", unit=1).start(1)
    log.slip(1, "ann", chips("big", 100))
    log.close(1)
    log.confirm(1, (3, 4, 6))
    log.cancel(1)  # before settlement completed the round: no void needed
    *_, summary = settle(log.facts(1), actor=SERVICE, at=NOW)
    assert summary.basis is SettlementBasis.CANCELLED  # type: ignore[union-attr]
    assert summary.returned == 100  # type: ignore[union-attr]
