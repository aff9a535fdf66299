"""How many partitions the floor's log has: read from the server once, at start-up.

Provisioning (``sicbo provision --partitions K``) makes either ``SICBO`` (K = 1) or
``SICBO_P0_OF_K`` … ``SICBO_P<K-1>_OF_K``; a service asks the server which streams store floor
events (``STREAM.NAMES`` filtered by ``sicbo.evt.>``: one request) and works with that K, so
no configuration can make it write with a wrong one. A partial set, two sets, or none at all
is refused with what was found; so is a K other than ``SICBO_PARTITIONS`` when a deployment
pins it (its Helm values do).
"""

from __future__ import annotations

import json
import os

from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeoutError

from sicbo.eventstore.errors import StoreError
from sicbo.eventstore.partitioned import FloorLog
from sicbo.eventstore.store import EventStore
from sicbo_contracts.subjects import (
    EVENT_STREAM,
    EVENTS_ALL,
    parse_partition_stream,
    partition_stream,
)

#: A deployment's pinned K: a service refuses to start on a floor provisioned otherwise.
PARTITIONS_ENV = "SICBO_PARTITIONS"


class LayoutMismatch(StoreError):
    """The floor's log streams are not one whole set, or not the K this deployment pins."""


async def log_streams(nc: NATS, *, api: str = "$JS.API", timeout: float = 5.0) -> list[str]:
    """The names of the streams that store floor events (sorted)."""
    body = json.dumps({"subject": EVENTS_ALL}).encode()
    try:
        reply = await nc.request(f"{api}.STREAM.NAMES", body, timeout=timeout)
    except (NoRespondersError, NatsTimeoutError) as exc:
        raise StoreError("no JetStream answer to STREAM.NAMES", code=503) from exc
    resp = json.loads(reply.data)
    if "error" in resp:
        raise StoreError(f"STREAM.NAMES refused: {resp['error']}")
    return sorted(resp.get("streams") or [])


def partitions_of(names: list[str], *, pinned: int | None = None) -> int:
    """K from the floor's log streams, or :class:`LayoutMismatch` saying what is wrong."""
    found = [n for n in names if parse_partition_stream(n) is not None]
    if not found:
        raise LayoutMismatch(
            f"no stream stores the floor's events ({EVENT_STREAM} or {EVENT_STREAM}_P<p>_OF_<K>):"
            " run `sicbo provision` first (services never declare JetStream resources)"
        )
    counts = {parse_partition_stream(n)[1] for n in found}  # type: ignore[index]
    if len(counts) != 1:
        raise LayoutMismatch(
            f"the floor's events are in streams of {len(counts)} layouts ({', '.join(found)}):"
            " one K at a time; finish or undo the move between them first"
        )
    (k,) = counts
    wanted = [partition_stream(p, k) for p in range(k)]
    if sorted(wanted) != sorted(found):
        missing = sorted(set(wanted) - set(found))
        raise LayoutMismatch(
            f"the floor's log has {k} partitions but lacks {', '.join(missing)}:"
            f" run `sicbo provision --partitions {k}`"
        )
    if pinned is not None and pinned != k:
        raise LayoutMismatch(
            f"this deployment expects {pinned} partition(s) ({PARTITIONS_ENV}) but the floor's"
            f" log has {k} ({', '.join(found)}): a service never writes with another K"
        )
    return k


def pinned_partitions() -> int | None:
    """``SICBO_PARTITIONS`` if set (a positive integer), else None."""
    raw = os.environ.get(PARTITIONS_ENV, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or int(raw) < 1:
        raise LayoutMismatch(f"{PARTITIONS_ENV}={raw!r}: a positive number of partitions")
    return int(raw)


async def discover_partitions(nc: NATS, *, timeout: float = 5.0) -> int:
    return partitions_of(await log_streams(nc, timeout=timeout), pinned=pinned_partitions())


def floor_log(
    nc: NATS, partitions: int, *, timeout: float = 5.0, carry_trace: bool = True
) -> EventStore:
    """The floor's log for K partitions: the plain store on ``SICBO`` when K = 1."""
    if partitions == 1:
        return EventStore(nc, EVENT_STREAM, timeout=timeout, carry_trace=carry_trace)
    return FloorLog(nc, partitions, timeout=timeout, carry_trace=carry_trace)


async def open_floor_log(nc: NATS, *, timeout: float = 5.0) -> EventStore:
    """The floor's log as provisioned on the server (K discovered, checked)."""
    return floor_log(nc, await discover_partitions(nc, timeout=timeout), timeout=timeout)
