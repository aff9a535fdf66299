"""``verify``: every settled round of a log re-settled in one pass."""

from datetime import timedelta

import msgspec

from sicbo.replay.verify import verify, verify_parallel
from sicbo.shell.codec import encode
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.lifecycle import RoundCompleted
from sicbo_contracts.replies import Rejected
from sicbo_contracts.settlement import RoundSettled, WagersSettled
from sicbo_contracts.subjects import Aggregate, event
from tests.support.common import NOW, PROFILES
from tests.support.log import Log
from tests.support.stream import Stored, StoredLog
from tests.support.wagers import chips, promo
from tests.unit.replay.forging import Forgery


def busy_table(profile: str, rounds: int = 5) -> StoredLog:
    log = Log(profile=profile, unit=5)
    stored = StoredLog(log)
    for r in range(1, rounds + 1):
        log.start(r)
        for p in range(3):
            log.slip(r, f"p{p}", chips("big", 10 + r), chips("total:9", 5), promo("small", 20))
        log.close(r)
        log.confirm(r, ((r % 6) + 1, 3, 5))
        stored.settle(r)
        log.complete(r, "p0", "p1", "p2")
    return stored


def test_a_log_settled_by_the_engine_verifies() -> None:
    result = verify(busy_table("online-live").stored())
    assert result.ok and result.rounds == 5 and result.wagers == 5 * 9
    assert result.mismatches == [] and result.unsettled == [] and result.pending == []


def test_every_profile_verifies() -> None:
    for profile in PROFILES:
        result = verify(busy_table(profile).stored())
        assert result.ok, (profile, [a.problems for a in result.mismatches])


def test_a_wrong_settlement_fails_verification() -> None:
    stored = busy_table("cca-1992")
    n = next(
        i
        for i, (_, _, e) in enumerate(stored.settle_events)
        if isinstance(e, WagersSettled) and e.round == 3
    )
    seq, aggregate, part = stored.settle_events[n]
    wagers = [msgspec.structs.replace(w, returned=w.returned + 1) for w in part.wagers]
    stored.settle_events[n] = (seq, aggregate, msgspec.structs.replace(part, wagers=wagers))
    result = verify(stored.stored())
    assert not result.ok and result.rounds == 5
    (bad,) = result.mismatches
    assert bad.round == 3 and len(bad.mismatches) == 9


def test_unsettled_rounds_are_listed_not_failed() -> None:
    stored = busy_table("cca-1992", rounds=2)
    log = stored.log
    log.start(3)
    log.close(3)
    log.confirm(3, (1, 2, 3))
    result = verify(stored.stored())
    assert result.ok and result.unsettled == [("T1", 3)]


def test_since_and_table_limit_what_is_verified() -> None:
    stored = busy_table("cca-1992", rounds=4).stored()
    settled_at = [e.time for e in stored if e.subject.endswith("settle-round-settled-v1")]
    result = verify(stored, since=settled_at[2])
    assert result.rounds == 2
    assert verify(stored, since=settled_at[-1] + timedelta(seconds=1)).rounds == 0
    assert verify(stored, table="T2").rounds == 0
    assert verify(stored, table="T1", since=NOW).rounds == 4


def two_tables(tamper: bool) -> list[Stored]:
    first = busy_table("cca-1992").stored()
    other = busy_table("online-live")
    if tamper:
        seq, aggregate, summary = other.settle_events[-1]
        other.settle_events[-1] = (seq, aggregate, msgspec.structs.replace(summary, staked=1))
    # Same sequences in both (each table's own log is what counts): interleaved like a stream.
    second = [
        Stored(
            e.seq,
            e.subject.replace(".T1.", ".T2.", 1),
            e.data.replace(b'"table":"T1"', b'"table":"T2"', 1),
            e.time,
        )
        for e in other.stored()
    ]
    return sorted(first + second, key=lambda e: e.seq)


def test_tables_verified_in_parallel_give_the_same_answer() -> None:
    for tamper in (False, True):
        stored = two_tables(tamper)
        alone, parallel = verify(stored), verify_parallel(stored, jobs=2)
        assert (parallel.rounds, parallel.wagers, parallel.ok) == (10, 90, not tamper)
        assert (alone.rounds, alone.wagers, alone.ok) == (10, 90, not tamper)
        assert [(a.table, a.round) for a in parallel.mismatches] == ([("T2", 5)] if tamper else [])
    assert verify_parallel(two_tables(False), jobs=2, table="T2").rounds == 5


def test_a_settlement_message_replay_cannot_read_fails_verification() -> None:
    stored = busy_table("cca-1992", rounds=2).stored()
    summary = next(e for e in stored if e.subject.endswith("settle-round-settled-v1"))
    garbled = Stored(summary.seq, summary.subject, b"not json", summary.time)
    assert verify([garbled if e is summary else e for e in stored]).undecodable == [
        ("T1", summary.seq)
    ]
    # A subject the contract cannot parse (the round is not a number) is not ignored either.
    subject = summary.subject.replace(".settle.1.", ".settle.one.", 1)
    odd = Stored(summary.seq + 1000, subject, summary.data, summary.time)
    result = verify([*stored, odd])
    assert not result.ok and result.undecodable == [("T1", summary.seq + 1000)]


def test_a_round_with_foreign_entries_is_still_listed_as_not_settled() -> None:
    """Issue 25: a ``round.completed.v1`` body on a bets subject, and a ``rejected.v1`` on the
    round's settlement subject, hid the round from the list ("verified 0 rounds"); they are
    named as findings and the round is listed, as every service's reader skips them."""
    forged = Forgery()
    forged.play(1)
    forged.log.start(2)
    forged.log.close(2)
    forged.log.confirm(2, (1, 2, 3))
    done = RoundCompleted(table="T1", actor=Actor(id="s", role=Role.SERVICE), at=NOW, round=2)
    on_bets = forged.forge(done, Aggregate.BETS)
    rejected = encode(Rejected(command_id="x", code="refused", reason="a reply, stored"))
    on_settle = forged.forge_raw(event("T1", Aggregate.SETTLE, 2, RoundSettled), rejected)
    result = verify(forged.messages())
    assert result.unsettled == [("T1", 2)] and result.rounds == 1
    named = {v.seq for v in result.violations} | {seq for _, seq in result.undecodable}
    assert {on_bets, on_settle} <= named
    assert not result.ok
