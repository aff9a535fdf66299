"""The log's invariants in ``verify`` (every table, in parallel too, since a time) and in the
round report (the findings of its round)."""

from datetime import timedelta

from sicbo.replay.findings import BETTING, ROUND_ORDER
from sicbo.replay.invariants import check_log
from sicbo.replay.report import MATCH, round_report
from sicbo.replay.verify import verify, verify_parallel
from sicbo.shell.codec import encode
from sicbo_contracts.subjects import Aggregate, event
from tests.support.common import PLAYER, TABLE, at
from tests.support.lifecycle import round_started
from tests.support.stream import Stored
from tests.support.wagers import chips, placed
from tests.unit.replay.forging import Forgery


def forged_floor() -> tuple[Forgery, int, int]:
    """Round 1 with a slip after its close, settled; round 2 started before 1 was completed."""
    f = Forgery()
    f.log.start(1)
    f.log.close(1)
    late = f.log.add(placed("s-late", [chips()], by=PLAYER, round_no=1, at=at(30)))  # and paid
    f.log.confirm(1, (2, 3, 5))
    f.stored.settle(1)
    early = f.forge(round_started(2, at=at(40)))
    return f, late, early


def test_verify_reports_each_violation_and_fails() -> None:
    f, late, early = forged_floor()
    result = verify(f.messages())
    assert not result.ok and result.mismatches == []
    assert [(v.seq, v.check, v.round) for v in result.violations] == [
        (late, BETTING, 1),
        (early, ROUND_ORDER, 2),
    ]


def test_a_round_report_lists_the_findings_of_its_round_only() -> None:
    f, late, early = forged_floor()
    first = round_report(f.messages(), TABLE, 1)
    second = round_report(f.messages(), TABLE, 2)
    assert first.status == MATCH and not first.ok
    assert [x.seq for x in first.invariants] == [late]
    assert second.status == "NOT SETTLED" and [x.seq for x in second.invariants] == [early]


def test_a_clean_round_report_is_ok() -> None:
    f = Forgery()
    f.play(1)
    report = round_report(f.messages(), TABLE, 1)
    assert report.ok and report.invariants == []


def test_since_limits_the_violations_to_events_stored_from_then() -> None:
    f, _, early = forged_floor()
    stored = f.messages()
    between = next(e.time for e in stored if e.seq == early) - timedelta(microseconds=1)
    assert [v.seq for v in verify(stored, since=between).violations] == [early]


def test_tables_are_checked_apart_and_in_parallel_alike() -> None:
    f, late, early = forged_floor()
    clean = Forgery()
    clean.play(1)
    other = [
        Stored(
            e.seq,
            e.subject.replace(f".{TABLE}.", ".T2.", 1),
            e.data.replace(b'"table":"T1"', b'"table":"T2"', 1),
            e.time,
        )
        for e in clean.messages()
    ]
    stored = sorted([*f.messages(), *other], key=lambda e: e.seq)
    assert check_log(stored)["T2"] == []
    alone, parallel = verify(stored), verify_parallel(stored, jobs=2)
    assert [v.seq for v in alone.violations] == [v.seq for v in parallel.violations]
    assert [v.seq for v in parallel.violations] == [late, early]
    assert verify(stored, table="T2").ok


def test_a_forged_event_of_another_table_s_log_is_that_table_s() -> None:
    f = Forgery()
    f.play(1)
    slip = placed("s-x", [chips()], by=PLAYER, round_no=1)
    seq = f.forge_raw(event("T2", Aggregate.BETS, 1, slip), encode(slip))
    findings = check_log(f.messages())
    assert findings[TABLE] == []
    assert {x.seq for x in findings["T2"]} == {seq}
