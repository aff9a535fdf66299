"""Replay of a round settled by its result and then cancelled (004 "Ralat Pengendalian"): the
SettlementVoided refunds every wager, and replay accounts for it."""

import msgspec

from sicbo.replay.report import MATCH, MISMATCH, round_report
from sicbo.replay.verify import verify
from sicbo.settlement.engine import settle
from sicbo_contracts.settlement import WagerOutcome
from tests.support.common import NOW, SERVICE, TABLE
from tests.support.lifecycle import invalidated
from tests.support.log import Log
from tests.support.stream import StoredLog
from tests.support.wagers import chips, promo


def settled_and_cancelled() -> tuple[StoredLog, int]:
    log = Log(profile="online-live", unit=10).start(1)
    log.slip(1, "ann", chips("big", 100), promo("small", 50))
    log.slip(1, "bob", chips("total:13", 20))
    log.close(1)
    log.confirm(1, (3, 4, 6))
    stored = StoredLog(log)
    stored.settle(1)
    log.complete(1, "ann", "bob")
    cancel_seq = log.cancel(1)
    return stored, cancel_seq


def test_a_voided_round_matches_its_replay_every_wager_refunded() -> None:
    stored, cancel_seq = settled_and_cancelled()
    stored.void(1, cancel_seq)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MATCH and report.problems == [], report.problems
    assert report.voided_by == cancel_seq and report.pending_corrections == []
    assert [(w.bet, w.outcome, w.settled, w.recorded, w.recomputed) for w in report.wagers] == [
        ("big", "void", 200, 100, 100),
        ("small", "void", 0, 50, 50),  # the token is returned (000 §1.1: a void round)
        ("total:13", "void", 180, 20, 20),
    ]
    assert report.returned == report.staked == 170 and report.house_result == 0
    assert verify(stored.stored()).ok


def test_a_cancellation_not_voided_yet_is_pending_not_a_mismatch() -> None:
    stored, cancel_seq = settled_and_cancelled()
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MATCH and report.pending_corrections == [cancel_seq]
    assert report.voided_by is None
    result = verify(stored.stored())
    assert result.ok and result.pending == [(TABLE, 1, cancel_seq)]


def test_a_wrong_refund_is_a_mismatch() -> None:
    stored, cancel_seq = settled_and_cancelled()
    [event] = stored.void(1, cancel_seq)
    seq, aggregate, _ = stored.settle_events[-1]
    first = event.adjustments[0]
    short = msgspec.structs.replace(first.after, returned=first.after.returned - 10)
    forged = msgspec.structs.replace(
        event,
        adjustments=[
            msgspec.structs.replace(first, after=short, delta=first.delta - 10),
            *event.adjustments[1:],
        ],
        delta=event.delta - 10,
    )
    stored.settle_events[-1] = (seq, aggregate, forged)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MISMATCH
    assert [w.status for w in report.wagers].count(MISMATCH) == 1
    assert not verify(stored.stored()).ok


def test_a_round_voided_twice_or_without_a_cancellation_is_a_mismatch() -> None:
    stored, cancel_seq = settled_and_cancelled()
    stored.void(1, cancel_seq)
    stored.void(1, cancel_seq + 100)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MISMATCH
    assert any("voided 2 times" in p for p in report.problems)
    assert any("no cancellation after the result" in p for p in report.problems)


def test_the_outcome_column_shows_the_refund() -> None:
    stored, cancel_seq = settled_and_cancelled()
    stored.void(1, cancel_seq)
    report = round_report(stored.stored(), TABLE, 1)
    assert {w.outcome for w in report.wagers} == {WagerOutcome.VOID.value}


def test_a_summary_without_as_of_is_audited_as_of_just_before_its_parts() -> None:
    """A cancellation stored before such a settlement is in the facts it is audited against:
    it makes the recorded basis a mismatch, and no void is pending for it."""
    log = Log(profile="online-live", unit=10).start(1)
    log.slip(1, "ann", chips("big", 100))
    log.close(1)
    confirmed = log.confirm(1, (3, 4, 6))
    cancel_seq = log.cancel(1)
    stored = StoredLog(log)
    for e in settle(log.facts(1, as_of=confirmed), actor=SERVICE, at=NOW):
        stored.append_settle(e)
    seq, aggregate, summary = stored.settle_events[-1]
    stored.settle_events[-1] = (seq, aggregate, msgspec.structs.replace(summary, as_of=0))
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MISMATCH and report.as_of == cancel_seq
    assert any(p.startswith("summary basis") for p in report.problems)
    assert report.pending_corrections == [] and report.voided_by is None


def settled_and_invalidated_for_fraud() -> tuple[StoredLog, int]:
    """000 §8.4 after the round was paid: ann's fraud forfeits her wagers (§8.5)."""
    log = Log(profile="cca-1992", unit=10).start(1)
    log.slip(1, "ann", chips("big", 100))
    log.slip(1, "bob", chips("total:13", 20))
    log.close(1)
    log.confirm(1, (3, 4, 6))
    stored = StoredLog(log)
    stored.settle(1)
    log.complete(1, "ann", "bob")
    return stored, log.invalidate(1, "ann")


def test_000_8_4_a_round_invalidated_after_it_was_paid_matches_its_replay() -> None:
    stored, invalidated_seq = settled_and_invalidated_for_fraud()
    assert round_report(stored.stored(), TABLE, 1).pending_corrections == [invalidated_seq]
    stored.void(1, invalidated_seq)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MATCH and report.problems == [], report.problems
    assert report.voided_by == invalidated_seq
    assert [(w.bet, w.outcome, w.settled, w.recorded, w.recomputed) for w in report.wagers] == [
        ("big", "forfeit", 200, 0, 0),  # 000 §8.5: the fraudster's wager is forfeited
        ("total:13", "void", 180, 20, 20),  # every other wager refunded
    ]
    assert verify(stored.stored()).ok


def test_000_8_5_a_fraudster_refunded_by_the_void_is_a_mismatch() -> None:
    stored, invalidated_seq = settled_and_invalidated_for_fraud()
    as_stored = stored.log.events[-1]
    stored.log.events[-1] = (invalidated_seq, invalidated(1, fraud=True))  # no forfeits named
    stored.void(1, invalidated_seq)  # so ann is refunded...
    stored.log.events[-1] = as_stored  # ...but the log forfeits her wagers
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MISMATCH
    assert not verify(stored.stored()).ok
