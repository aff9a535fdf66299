"""Explicit, idempotent provisioning of the floor's streams, consumers and KV buckets.

Services never declare JetStream resources at start-up (a declaring client can silently rewrite
a stream's config); the ``sicbo provision`` command runs this once per environment instead.
Every resource is compared with what the server already has: missing ones are created, equal
ones are left alone ("unchanged"), and differing ones are reported as conflicts with the fields
that differ and are NEVER updated: changing an audit log's config is an operator's decision.
The one exception is asked for by name (``upgrade=True``, ``sicbo provision --upgrade``): a
stream that differs only by a setting a newer floor turns on and that changes nothing already
stored (:data:`ADDITIVE`) gets that setting ("upgraded").

We speak the raw JetStream JSON API (``$JS.API.STREAM.INFO/CREATE``, ``CONSUMER.INFO/CREATE``)
so that the config we send and the config we compare are the server's own field names
(``allow_atomic``, ``deny_delete``, ...), independent of what the client library models.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeoutError

from sicbo.resources import API, ConsumerSpec, Resource, StreamSpec, floor_resources
from sicbo_contracts.subjects import EVENTS_ALL, parse_partition_stream

# Server error codes for "does not exist yet".
_STREAM_NOT_FOUND = 10059
_CONSUMER_NOT_FOUND = 10014

# Informational fields: differing values there are not a conflict.
_NOT_COMPARED = frozenset({"description", "metadata"})


#: Stream settings an upgrade may turn on: each adds a capability and rewrites nothing stored.
#: ``allow_msg_ttl``: the feed's heartbeats expire by ``Nats-TTL`` (docs/feed.md); the server
#: lets it be turned on for an existing stream (never off again).
ADDITIVE: Mapping[str, Any] = {"allow_msg_ttl": True}


class Outcome(StrEnum):
    CREATED = "created"
    UNCHANGED = "unchanged"
    UPGRADED = "upgraded"
    CONFLICT = "conflict"


@dataclass(frozen=True, slots=True)
class Difference:
    field: str
    wanted: Any
    found: Any

    def __str__(self) -> str:
        return f"{self.field}: wanted {self.wanted!r}, found {self.found!r}"


@dataclass(frozen=True, slots=True)
class ResourceResult:
    kind: str  # "stream", "kv" or "consumer"
    name: str
    outcome: Outcome
    differences: tuple[Difference, ...] = ()
    note: str = ""

    def __str__(self) -> str:
        text = f"{self.kind} {self.name}: {self.outcome.value}"
        details = [str(d) for d in self.differences] + ([self.note] if self.note else [])
        return text + (f" ({'; '.join(details)})" if details else "")


class ProvisionConflict(Exception):
    """Existing resources differ from the plan; nothing of theirs was changed."""

    def __init__(self, conflicts: Sequence[ResourceResult]) -> None:
        self.conflicts = tuple(conflicts)
        super().__init__("; ".join(str(c) for c in conflicts))


class ProvisionError(Exception):
    """The server refused a request for a reason other than a config conflict."""


@dataclass(frozen=True, slots=True)
class ProvisionReport:
    results: tuple[ResourceResult, ...] = field(default_factory=tuple)

    @property
    def conflicts(self) -> tuple[ResourceResult, ...]:
        return tuple(r for r in self.results if r.outcome is Outcome.CONFLICT)

    @property
    def ok(self) -> bool:
        return not self.conflicts

    def outcome_of(self, kind: str, name: str) -> Outcome:
        return next(r.outcome for r in self.results if r.kind == kind and r.name == name)

    def raise_for_conflicts(self) -> None:
        if self.conflicts:
            raise ProvisionConflict(self.conflicts)


async def provision(
    nc: NATS,
    *,
    replicas: int = 1,
    partitions: int = 1,
    resources: Sequence[Resource] | None = None,
    request_timeout: float = 10.0,
    upgrade: bool = False,
) -> ProvisionReport:
    """Create what is missing, leave what matches, report (never fix) what conflicts; with
    ``upgrade``, turn on the :data:`ADDITIVE` settings a stream lacks and differs by only.

    Conflicts are returned in the report (so one run lists all of them); call
    :meth:`ProvisionReport.raise_for_conflicts` to turn them into :class:`ProvisionConflict`.
    Consumers of a conflicting stream are not touched and are reported as conflicts too.
    ``partitions``: the floor's log in K streams by table; a floor whose log already has
    another K is a conflict of its log's streams (:func:`_other_layout`), left as it is.
    """
    plan = list(resources) if resources is not None else floor_resources(replicas, partitions)
    api = _Api(nc, request_timeout)
    results: list[ResourceResult] = []
    conflicting_streams: set[str] = set()
    other = await _other_layout(api, plan)
    for res in plan:
        if isinstance(res, StreamSpec) and res.stream in other:
            note = other[res.stream]
            result = ResourceResult(res.kind, res.name, Outcome.CONFLICT, note=note)
            conflicting_streams.add(res.stream)
        elif isinstance(res, StreamSpec):
            result = await _ensure_stream(api, res, upgrade)
            if result.outcome is Outcome.CONFLICT:
                conflicting_streams.add(res.stream)
        elif res.stream in conflicting_streams:
            result = ResourceResult(
                "consumer",
                f"{res.stream}/{res.name}",
                Outcome.CONFLICT,
                note=f"stream {res.stream} conflicts; consumer left unchecked",
            )
        else:
            result = await _ensure_consumer(api, res)
        results.append(result)
    return ProvisionReport(tuple(results))


async def _other_layout(api: _Api, plan: Sequence[Resource]) -> dict[str, str]:
    """The planned log streams that must not be created, each with why: the server's floor
    log is laid out in another number of partitions (their subjects would overlap, and a
    table's events would be split between two streams). Moving is an operator's step
    (docs/runbook.md "Growing the number of partitions")."""
    planned = {r.stream for r in plan if isinstance(r, StreamSpec)}
    planned_logs = {s for s in planned if parse_partition_stream(s) is not None}
    if not planned_logs:
        return {}
    body = {"subject": EVENTS_ALL}
    existing = (await api.call("STREAM.NAMES", body) or {}).get("streams") or []
    foreign = sorted(
        s for s in existing if parse_partition_stream(s) is not None and s not in planned_logs
    )
    if not foreign:
        return {}
    note = (
        f"the floor's log is already in {', '.join(foreign)}: another number of partitions;"
        " nothing was created (see the runbook on growing the partitions)"
    )
    return {s: note for s in planned_logs if s not in existing}


async def _ensure_stream(api: _Api, spec: StreamSpec, upgrade: bool) -> ResourceResult:
    info = await api.call(f"STREAM.INFO.{spec.stream}", None, missing=_STREAM_NOT_FOUND)
    if info is None:
        await api.call(f"STREAM.CREATE.{spec.stream}", dict(spec.config))
        return ResourceResult(spec.kind, spec.name, Outcome.CREATED)
    diffs = differences(spec.config, info["config"])
    if diffs and upgrade and additive_only(diffs):
        # The server's own config with the new settings only: nothing else is touched.
        config = {**info["config"], **{d.field: d.wanted for d in diffs}}
        await api.call(f"STREAM.UPDATE.{spec.stream}", config)
        return ResourceResult(spec.kind, spec.name, Outcome.UPGRADED, diffs)
    outcome = Outcome.CONFLICT if diffs else Outcome.UNCHANGED
    return ResourceResult(spec.kind, spec.name, outcome, diffs)


def additive_only(diffs: Sequence[Difference]) -> bool:
    """Whether every difference is an :data:`ADDITIVE` setting the plan turns on."""
    return all(d.field in ADDITIVE and d.wanted == ADDITIVE[d.field] for d in diffs)


async def _ensure_consumer(api: _Api, spec: ConsumerSpec) -> ResourceResult:
    name = f"{spec.stream}/{spec.name}"
    info = await api.call(
        f"CONSUMER.INFO.{spec.stream}.{spec.name}", None, missing=_CONSUMER_NOT_FOUND
    )
    if info is None:
        body = {"stream_name": spec.stream, "config": dict(spec.config), "action": "create"}
        await api.call(f"CONSUMER.CREATE.{spec.stream}.{spec.name}", body)
        return ResourceResult("consumer", name, Outcome.CREATED)
    wanted, found = dict(spec.config), dict(info["config"])
    # One filter may come back in either field; compare the filter set as one value.
    wanted["filter_subjects"] = _filters(wanted)
    found["filter_subjects"] = _filters(found)
    wanted.pop("filter_subject", None)
    diffs = differences(wanted, found)
    outcome = Outcome.CONFLICT if diffs else Outcome.UNCHANGED
    return ResourceResult("consumer", name, outcome, diffs)


def _filters(config: Mapping[str, Any]) -> list[str]:
    if config.get("filter_subject"):
        return [str(config["filter_subject"])]
    return sorted(str(s) for s in config.get("filter_subjects") or [])


def differences(wanted: Mapping[str, Any], found: Mapping[str, Any]) -> tuple[Difference, ...]:
    """Fields of ``wanted`` whose value on the server differs.

    The server omits false/zero/empty fields (``omitempty``), so an absent field equals a
    falsy wanted value. Subject lists compare as sets: their order carries no meaning.
    """
    diffs: list[Difference] = []
    for key, want in wanted.items():
        if key in _NOT_COMPARED:
            continue
        have = found.get(key)
        if isinstance(want, list) and isinstance(have, list | None):
            same = sorted(want) == sorted(have or [])
        elif have is None:
            same = not want
        else:
            same = want == have
        if not same:
            diffs.append(Difference(key, want, have))
    return tuple(diffs)


class _Api:
    """Minimal JetStream API caller: JSON in, JSON out, errors raised as ProvisionError."""

    def __init__(self, nc: NATS, timeout: float) -> None:
        self._nc = nc
        self._timeout = timeout

    async def call(
        self, endpoint: str, body: Mapping[str, Any] | None, *, missing: int | None = None
    ) -> dict[str, Any] | None:
        payload = json.dumps(body).encode() if body is not None else b""
        try:
            reply = await self._nc.request(f"{API}.{endpoint}", payload, timeout=self._timeout)
        except (NoRespondersError, NatsTimeoutError) as exc:
            raise ProvisionError(f"{endpoint}: no JetStream answer ({exc!r})") from exc
        resp: dict[str, Any] = json.loads(reply.data)
        error = resp.get("error")
        if error is None:
            return resp
        if missing is not None and error.get("err_code") == missing:
            return None
        raise ProvisionError(
            f"{endpoint} refused: {error.get('err_code')} {error.get('description')}"
        )
