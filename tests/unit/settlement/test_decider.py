"""Settlement's decider: what is due for a round, folded from the table's log (pure).

Given the log (lifecycle, bets and the settlement's own summaries), ``due`` says the one next
step: settle, void, adjust or complete, or nothing; the service carries it out and replay's
audit asks the same functions what is still pending."""

from typing import Any

import msgspec

from sicbo.settlement.decider import (
    KEEP_ROUNDS,
    Adjust,
    Complete,
    Settle,
    SettlementState,
    Void,
    corrections_due,
    due,
    evolve,
    forget_old,
    initial_state,
    void_due,
)
from sicbo_contracts.settlement import RoundSettled, SettlementBasis, WagerOutcome
from tests.support.common import TABLE
from tests.support.lifecycle import config, round_started, table_closed, table_opened
from tests.support.log import Log
from tests.support.stream import StoredLog
from tests.support.wagers import chips


def folded(stored: StoredLog) -> SettlementState:
    """The decider's state after every event of the log, in stream order."""
    state = initial_state(TABLE)
    events: list[tuple[int, Any]] = [*stored.log.events]
    events += [(seq, e) for seq, _, e in stored.settle_events]
    for seq, event in sorted(events, key=lambda pair: pair[0]):
        state = evolve(state, seq, event)
    return state


def played(dice: tuple[int, int, int] = (1, 2, 3)) -> tuple[StoredLog, int]:
    log = Log().start(1)
    log.slip(1, "ann", chips("big", 100))
    log.close(1)
    return StoredLog(log), log.confirm(1, dice)


def summary_of(stored: StoredLog) -> RoundSettled:
    return next(e for _, _, e in stored.settle_events if isinstance(e, RoundSettled))


def test_nothing_is_due_before_the_round_has_an_outcome() -> None:
    log = Log().start(1)
    log.slip(1, "ann", chips("big", 100))
    assert due(folded(StoredLog(log)), 1) is None
    assert due(folded(StoredLog(log)), 2) is None  # a round that never started


def test_000_7_6_a_confirmed_result_is_settled_first() -> None:
    stored, confirmed = played()
    step = due(folded(stored), 1)
    assert isinstance(step, Settle)
    assert step.facts.basis is SettlementBasis.RESULT and step.facts.as_of == confirmed
    assert [w.player for w in step.facts.wagers] == ["ann"]


def test_002_art_4_a_settled_round_is_completed_then_nothing_is_due() -> None:
    stored, _ = played()
    stored.settle(1)
    step = due(folded(stored), 1)
    assert step == Complete(("ann",))
    stored.log.complete(1, "ann")
    assert due(folded(stored), 1) is None


def test_a_round_is_settled_once_whatever_the_log_says_later() -> None:
    stored, _ = played()
    stored.settle(1)
    stored.settle(1)  # a second RoundSettled (a forged or doubled settlement)
    state = folded(stored)
    assert state.paid_for(1).summary == summary_of(stored)  # the first one counts
    assert not isinstance(due(state, 1), Settle)


def test_gli_19_4_18_4_a_correction_after_the_settlement_is_adjusted_to_the_latest() -> None:
    stored, _ = played((1, 2, 3))
    stored.settle(1)
    first = stored.log.correct(1, (1, 2, 3), (4, 5, 6))
    latest = stored.log.correct(1, (4, 5, 6), (5, 6, 6))
    step = due(folded(stored), 1)
    assert isinstance(step, Adjust)
    assert step.correction.seq == latest and step.correction.after == (5, 6, 6)
    summary = summary_of(stored)
    log = folded(stored).log
    assert [c.seq for c in corrections_due(log, 1, summary, summary.as_of)] == [first, latest]
    stored.adjust(1, (1, 2, 3), (5, 6, 6), latest)
    assert due(folded(stored), 1) == Complete(("ann",))  # adjusted: only completion is left


def test_a_correction_of_a_void_round_only_records_the_dice() -> None:
    log = Log().start(1)
    log.slip(1, "ann", chips("big", 100))
    log.close(1)
    log.no_result(1, "refund")
    stored = StoredLog(log)
    stored.settle(1)
    log.confirm(1, (1, 1, 2))  # a late confirmation after "no result"
    log.correct(1, (1, 1, 2), (3, 3, 4))
    state = folded(stored)
    summary = summary_of(stored)
    assert summary.basis is SettlementBasis.NO_RESULT
    assert corrections_due(state.log, 1, summary, summary.as_of) == []
    assert due(state, 1) == Complete(("ann",))


def test_004_a_round_cancelled_after_its_result_is_voided_once() -> None:
    stored, _ = played()
    stored.settle(1)
    cancel_seq = stored.log.cancel(1)
    step = due(folded(stored), 1)
    assert isinstance(step, Void) and step.cancellation.seq == cancel_seq
    assert void_due(folded(stored).log, 1, summary_of(stored)) == step.cancellation
    stored.void(1, cancel_seq)
    assert due(folded(stored), 1) == Complete(("ann",))


def test_004_a_void_outranks_a_pending_correction() -> None:
    stored, _ = played()
    stored.settle(1)
    stored.log.correct(1, (1, 2, 3), (4, 5, 6))
    stored.log.cancel(1)
    assert isinstance(due(folded(stored), 1), Void)  # refunded: the corrections no longer matter


def test_000_8_4_a_round_invalidated_after_it_was_paid_is_voided_with_its_forfeits() -> None:
    stored, _ = played()
    stored.settle(1)
    stored.log.complete(1, "ann")
    invalidated_seq = stored.log.invalidate(1, "ann")  # fraud: ann's wagers forfeited (§8.5)
    step = due(folded(stored), 1)
    assert isinstance(step, Void)
    assert (step.cancellation.seq, step.cancellation.forfeits) == (invalidated_seq, ("ann",))
    [voided] = stored.void(1, invalidated_seq)
    assert [(a.after.outcome, a.after.returned) for a in voided.adjustments] == [
        (WagerOutcome.FORFEIT, 0)
    ]
    assert due(folded(stored), 1) is None  # voided once, and completed before


def test_000_8_4_a_result_invalidated_before_it_was_paid_is_settled_as_invalidated() -> None:
    stored, _ = played()
    stored.log.invalidate(1, fraud=False)
    step = due(folded(stored), 1)
    assert isinstance(step, Settle) and step.facts.basis is SettlementBasis.INVALIDATED


def test_a_cancellation_before_the_result_is_the_outcome_itself() -> None:
    log = Log().start(1)
    log.slip(1, "ann", chips("big", 100))
    log.cancel(1)
    step = due(folded(StoredLog(log)), 1)
    assert isinstance(step, Settle) and step.facts.basis is SettlementBasis.CANCELLED


def test_old_rounds_are_forgotten_and_the_newest_kept() -> None:
    log = Log()
    last = KEEP_ROUNDS + 5
    for n in range(1, last + 1):
        log.start(n)
        log.close(n)
        log.confirm(n, (1, 2, 3))
    stored = StoredLog(log)
    for n in range(1, last + 1):
        stored.settle(n)
        log.complete(n)
    state = folded(stored)
    forget_old(state)
    assert state.kept_from == last - KEEP_ROUNDS
    assert min(state.log.rounds()) == last - KEEP_ROUNDS
    assert all(r >= state.kept_from for r in state.completed)
    assert due(state, last) is None


def played_rounds(last: int) -> StoredLog:
    """Rounds 1..``last`` played, each settled and completed (ann wagers on big)."""
    log = Log()
    stored = StoredLog(log)
    for n in range(1, last + 1):
        log.start(n)
        log.slip(n, "ann", chips("big", 100))
        log.close(n)
        log.confirm(n, (1, 2, 3))
        stored.settle(n)
        log.complete(n, "ann")
    return stored


def test_gli_19_4_18_4_an_earlier_round_corrected_after_later_rounds_is_adjusted() -> None:
    stored = played_rounds(3)
    correction = stored.log.correct(1, (1, 2, 3), (4, 5, 6))  # round 1, after round 3
    step = due(folded(stored), 1)
    assert isinstance(step, Adjust) and step.correction.seq == correction
    assert due(folded(stored), 3) is None  # the later rounds owe nothing
    stored.adjust(1, (1, 2, 3), (4, 5, 6), correction)
    assert due(folded(stored), 1) is None  # adjusted once


def test_gli_19_4_18_4_a_forgotten_round_is_adjusted_from_its_own_events_alone() -> None:
    """The table's state forgets rounds older than KEEP_ROUNDS; the round's own events (its
    lifecycle and settlement subjects, which the settler reads again) still say what is due."""
    stored = played_rounds(KEEP_ROUNDS + 3)
    correction = stored.log.correct(1, (1, 2, 3), (4, 5, 6))
    table = folded(stored)
    forget_old(table)
    assert table.kept_from > 1 and due(table, 1) is None  # forgotten: not found there
    alone = initial_state(TABLE)
    events: list[tuple[int, Any]] = [*stored.log.events]
    events += [(seq, e) for seq, _, e in stored.settle_events]
    for seq, event in sorted(events, key=lambda pair: pair[0]):
        if getattr(event, "round", None) == 1:
            alone = evolve(alone, seq, event)
    step = due(alone, 1)
    assert isinstance(step, Adjust) and step.correction.seq == correction


def test_a_round_is_chips_only_while_its_table_states_no_currency() -> None:
    """Settlement reads and pays no account for a round started while its table stated no
    currency (no slip of it was debited); a round of a table reopened in a currency has its
    accounts again, and a round whose TableOpened was not read (read alone) is never taken
    for chips only."""
    in_euros = msgspec.structs.replace(config(), currency="EUR")
    state = initial_state(TABLE)
    for seq, event in enumerate(
        (
            table_opened(),
            round_started(1),
            table_closed(),
            msgspec.structs.replace(table_opened(), config=in_euros),
            round_started(2),
        ),
        start=1,
    ):
        state = evolve(state, seq, event)
    assert state.chips_only(1) and not state.chips_only(2)
    alone = evolve(initial_state(TABLE), 7, round_started(3))
    assert not alone.chips_only(3)
