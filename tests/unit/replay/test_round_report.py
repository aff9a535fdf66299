"""Dispute replay of one round: recorded settlement vs a fresh recomputation from the log."""

import msgspec

from sicbo.replay.report import MATCH, MISMATCH, round_report
from sicbo_contracts.settlement import RoundSettled, WagerOutcome, WagersSettled
from tests.support.common import TABLE
from tests.support.log import Log
from tests.support.stream import StoredLog
from tests.support.wagers import chips, promo


def played(profile: str = "cca-1992") -> StoredLog:
    log = Log(profile=profile, unit=10).start(1)
    log.slip(1, "ann", chips("big", 100), chips("total:15", 10), promo("small", 50))
    log.slip(
        1,
        "bob",
        chips("two-odd-one-even", 15) if profile == "online-live" else chips("single:6", 20),
    )
    log.close(1)
    log.confirm(1, (4, 5, 6))
    return StoredLog(log)


def test_a_recorded_settlement_matches_its_replay() -> None:
    stored = played()
    stored.settle(1)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MATCH and report.problems == []
    assert [w.status for w in report.wagers] == [MATCH] * 4
    assert [(w.slip_id, w.index, w.bet, w.recorded, w.recomputed) for w in report.wagers] == [
        ("s1", 0, "big", 200, 200),
        ("s1", 1, "total:15", 190, 190),
        ("s1", 2, "small", 0, 0),  # the token is forfeited (000 §1.1)
        ("s2", 0, "single:6", 40, 40),
    ]
    assert (report.staked, report.returned, report.house_result) == (180, 430, -250)
    assert (
        report.basis == "result" and report.dice == (4, 5, 6) and report.paytable == "cca-1992@v1"
    )


def test_the_history_lists_every_event_of_the_round_with_its_actor() -> None:
    stored = played()
    stored.settle(1)
    report = round_report(stored.stored(), TABLE, 1)
    types = [h.type for h in report.history]
    assert types[:3] == ["round.started.v1", "round.betting-opened.v1", "bets.slip-placed.v1"]
    assert types[-2:] == ["settle.wagers-settled.v1", "settle.round-settled.v1"]
    assert report.history[0].actor == "dealer-1 (dealer)"
    assert report.history[-1].actor == "settlement (service)"
    assert [h.seq for h in report.history] == sorted(h.seq for h in report.history)


def test_a_tampered_settlement_is_a_mismatch() -> None:
    stored = played()
    parts, summary = stored.settle(1)[:-1], stored.settle_events[-1]
    seq, aggregate, part = stored.settle_events[0]
    wagers = list(part.wagers)
    wagers[3] = msgspec.structs.replace(
        wagers[3], outcome=WagerOutcome.WIN, winnings=9000, returned=9020
    )
    stored.settle_events[0] = (seq, aggregate, msgspec.structs.replace(part, wagers=wagers))
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MISMATCH
    bad = [w for w in report.wagers if w.status == MISMATCH]
    assert [(w.slip_id, w.recorded, w.recomputed) for w in bad] == [("s2", 9020, 40)]
    assert parts and summary


def test_a_tampered_summary_is_a_mismatch() -> None:
    stored = played()
    stored.settle(1)
    seq, aggregate, summary = stored.settle_events[-1]
    assert isinstance(summary, RoundSettled)
    forged = msgspec.structs.replace(summary, returned=10, house_result=170)
    stored.settle_events[-1] = (seq, aggregate, forged)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MISMATCH
    assert any(p.startswith("summary returned") for p in report.problems)
    assert all(w.status == MATCH for w in report.wagers)


def test_a_round_settled_twice_is_a_mismatch() -> None:
    stored = played()
    stored.settle(1)
    stored.settle(1)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MISMATCH
    assert any("settled 2 times" in p for p in report.problems)


def test_a_missing_wager_is_a_mismatch() -> None:
    stored = played()
    stored.settle(1)
    seq, aggregate, part = stored.settle_events[0]
    assert isinstance(part, WagersSettled)
    stored.settle_events[0] = (
        seq,
        aggregate,
        msgspec.structs.replace(part, wagers=part.wagers[:-1]),
    )
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MISMATCH
    (missing,) = [w for w in report.wagers if w.status == MISMATCH]
    assert (missing.slip_id, missing.outcome, missing.recomputed) == ("s2", "", 40)


def test_a_correction_is_replayed_with_its_adjustment() -> None:
    stored = played()
    stored.settle(1)
    seq = stored.log.correct(1, (4, 5, 6), (1, 2, 3))
    stored.adjust(1, (4, 5, 6), (1, 2, 3), seq)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MATCH, report.problems
    assert report.final_dice == (1, 2, 3) and report.pending_corrections == []
    by_bet = {w.bet: w for w in report.wagers}
    assert (by_bet["big"].settled, by_bet["big"].adjusted, by_bet["big"].recorded) == (200, -200, 0)
    assert by_bet["small"].recorded == 50  # the token now wins its winnings only
    assert report.returned == sum(w.recomputed for w in report.wagers) == 50  # single:6 lost


def test_a_tampered_adjustment_is_a_mismatch() -> None:
    stored = played()
    stored.settle(1)
    seq = stored.log.correct(1, (4, 5, 6), (1, 2, 3))
    (adjusted,) = stored.adjust(1, (4, 5, 6), (1, 2, 3), seq)
    first = adjusted.adjustments[0]
    forged_after = msgspec.structs.replace(first.after, returned=first.after.returned + 500)
    forged = msgspec.structs.replace(
        adjusted,
        adjustments=[
            msgspec.structs.replace(first, after=forged_after, delta=first.delta + 500),
            *adjusted.adjustments[1:],
        ],
        delta=adjusted.delta + 500,
    )
    s, aggregate, _ = stored.settle_events[-1]
    stored.settle_events[-1] = (s, aggregate, forged)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MISMATCH


def test_a_correction_not_adjusted_yet_is_pending_not_a_mismatch() -> None:
    stored = played()
    stored.settle(1)
    seq = stored.log.correct(1, (4, 5, 6), (1, 2, 3))
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MATCH and report.pending_corrections == [seq]


def test_replay_settles_as_of_the_settlement_not_later_events() -> None:
    """An invalidation stored after the settlement was computed (a race the lifecycle allows
    until the round completes) does not make the recorded settlement wrong."""
    stored = played()
    stored.settle(1)
    stored.log.invalidate(1, fraud=False)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MATCH and report.basis == "result"


def test_void_and_carried_rounds_replay() -> None:
    log = Log(profile="macau-2003").start(1)
    log.slip(1, "ann", chips("big", 100))
    log.close(1)
    log.no_result(1, "carry-over-locked")
    stored = StoredLog(log)
    stored.settle(1)
    log.complete(1, "ann")
    log.start(2)
    log.close(2)
    log.confirm(2, (4, 5, 6))
    stored.settle(2)
    first = round_report(stored.stored(), TABLE, 1)
    second = round_report(stored.stored(), TABLE, 2)
    assert (first.status, first.basis, [w.outcome for w in first.wagers]) == (
        MATCH,
        "no-result",
        ["carried"],
    )
    assert (second.status, [w.recorded for w in second.wagers]) == (MATCH, [200])


def test_an_unsettled_round_says_so() -> None:
    stored = played()
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == "NOT SETTLED" and report.wagers == []
    assert round_report(stored.stored(), TABLE, 7).status == "NOT STARTED"


def test_an_adjustment_to_dice_no_correction_gave_is_a_mismatch() -> None:
    stored = played()
    stored.settle(1)
    seq = stored.log.correct(1, (4, 5, 6), (1, 2, 3))
    stored.adjust(1, (4, 5, 6), (6, 6, 6), seq)  # self-consistent, but not what was corrected
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MISMATCH
    assert any("the correction says" in p for p in report.problems)


def test_an_adjustment_without_a_correction_is_a_mismatch() -> None:
    stored = played()
    stored.settle(1)
    stored.adjust(1, (4, 5, 6), (1, 2, 3), 10_000)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MISMATCH
    assert any("no correction to apply" in p for p in report.problems)
