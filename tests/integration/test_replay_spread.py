"""Replay verify with each worker reading its own tables (:mod:`sicbo.replay.spread`) gives
what the whole log's read gives, on a real server, unpartitioned and over 2 partitions: the
same rounds, wagers, mismatches, violations, pending and unsettled rounds, unreadable
settlements, and the same events in the same order for the accounts' join. A message on a
subject of no table's filter sends verify back to the whole log's read (where it is reported
as always)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import nats
import pytest

from sicbo.eventstore.layout import open_floor_log
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.provisioning import provision
from sicbo.replay.findings import Finding
from sicbo.replay.spread import verify_log_spread
from sicbo.replay.verify import Verification, verify_parallel
from tests.support.stream import Stored
from tests.unit.replay.test_verify import busy_table


def _renamed(events: list[Stored], table: str) -> list[Stored]:
    return [
        Stored(
            e.seq,
            e.subject.replace(".T1.", f".{table}.", 1),
            e.data.replace(b'"table":"T1"', f'"table":"{table}"'.encode(), 1),
            e.time,
        )
        for e in events
    ]


def _floor_log() -> list[Stored]:
    """Three tables of different sizes, interleaved; the first keeps its own sequences (it
    verifies), the others are renumbered by the stream (their settlements then mismatch and
    their slips break invariants: findings to compare too)."""
    first = busy_table("cca-1992", rounds=6).stored()
    second = _renamed(busy_table("online-live", rounds=3).stored(), "T2")
    third = _renamed(busy_table("macau-2004", rounds=1).stored(), "T3")
    return (
        first
        + [e for pair in zip(second, third, strict=False) for e in pair]
        + second[len(third) :]
    )


def _key(f: Finding) -> tuple[Any, ...]:
    return (f.table, f.seq, f.check, f.message)


def _summary(v: Verification) -> tuple[Any, ...]:
    return (
        v.rounds,
        v.wagers,
        v.ok,
        sorted((a.table, a.round, tuple(a.problems), a.wagers) for a in v.mismatches),
        sorted(v.pending),
        sorted(v.unsettled),
        sorted(v.undecodable),
        sorted(_key(f) for f in v.violations),
    )


async def _store(url: str, partitions: int, events: list[Stored]) -> None:
    nc = await nats.connect(url)
    try:
        (await provision(nc, partitions=partitions)).raise_for_conflicts()
        store = await open_floor_log(nc)
        for e in events:
            await store.append(e.subject, e.data)
    finally:
        await nc.close()


async def _whole(url: str) -> tuple[Verification, list[Any]]:
    nc = await nats.connect(url)
    try:
        stored = await (await open_floor_log(nc)).read_all()
    finally:
        await nc.close()
    return verify_parallel(stored, jobs=2), stored


@pytest.mark.parametrize("partitions", [1, 2])
async def test_workers_reading_their_own_tables_verify_as_the_whole_read(
    tmp_path: Path, partitions: int
) -> None:
    with LocalNatsServer(tmp_path / "nats") as server:
        await _store(server.url, partitions, _floor_log())
        whole, stored = await _whole(server.url)
        spread = await asyncio.to_thread(verify_log_spread, server.url, jobs=2, with_events=True)
        assert spread is not None
        assert whole.rounds == 10 and not whole.ok  # T1 verifies, T2 and T3 do not
        assert ("T1", 1) not in [(a.table, a.round) for a in whole.mismatches]
        assert _summary(spread.result) == _summary(whole)
        assert spread.events == len(stored)
        assert spread.stored == stored  # the whole log's order, for the accounts' join
        alone = await asyncio.to_thread(verify_log_spread, server.url, jobs=1)
        assert alone is None  # one worker: the whole log's read


async def test_a_message_on_no_tables_filter_sends_verify_to_the_whole_read(
    tmp_path: Path,
) -> None:
    with LocalNatsServer(tmp_path / "nats") as server:
        events = _floor_log()
        await _store(server.url, 1, events)
        assert await asyncio.to_thread(verify_log_spread, server.url, jobs=2) is not None
        nc = await nats.connect(server.url)
        try:
            # On the table's name alone: table_of names T2, its filter sicbo.evt.T2.> misses it.
            await (await open_floor_log(nc)).append("sicbo.evt.T2", b"{}")
        finally:
            await nc.close()
        assert await asyncio.to_thread(verify_log_spread, server.url, jobs=2) is None
        whole, _ = await _whole(server.url)
        assert any(f.table == "T2" and f.check == "subject" for f in whole.violations)
