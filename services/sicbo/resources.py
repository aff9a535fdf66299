"""The floor's JetStream resources as data: the streams, the durable consumers and the KV
buckets, with the exact config each must have (DESIGN.md "Event store on JetStream").

:mod:`sicbo.provisioning` creates them (idempotent, conflicts reported, never overwritten);
services bind to them by name and never declare them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sicbo_contracts.accounts import StakeDebited
from sicbo_contracts.subjects import (
    ACCOUNT_STREAM,
    ACCOUNTS_ALL,
    EVENT_STREAM,
    EVENTS_ALL,
    LAUNCHES_BUCKET,
    READMODELS_BUCKET,
    RESULTS_ALL,
    RESULTS_STREAM,
    TIMERS_BUCKET,
    Aggregate,
    all_tables,
    game_entries_of_type,
    partition_stream,
    partition_subjects,
)

API = "$JS.API"
NS_PER_S = 1_000_000_000

EVENT_SUBJECTS = (EVENTS_ALL,)
RESULTS_SUBJECTS = (RESULTS_ALL,)
ACCOUNT_SUBJECTS = (ACCOUNTS_ALL,)
DUPLICATE_WINDOW_NS = 10 * 60 * NS_PER_S  # how long a command id (Nats-Msg-Id) dedupes


@dataclass(frozen=True, slots=True)
class DurableConsumer:
    """A durable pull consumer on the event stream; add entries to :data:`CONSUMERS`."""

    name: str
    filters: tuple[str, ...]
    max_ack_pending: int = 1000
    ack_wait_s: int = 30


# The floor's durable consumers on SICBO. Services bind to these by name (declare=False).
CONSUMERS: list[DurableConsumer] = [
    # A settlement job takes milliseconds; a short ack wait lets another replica take over a
    # crashed one's round quickly (the job is idempotent: expected sequence 0).
    DurableConsumer("settlement", (all_tables(Aggregate.LIFECYCLE),), ack_wait_s=10),
    DurableConsumer("illumination", (all_tables(Aggregate.LIFECYCLE),), ack_wait_s=10),
    DurableConsumer("results-feed", (all_tables(Aggregate.LIFECYCLE),), ack_wait_s=10),
]


#: Durable consumers on the players' accounts (SICBO_ACCOUNTS).
ACCOUNT_CONSUMERS: list[DurableConsumer] = [
    # Every debit, to settlement: one appended after its round's money was squared (a wager
    # service stalled past "no more bets") is refunded if its slip was never stored (issue 14).
    DurableConsumer("settlement-debits", (game_entries_of_type(StakeDebited),), ack_wait_s=10),
]


def consumer_filter(name: str) -> str:
    """The subject filter a service binds its durable consumer ``name`` with."""
    return next(c for c in (*CONSUMERS, *ACCOUNT_CONSUMERS) if c.name == name).filters[0]


@dataclass(frozen=True, slots=True)
class StreamSpec:
    """A stream (``kind="stream"``) or KV bucket (``kind="kv"``, stream ``KV_<name>``)."""

    name: str
    config: Mapping[str, Any]
    kind: str = "stream"

    @property
    def stream(self) -> str:
        return str(self.config["name"])


@dataclass(frozen=True, slots=True)
class ConsumerSpec:
    stream: str
    name: str
    config: Mapping[str, Any]


Resource = StreamSpec | ConsumerSpec


def event_stream(
    replicas: int, *, name: str = EVENT_STREAM, subjects: Sequence[str] = EVENT_SUBJECTS
) -> StreamSpec:
    """The floor's audit log: every domain event, kept forever, never deleted or purged."""
    return StreamSpec(
        name,
        {
            "name": name,
            "description": "Sic Bo floor domain events: the system of record (audit log)",
            "subjects": list(subjects),
            "retention": "limits",
            "storage": "file",
            "num_replicas": replicas,
            "discard": "old",
            "max_age": 0,  # no expiry: disputes and settlement audits replay from here
            "max_msgs": -1,
            "max_bytes": -1,
            "max_msgs_per_subject": -1,
            "duplicate_window": DUPLICATE_WINDOW_NS,
            "deny_delete": True,
            "deny_purge": True,
            "allow_atomic": True,  # settlement batches, all-or-nothing
            "allow_direct": True,  # history reads via Direct Get batches
            "allow_rollup_hdrs": False,  # a rollup would erase history
        },
    )


def account_stream(
    replicas: int, *, name: str = ACCOUNT_STREAM, subjects: Sequence[str] = ACCOUNT_SUBJECTS
) -> StreamSpec:
    """Players' accounts: an audit log of money like the floor's, in a stream of its own. A
    player bets at many tables, and the floor's log is to be partitioned by table: no table's
    stream could hold an account. A new stream is also created by provisioning on a running
    floor, where a subject added to ``SICBO`` would be a config conflict left alone."""
    spec = event_stream(replicas, name=name, subjects=subjects)
    config = {
        **spec.config,
        "description": "Sic Bo players' accounts: every entry of every balance (audit log)",
        # An account's entries are single appends expecting its last sequence.
        "allow_atomic": False,
    }
    return StreamSpec(name, config)


def results_stream(
    replicas: int, *, name: str = RESULTS_STREAM, subjects: Sequence[str] = RESULTS_SUBJECTS
) -> StreamSpec:
    """Public results for integration partners, apart from the internal event log."""
    return StreamSpec(
        name,
        {
            "name": name,
            "description": "Sic Bo public results feed for integration partners",
            "subjects": list(subjects),
            "retention": "limits",
            "storage": "file",
            "num_replicas": replicas,
            "discard": "old",
            "max_age": 0,  # results are kept forever (docs/feed.md "Retention")
            "duplicate_window": DUPLICATE_WINDOW_NS,
            "deny_delete": True,
            "deny_purge": True,
            "allow_direct": True,
            # Heartbeats (sicbo.results.<table>.heartbeat) expire by their Nats-TTL; a
            # per-subject limit would be the whole stream's and cut the results' history.
            "allow_msg_ttl": True,
        },
    )


#: The launch tokens used: each key lives until its token expires (a per-key TTL); the
#: bucket's age limit is a backstop above the longest a token is accepted (5 min + leeway).
LAUNCHES_MAX_AGE_S = 15 * 60


def kv_bucket(bucket: str, replicas: int, *, history: int = 1, max_age_s: int = 0) -> StreamSpec:
    """A KV bucket, with the stream config nats-py's ``create_key_value`` would build.

    Created through the raw API like the streams, so it is compared the same way; the
    layout matches the client's so ``js.key_value(bucket)`` works on it. ``max_age_s``: 0
    keeps every key until deleted.
    """
    return StreamSpec(
        bucket,
        {
            "name": f"KV_{bucket}",
            "subjects": [f"$KV.{bucket}.>"],
            "retention": "limits",
            "storage": "file",
            "num_replicas": replicas,
            "discard": "new",
            "max_msgs_per_subject": history,
            "max_age": max_age_s * NS_PER_S,
            "max_msgs": -1,
            "max_consumers": -1,
            "duplicate_window": 2 * 60 * NS_PER_S,
            "allow_rollup_hdrs": True,
            "allow_direct": True,
            "allow_msg_ttl": True,  # per-key TTL, e.g. for countdown deadlines
            "deny_delete": True,
            "deny_purge": False,
        },
        kind="kv",
    )


def durable(stream: str, consumer: DurableConsumer) -> ConsumerSpec:
    config: dict[str, Any] = {
        "durable_name": consumer.name,
        "ack_policy": "explicit",
        "deliver_policy": "all",
        "replay_policy": "instant",
        "max_ack_pending": consumer.max_ack_pending,
        "ack_wait": consumer.ack_wait_s * NS_PER_S,
        "max_deliver": -1,
    }
    if len(consumer.filters) == 1:
        config["filter_subject"] = consumer.filters[0]
    else:
        config["filter_subjects"] = list(consumer.filters)
    return ConsumerSpec(stream, consumer.name, config)


def log_streams(replicas: int, partitions: int = 1) -> list[StreamSpec]:
    """The floor's log: ``SICBO`` (K = 1), or one stream per partition of the tables, each
    the same audit log holding its partition's subjects (:mod:`sicbo_contracts.subjects`)."""
    if partitions == 1:
        return [event_stream(replicas)]
    specs = []
    for p in range(partitions):
        spec = event_stream(
            replicas,
            name=partition_stream(p, partitions),
            subjects=(partition_subjects(p, partitions),),
        )
        config = {
            **spec.config,
            "description": f"Sic Bo floor domain events, tables of partition {p} of"
            f" {partitions}: the system of record (audit log)",
            # Informational (never compared): what an operator reads in `nats stream info`.
            "metadata": {"sicbo_partition": str(p), "sicbo_partitions": str(partitions)},
        }
        specs.append(StreamSpec(spec.name, config))
    return specs


def floor_resources(replicas: int = 1, partitions: int = 1) -> list[Resource]:
    """Everything the floor needs, streams before the consumers that live on them; the
    floor's durable consumers on every stream of its log (each sees its partition's tables)."""
    logs = log_streams(replicas, partitions)
    return [
        *logs,
        results_stream(replicas),
        account_stream(replicas),
        kv_bucket(TIMERS_BUCKET, replicas),
        kv_bucket(READMODELS_BUCKET, replicas),
        kv_bucket(LAUNCHES_BUCKET, replicas, max_age_s=LAUNCHES_MAX_AGE_S),
        *(durable(log.stream, c) for log in logs for c in CONSUMERS),
        *(durable(ACCOUNT_STREAM, c) for c in ACCOUNT_CONSUMERS),
    ]
