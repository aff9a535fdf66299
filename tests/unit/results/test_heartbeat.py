"""The heartbeat's pure parts: its interval setting, the interval numbers every replica
agrees on, its time to live, and the message."""

from datetime import UTC, datetime, timedelta

import msgspec
import pytest

from sicbo.results.heartbeat import (
    DEFAULT_INTERVAL_S,
    TTL_INTERVALS,
    beat_msg_id,
    beat_number,
    heartbeat_of,
    next_beat,
    parse_interval,
    ttl,
)
from sicbo_contracts.results import FeedHeartbeat, FeedMessage, RoundResult
from sicbo_contracts.subjects import (
    HEARTBEATS_ALL,
    RESULTS_ALL,
    RESULTS_TABLES,
    heartbeat,
    results,
    subject_matches,
    table_of,
)

AT = datetime(2026, 12, 1, 15, 0, 7, 250_000, tzinfo=UTC)


@pytest.mark.parametrize(("raw", "seconds"), [(None, DEFAULT_INTERVAL_S), ("", 5), (" 2 ", 2)])
def test_the_interval_setting(raw: str | None, seconds: int) -> None:
    assert parse_interval(raw) == seconds


@pytest.mark.parametrize("raw", ["0", "-1", "1.5", "five"])
def test_a_bad_interval_is_refused_by_name(raw: str) -> None:
    with pytest.raises(ValueError, match="SICBO_RESULTS_HEARTBEAT_S is a whole number"):
        parse_interval(raw)


def test_replicas_agree_on_the_interval_and_beat_at_its_start() -> None:
    assert beat_number(AT, 5) == beat_number(AT.replace(second=5, microsecond=0), 5)
    assert beat_number(AT, 5) + 1 == beat_number(AT.replace(second=10), 5)
    assert next_beat(AT, 5) == AT.replace(second=10, microsecond=0)
    exact = AT.replace(second=10, microsecond=0)
    assert next_beat(exact, 5) == exact + timedelta(seconds=5)  # on the edge: the next one
    number = beat_number(AT, 5)
    assert beat_msg_id("T1", 5, number) != beat_msg_id("T2", 5, number)
    assert beat_msg_id("T1", 5, number) != beat_msg_id("T1", 1, number)  # another setting


def test_a_heartbeat_lives_a_few_intervals() -> None:
    assert ttl(5) == f"{5 * TTL_INTERVALS}s"


def test_the_heartbeat_is_a_feed_message_told_apart_from_results_by_its_type() -> None:
    beat = heartbeat_of("T1", last_seq=41, last_source_seq=907, at=AT, interval_s=5)
    wire = msgspec.json.encode(beat)
    assert msgspec.json.decode(wire)["type"] == "heartbeat.v1"
    assert msgspec.json.decode(wire, type=FeedMessage) == beat
    assert isinstance(msgspec.json.decode(wire, type=FeedMessage), FeedHeartbeat)
    assert not isinstance(msgspec.json.decode(wire, type=FeedMessage), RoundResult)


def test_heartbeats_are_beside_the_results_subject_and_reach_the_copy() -> None:
    subject = heartbeat("T1")
    assert subject == "sicbo.results.T1.heartbeat" and table_of(subject) == "T1"
    assert subject_matches(subject, RESULTS_ALL)  # the copy's mirror and republish carry it
    assert subject_matches(subject, HEARTBEATS_ALL)
    assert not subject_matches(subject, results("T1"))  # what the feed reads as its last
    assert not subject_matches(subject, RESULTS_TABLES)  # the results alone
    with pytest.raises(ValueError, match="cannot be a subject token"):
        heartbeat("T1.x")
