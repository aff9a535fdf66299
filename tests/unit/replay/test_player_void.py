"""Replay of rounds where a supervisor declared a player's wagers void (000 §8.3.1): the
recomputation settles them void through the same engine, so the record MATCHes; a settlement
that paid them by the dice, or paid them again in a re-run, does not."""

import dataclasses

from sicbo.replay.findings import BETTING
from sicbo.replay.report import MATCH, MISMATCH, round_report
from sicbo.replay.verify import verify
from sicbo.settlement.engine import settle
from tests.support.common import NOW, SERVICE, TABLE
from tests.support.lifecycle import excluded
from tests.support.log import Log
from tests.support.stream import StoredLog
from tests.support.wagers import chips
from tests.unit.replay.forging import Forgery

BIG = chips("big", 100)


def voided_round(profile: str = "cca-1992") -> Log:
    log = Log(profile=profile, unit=10).start(1)
    log.slip(1, "ann", chips("big", 100))
    log.slip(1, "bob", chips("big", 20))
    log.void_wagers(1, "ann")
    log.close(1)
    return log


def test_000_8_3_1_a_round_with_voided_wagers_matches_its_replay() -> None:
    log = voided_round()
    log.confirm(1, (4, 5, 6))
    stored = StoredLog(log)
    stored.settle(1)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MATCH and report.problems == [], report.problems
    assert [(w.player, w.outcome, w.recorded, w.recomputed) for w in report.wagers] == [
        ("ann", "void", 100, 100),  # the stake back, not the win
        ("bob", "win", 40, 40),
    ]
    assert "round.player-wagers-voided.v1" in [row.type for row in report.history]
    assert verify(stored.stored()).ok


def test_000_8_3_1_a_settlement_that_paid_the_voided_player_is_a_mismatch() -> None:
    log = voided_round()
    log.confirm(1, (4, 5, 6))
    stored = StoredLog(log)
    paid_anyway = dataclasses.replace(log.facts(1), voided=())
    for e in settle(paid_anyway, actor=SERVICE, at=NOW):
        stored.append_settle(e)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MISMATCH
    assert any(p.startswith("summary voided") for p in report.problems), report.problems
    assert [w.status for w in report.wagers] == [MISMATCH, MATCH]
    assert not verify(stored.stored()).ok


def test_000_8_3_1_voided_wagers_are_not_paid_again_in_the_rerun() -> None:
    """macau-2003: "no result" carries bob's slip into round 2; ann's is returned in round 1."""
    log = voided_round("macau-2003")
    log.no_result(1, "carry-over-locked")
    stored = StoredLog(log)
    stored.settle(1)
    log.complete(1, "ann", "bob")
    log.start(2)
    log.close(2)
    log.confirm(2, (4, 5, 6))
    stored.settle(2)
    void_round, rerun = (round_report(stored.stored(), TABLE, n) for n in (1, 2))
    assert void_round.status == rerun.status == MATCH, (void_round.problems, rerun.problems)
    assert [(w.player, w.outcome, w.recorded) for w in void_round.wagers] == [
        ("ann", "void", 100),
        ("bob", "carried", 0),
    ]
    assert [(w.player, w.outcome, w.recorded) for w in rerun.wagers] == [("bob", "win", 40)]
    assert verify(stored.stored()).ok


def test_000_8_3_1_a_corrected_round_keeps_the_voided_wagers_void() -> None:
    log = voided_round()
    log.confirm(1, (1, 2, 3))
    stored = StoredLog(log)
    stored.settle(1)
    correction = log.correct(1, (1, 2, 3), (4, 5, 6))
    stored.adjust(1, (1, 2, 3), (4, 5, 6), correction)
    report = round_report(stored.stored(), TABLE, 1)
    assert report.status == MATCH and report.problems == [], report.problems
    assert [(w.player, w.outcome, w.recorded) for w in report.wagers] == [
        ("ann", "void", 100),
        ("bob", "win", 40),
    ]
    assert verify(stored.stored()).ok


# ---- the log's invariant: no stake put at play by an excluded or voided player -------------------


def test_000_8_3_2_a_slip_stored_for_an_excluded_player_is_found() -> None:
    """Settled and paid, it matches its recomputation; the log's betting invariant finds it.
    A withdrawal by the excluded player is no finding."""
    f = Forgery()
    f.log.start(1)
    kept = f.log.slip(1, "mallory", BIG)
    f.log.add(excluded("mallory"))
    late = f.log.slip(1, "mallory", chips("big", 5_000))
    late_seq = f.log.events[-1][0]
    f.log.withdraw(1, "mallory", kept, [BIG])
    f.log.close(1)
    f.log.confirm(1, (4, 5, 6))
    f.stored.settle(1)
    f.log.complete(1, "mallory")
    (finding,) = f.findings()
    assert (finding.seq, finding.check) == (late_seq, BETTING)
    assert f"slip {late} of mallory placed in round 1" in finding.message
    assert "000 §8.3.2" in finding.message
    assert not verify(f.messages()).ok


def test_000_8_3_1_a_slip_stored_after_the_players_wagers_were_voided_is_found() -> None:
    f = Forgery()
    f.log.start(1)
    f.log.void_wagers(1, "mallory")
    f.log.slip(1, "mallory", BIG)
    f.log.close(1)
    f.log.confirm(1, (4, 5, 6))
    f.stored.settle(1)
    f.log.complete(1, "mallory")
    (finding,) = f.findings()
    assert finding.check == BETTING and "000 §8.3.1" in finding.message
