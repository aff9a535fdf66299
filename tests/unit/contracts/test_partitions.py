"""The partitioned log's mapping: table -> partition -> stream and stored subject, and back."""

import pytest

from sicbo.eventstore.layout import LayoutMismatch, partitions_of
from sicbo.eventstore.partitioned import FloorLog
from sicbo.resources import floor_resources, log_streams
from sicbo_contracts.subjects import (
    EVENT_STREAM,
    EVENTS_ALL,
    Aggregate,
    event,
    fnv1a_32,
    parse_event_subject,
    parse_partition_stream,
    partition_of,
    partition_stream,
    partition_subjects,
    subject_matches,
    table_filter,
    without_partition,
)


def test_fnv1a_32_is_the_published_hash() -> None:
    # Test vectors of the FNV reference (isthe.com/chongo/tech/comp/fnv): "" and "a", "foobar".
    assert fnv1a_32(b"") == 0x811C9DC5
    assert fnv1a_32(b"a") == 0xE40C292C
    assert fnv1a_32(b"foobar") == 0xBF9CF968


def test_a_table_keeps_its_partition_and_tables_spread() -> None:
    tables = [f"table-{n}" for n in range(300)]
    assert all(partition_of(t, 1) == 0 for t in tables)
    counts = [0, 0, 0]
    for t in tables:
        p = partition_of(t, 3)
        assert p == partition_of(t, 3) == fnv1a_32(t.encode()) % 3
        counts[p] += 1
    assert min(counts) > 60  # roughly even: 100 each expected
    with pytest.raises(ValueError, match="at least 1"):
        partition_of("t1", 0)


def test_k1_is_todays_log_exactly() -> None:
    assert partition_stream(0, 1) == EVENT_STREAM == "SICBO"
    assert partition_subjects(0, 1) == EVENTS_ALL
    (spec,) = log_streams(1)
    assert spec.stream == "SICBO" and spec.config["subjects"] == ["sicbo.evt.>"]
    assert "metadata" not in spec.config
    names = [getattr(r, "stream", None) for r in floor_resources(1)]
    assert names.count("SICBO") == 4  # the stream and its three consumers, as before


def test_partition_streams_and_their_subjects() -> None:
    specs = log_streams(3, 3)
    assert [s.stream for s in specs] == ["SICBO_P0_OF_3", "SICBO_P1_OF_3", "SICBO_P2_OF_3"]
    assert specs[1].config["subjects"] == ["sicbo.evt.*.*.*.*.p1of3"]
    assert all(s.config["num_replicas"] == 3 and s.config["deny_purge"] for s in specs)
    consumers = [(r.stream, r.name) for r in floor_resources(1, 3) if hasattr(r, "name")]
    for s in specs:
        assert (s.stream, "settlement") in consumers and (s.stream, "results-feed") in consumers
    assert parse_partition_stream("SICBO_P2_OF_3") == (2, 3)
    assert parse_partition_stream("SICBO") == (0, 1)
    for other in ("SICBO_RESULTS", "SICBO_P3_OF_3", "SICBO_P0_OF_1", "KV_sicbo-timers"):
        assert parse_partition_stream(other) is None


def test_stored_subjects_parse_as_the_floors() -> None:
    subject = event("t1", Aggregate.LIFECYCLE, 4, "round-started-v1")
    stored = f"{subject}.p2of3"
    assert without_partition(stored) == subject == without_partition(subject)
    assert parse_event_subject(stored) == parse_event_subject(subject)
    assert subject_matches(stored, partition_subjects(2, 3))
    assert not subject_matches(stored, partition_subjects(1, 3))
    assert subject_matches(stored, table_filter("t1"))  # a filter ending in > sees both


def test_floor_log_routes_by_table() -> None:
    log = FloorLog(object(), 3)  # type: ignore[arg-type]
    table = "t1"
    p = partition_of(table, 3)
    assert log.stream_of(table) == f"SICBO_P{p}_OF_3"
    assert log._stored(table_filter(table), p) == table_filter(table)
    exact = event(table, Aggregate.BETS, 1, "slip-placed-v1")
    assert log._stored(exact, p) == f"{exact}.p{p}of3"
    with pytest.raises(ValueError, match="names no table"):
        log._one_table("sicbo.evt.*.lc.>", "filter")
    with pytest.raises(ValueError, match="not a floor event subject"):
        log._table_of("sicbo.acct.p1.>", "filter")
    with pytest.raises(ValueError, match="2 partitions or more"):
        FloorLog(object(), 1)  # type: ignore[arg-type]


def test_layout_is_one_whole_set() -> None:
    assert partitions_of(["KV_x", "SICBO", "SICBO_RESULTS"]) == 1
    whole = ["SICBO_P0_OF_3", "SICBO_P1_OF_3", "SICBO_P2_OF_3"]
    assert partitions_of(whole) == 3
    with pytest.raises(LayoutMismatch, match="lacks SICBO_P1_OF_3"):
        partitions_of(["SICBO_P0_OF_3", "SICBO_P2_OF_3"])
    with pytest.raises(LayoutMismatch, match="2 layouts"):
        partitions_of(["SICBO", *whole])
    with pytest.raises(LayoutMismatch, match="run `sicbo provision` first"):
        partitions_of(["SICBO_RESULTS"])
    with pytest.raises(LayoutMismatch, match="expects 1 partition"):
        partitions_of(whole, pinned=1)


def test_the_skeleton_consumes_every_partition_of_the_floors_log() -> None:
    from sicbo.shell.bootstrap import Reacts, _streams_of

    def job(_: object) -> object:
        return None

    on_log = Reacts("settlement", "sicbo.evt.*.lc.>", job)  # type: ignore[arg-type]
    on_accounts = Reacts("settlement-debits", "x", job, stream="SICBO_ACCOUNTS")  # type: ignore[arg-type]
    assert _streams_of(on_log, 1) == ["SICBO"]
    assert _streams_of(on_log, 3) == ["SICBO_P0_OF_3", "SICBO_P1_OF_3", "SICBO_P2_OF_3"]
    assert _streams_of(on_accounts, 3) == ["SICBO_ACCOUNTS"]
