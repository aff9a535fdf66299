"""Where the floor's log partitions are led in a cluster, and spreading them over the nodes.

A partitioned log only adds write throughput when its streams' leaders are on different
servers: each stream's leader takes that partition's every append. JetStream places a new
stream's leader by its own choice, so two partitions may start on one node; since 2.11 a
leader stepdown can name the server preferred next (``placement.preferred``). :func:`spread`
asks partition ``p``'s leadership onto the ``p``-th of the servers (by name), as far as each
stream's peers allow; nothing moves where the leader is already the one wanted. After a
failure the survivors take over the dead node's partitions (an election each), and a
``sicbo provision --spread-leaders`` once the node is back spreads them again.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from nats.aio.client import Client as NATS

from sicbo.resources import API
from sicbo_contracts.subjects import partition_stream


async def _call(nc: NATS, endpoint: str, body: dict[str, Any] | None, timeout: float) -> Any:
    payload = json.dumps(body).encode() if body is not None else b""
    reply = await nc.request(f"{API}.{endpoint}", payload, timeout=timeout)
    return json.loads(reply.data)


async def cluster_of(nc: NATS, stream: str, *, timeout: float = 5.0) -> dict[str, Any]:
    """The stream's ``cluster`` block (leader and replicas); empty when not clustered."""
    info = await _call(nc, f"STREAM.INFO.{stream}", None, timeout)
    if "error" in info:
        raise RuntimeError(f"STREAM.INFO {stream}: {info['error']}")
    cluster: dict[str, Any] = info.get("cluster") or {}
    return cluster


async def leaders(nc: NATS, partitions: int, *, timeout: float = 5.0) -> dict[str, str | None]:
    """Each log stream's leader (None while it has none)."""
    found: dict[str, str | None] = {}
    for p in range(partitions):
        stream = partition_stream(p, partitions)
        found[stream] = (await cluster_of(nc, stream, timeout=timeout)).get("leader")
    return found


async def spread(
    nc: NATS, partitions: int, *, attempts: int = 20, timeout: float = 5.0
) -> dict[str, str | None]:
    """Move partition ``p``'s leadership to the ``p``-th server of its peers (sorted by name),
    each at most once per attempt, until each is where wanted; returns the leaders found."""
    wanted: dict[str, str] = {}
    for p in range(partitions):
        stream = partition_stream(p, partitions)
        cluster = await cluster_of(nc, stream, timeout=timeout)
        peers = sorted(
            {str(cluster.get("leader") or "")}
            | {str(r["name"]) for r in cluster.get("replicas", [])} - {""}
        )
        if len(peers) > 1:
            wanted[stream] = peers[p % len(peers)]
    for _ in range(attempts):
        now = await leaders(nc, partitions, timeout=timeout)
        moving = {s: w for s, w in wanted.items() if now.get(s) != w}
        if not moving:
            return now
        for stream, server in moving.items():
            if now.get(stream) is None:
                continue  # an election is under way: ask again once it has a leader
            body = {"placement": {"preferred": server}}
            await _call(nc, f"STREAM.LEADER.STEPDOWN.{stream}", body, timeout)
        await asyncio.sleep(0.5)
    return await leaders(nc, partitions, timeout=timeout)
