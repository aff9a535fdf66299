"""Provisioning against a real nats-server: idempotent, and never rewrites what conflicts."""

from __future__ import annotations

import json
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from nats.aio.client import Client as NATS
from nats.js.client import JetStreamContext

from sicbo.eventstore.store import EventStore
from sicbo.provisioning import Outcome, ProvisionConflict, ProvisionReport, provision
from sicbo.resources import (
    CONSUMERS,
    LAUNCHES_MAX_AGE_S,
    DurableConsumer,
    Resource,
    durable,
    event_stream,
    kv_bucket,
    results_stream,
)
from sicbo_contracts.subjects import (
    EVENT_STREAM,
    LAUNCHES_BUCKET,
    READMODELS_BUCKET,
    RESULTS_STREAM,
    TIMERS_BUCKET,
)


async def api(nc: NATS, endpoint: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    payload = json.dumps(body).encode() if body is not None else b""
    reply = await nc.request(f"$JS.API.{endpoint}", payload, timeout=5)
    resp: dict[str, Any] = json.loads(reply.data)
    return resp


@pytest.fixture
async def scratch(nc: NATS) -> AsyncIterator[str]:
    """A unique name for throw-away streams (subjects ``scratch.<name>.>``), deleted afterwards.

    Deleting a whole stream is allowed even with deny_delete (that flag guards messages).
    """
    name = f"SCRATCH_{uuid.uuid4().hex[:10]}"
    yield name
    for stream in (name, f"KV_{name.lower()}"):
        await api(nc, f"STREAM.DELETE.{stream}")


async def test_provision_twice_is_unchanged(nc: NATS, provisioned: ProvisionReport) -> None:
    report = await provision(nc)
    assert report.ok
    assert {r.outcome for r in report.results} == {Outcome.UNCHANGED}
    names = {(r.kind, r.name) for r in report.results}
    assert ("stream", EVENT_STREAM) in names and ("stream", RESULTS_STREAM) in names
    assert ("kv", TIMERS_BUCKET) in names and ("kv", READMODELS_BUCKET) in names
    assert {f"{EVENT_STREAM}/{c.name}" for c in CONSUMERS} <= {n for _, n in names}
    # The used launch tokens: per-key TTLs, and an age limit as a backstop.
    launches = (await nc.jetstream().stream_info(f"KV_{LAUNCHES_BUCKET}")).config
    assert launches.allow_msg_ttl and launches.max_age == LAUNCHES_MAX_AGE_S


async def test_event_stream_is_an_audit_log(
    nc: NATS, provisioned: ProvisionReport, store: EventStore, table_id: str
) -> None:
    config = (await api(nc, f"STREAM.INFO.{EVENT_STREAM}"))["config"]
    assert config["subjects"] == ["sicbo.evt.>"]
    assert config["storage"] == "file" and config["num_replicas"] == 1
    assert config["deny_delete"] is True and config["deny_purge"] is True
    assert config["allow_atomic"] is True and config["allow_direct"] is True
    assert config["duplicate_window"] == 600 * 10**9
    assert config["max_age"] == 0 and config["discard"] == "old"

    # The flags are enforced, not decorative.
    appended = await store.append(f"sicbo.evt.{table_id}.lc.r1.evt", b"keep me")
    deleted = await api(nc, f"STREAM.MSG.DELETE.{EVENT_STREAM}", {"seq": appended.seq})
    assert "error" in deleted
    purged = await api(nc, f"STREAM.PURGE.{EVENT_STREAM}", {"filter": f"sicbo.evt.{table_id}.>"})
    assert "error" in purged
    assert len(await store.read(f"sicbo.evt.{table_id}.>")) == 1

    results = (await api(nc, f"STREAM.INFO.{RESULTS_STREAM}"))["config"]
    assert results["subjects"] == ["sicbo.results.>"]
    assert results["deny_delete"] is True and results["deny_purge"] is True


async def test_consumers_exist_as_planned(nc: NATS, provisioned: ProvisionReport) -> None:
    for name in ("settlement", "illumination", "results-feed"):
        config = (await api(nc, f"CONSUMER.INFO.{EVENT_STREAM}.{name}"))["config"]
        assert config["filter_subject"] == "sicbo.evt.*.lc.>"
        assert config["durable_name"] == name
        assert config["ack_policy"] == "explicit" and config["deliver_policy"] == "all"
        assert config["ack_wait"] == 10 * 1_000_000_000  # a crashed replica's job moves on fast


async def test_kv_buckets_work_with_the_client(
    js: JetStreamContext, provisioned: ProvisionReport
) -> None:
    kv = await js.key_value(TIMERS_BUCKET)
    key = f"t{uuid.uuid4().hex[:8]}"
    await kv.put(key, b"2026-01-01T00:00:15Z")
    entry = await kv.get(key)
    assert entry.value == b"2026-01-01T00:00:15Z"
    assert (await js.key_value(READMODELS_BUCKET)) is not None


async def test_fresh_resources_are_created_then_unchanged(nc: NATS, scratch: str) -> None:
    plan: list[Resource] = [
        event_stream(1, name=scratch, subjects=[f"scratch.{scratch}.>"]),
        kv_bucket(scratch.lower(), 1),
        durable(scratch, DurableConsumer("reader", (f"scratch.{scratch}.*.lc.>",))),
        durable(scratch, DurableConsumer("two", (f"scratch.{scratch}.a", f"scratch.{scratch}.b"))),
    ]
    first = await provision(nc, resources=plan)
    assert [r.outcome for r in first.results] == [Outcome.CREATED] * 4
    second = await provision(nc, resources=plan)
    assert [r.outcome for r in second.results] == [Outcome.UNCHANGED] * 4


async def test_conflicting_stream_is_reported_and_left_alone(nc: NATS, scratch: str) -> None:
    existing = {
        "name": scratch,
        "subjects": [f"scratch.{scratch}.other.>"],
        "storage": "file",
        "num_replicas": 1,
        "deny_delete": False,
    }
    assert "error" not in await api(nc, f"STREAM.CREATE.{scratch}", existing)
    before = (await api(nc, f"STREAM.INFO.{scratch}"))["config"]

    plan: list[Resource] = [
        event_stream(1, name=scratch, subjects=[f"scratch.{scratch}.>"]),
        durable(scratch, DurableConsumer("reader", (f"scratch.{scratch}.>",))),
    ]
    report = await provision(nc, resources=plan)
    assert not report.ok
    stream_result, consumer_result = report.results
    assert stream_result.outcome is Outcome.CONFLICT
    fields = {d.field for d in stream_result.differences}
    assert {"subjects", "deny_delete", "deny_purge", "allow_atomic", "duplicate_window"} <= fields
    assert consumer_result.outcome is Outcome.CONFLICT  # not created under a conflicting stream
    with pytest.raises(ProvisionConflict) as caught:
        report.raise_for_conflicts()
    assert "deny_delete" in str(caught.value)

    after = await api(nc, f"STREAM.INFO.{scratch}")
    assert after["config"] == before
    assert after["state"]["consumer_count"] == 0


async def test_conflicting_consumer_is_reported(nc: NATS, scratch: str) -> None:
    stream = event_stream(1, name=scratch, subjects=[f"scratch.{scratch}.>"])
    assert (await provision(nc, resources=[stream])).ok
    created = await api(
        nc,
        f"CONSUMER.CREATE.{scratch}.reader",
        {
            "stream_name": scratch,
            "config": {
                "durable_name": "reader",
                "ack_policy": "explicit",
                "filter_subject": f"scratch.{scratch}.elsewhere.>",
            },
        },
    )
    assert "error" not in created
    wanted = durable(scratch, DurableConsumer("reader", (f"scratch.{scratch}.*.lc.>",)))
    report = await provision(nc, resources=[stream, wanted])
    assert report.results[0].outcome is Outcome.UNCHANGED
    conflict = report.results[1]
    assert conflict.outcome is Outcome.CONFLICT
    assert "filter_subjects" in {d.field for d in conflict.differences}
    info = (await api(nc, f"CONSUMER.INFO.{scratch}.reader"))["config"]
    assert info["filter_subject"] == f"scratch.{scratch}.elsewhere.>"


def test_sicbo_provision_prints_no_password(nats_url: str) -> None:
    """Its report's title used to show the URL as given, password and all."""
    scheme, _, rest = nats_url.partition("://")
    with_password = f"{scheme}://floor:pa55-w0rd@{rest.rpartition('@')[2]}"
    result = subprocess.run(
        [sys.executable, "-m", "sicbo.cli.main", "provision", "--nats", with_password],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "pa55-w0rd" not in result.stdout + result.stderr
    assert "floor:***@" in result.stdout


def without_metadata(config: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in config.items() if k != "metadata"}


async def _older_results_stream(nc: NATS, name: str) -> dict[str, Any]:
    """``name`` as a floor before the heartbeat provisioned it (no allow_msg_ttl), one result
    stored; its config as the server reports it."""
    older = {**results_stream(1, name=name, subjects=[f"scratch.{name}.>"]).config}
    older.pop("allow_msg_ttl")
    assert "error" not in await api(nc, f"STREAM.CREATE.{name}", older)
    await nc.jetstream().publish(f"scratch.{name}.T1", b"a stored result")
    config: dict[str, Any] = (await api(nc, f"STREAM.INFO.{name}"))["config"]
    return config


async def test_upgrade_turns_on_only_the_additive_setting_and_keeps_what_is_stored(
    nc: NATS, scratch: str
) -> None:
    """docs/feed.md: a floor provisioned before the heartbeat lacks allow_msg_ttl. A plain
    provision reports it and changes nothing; --upgrade turns it on and nothing else."""
    before = await _older_results_stream(nc, scratch)
    plan: list[Resource] = [results_stream(1, name=scratch, subjects=[f"scratch.{scratch}.>"])]
    plain = await provision(nc, resources=plan)
    [result] = plain.results
    assert result.outcome is Outcome.CONFLICT
    assert [d.field for d in result.differences] == ["allow_msg_ttl"]
    assert (await api(nc, f"STREAM.INFO.{scratch}"))["config"] == before

    upgraded = await provision(nc, resources=plan, upgrade=True)
    assert [r.outcome for r in upgraded.results] == [Outcome.UPGRADED]
    after = await api(nc, f"STREAM.INFO.{scratch}")
    # The server's own metadata (the API level the stream needs) moves with the setting.
    assert without_metadata(after["config"]) == {**without_metadata(before), "allow_msg_ttl": True}
    assert after["state"]["messages"] == 1
    again = await provision(nc, resources=plan, upgrade=True)
    assert [r.outcome for r in again.results] == [Outcome.UNCHANGED]


async def test_upgrade_leaves_a_stream_with_any_other_difference_a_conflict(
    nc: NATS, scratch: str
) -> None:
    before = await _older_results_stream(nc, scratch)
    plan: list[Resource] = [results_stream(1, name=scratch, subjects=[f"scratch.{scratch}.x"])]
    report = await provision(nc, resources=plan, upgrade=True)
    [result] = report.results
    assert result.outcome is Outcome.CONFLICT
    assert {d.field for d in result.differences} == {"allow_msg_ttl", "subjects"}
    assert (await api(nc, f"STREAM.INFO.{scratch}"))["config"] == before
