"""The floor on a partitioned log (issue 16 item 5): ``sicbo provision --partitions 3``, the
services as separate processes on a nats-server of this module's own (the session's holds
``SICBO``, whose ``sicbo.evt.>`` would overlap every partition stream), tables in each of the
three streams played end to end, the results feed and ``sicbo replay verify`` over them, and a
service refused when the floor's K is not the one its deployment pins."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import nats
import pytest
from nats.aio.client import Client as NATS

from sicbo.eventstore.errors import AppendConflict
from sicbo.eventstore.layout import open_floor_log
from sicbo.eventstore.partitioned import FloorLog
from sicbo.eventstore.records import Expect
from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo.provisioning import Outcome, provision
from sicbo_contracts.subjects import (
    EVENT_STREAM,
    RESULTS_STREAM,
    Aggregate,
    event,
    partition_of,
    partition_stream,
    results,
    round_filter,
    table_filter,
)
from tests.integration.conftest import Floor
from tests.integration.test_settlement import (
    open_table,
    play,
    random_wagers,
    settlement_of,
    wait_completed,
)

K = 3
SERVICES = (("lifecycle", 1), ("dice", 1), ("wagers", 1), ("settlement", 2), ("results", 1))


def tables_in_every_partition() -> list[str]:
    """The first table names that land in each of the K partitions."""
    chosen: dict[int, str] = {}
    n = 0
    while len(chosen) < K:
        chosen.setdefault(partition_of(f"pt-{n}", K), f"pt-{n}")
        n += 1
    return [chosen[p] for p in range(K)]


class PartitionedFloor:
    def __init__(self, url: str, nc: NATS, log: EventStore, tmp: Path) -> None:
        self.url, self.nc, self.log, self.tmp = url, nc, log, tmp
        self.floor = Floor(url, {}, tmp)


@pytest.fixture(scope="module")
async def pf(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[PartitionedFloor]:
    tmp = tmp_path_factory.mktemp("partitioned-floor")
    with LocalNatsServer(tmp / "nats") as server:
        nc = await nats.connect(server.url)
        procs: list[ServiceProcess] = []
        try:
            (await provision(nc, partitions=K)).raise_for_conflicts()
            for service, replicas in SERVICES:
                for n in range(replicas):
                    log = tmp / f"{service}-{n}.log"
                    procs.append(ServiceProcess(service, server.url, log_path=log).start())
            for proc in procs:
                await proc.wait_ready()
            yield PartitionedFloor(server.url, nc, await open_floor_log(nc), tmp)
        finally:
            for proc in procs:
                proc.stop()
            await nc.close()


def sicbo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sicbo.cli.main", *args], capture_output=True, text=True, timeout=120
    )


async def test_provisioning_is_idempotent_and_keeps_its_k(pf: PartitionedFloor) -> None:
    again = await provision(pf.nc, partitions=K)
    assert again.ok and {r.outcome for r in again.results} == {Outcome.UNCHANGED}
    streams = [partition_stream(p, K) for p in range(K)]
    for name in streams:
        assert again.outcome_of("stream", name) is Outcome.UNCHANGED
        assert again.outcome_of("consumer", f"{name}/settlement") is Outcome.UNCHANGED
    # Another K on this floor: its log's streams are conflicts, nothing is created.
    other = await provision(pf.nc, partitions=1)
    assert [r.name for r in other.conflicts] == [EVENT_STREAM, f"{EVENT_STREAM}/settlement",
                                                 f"{EVENT_STREAM}/illumination",
                                                 f"{EVENT_STREAM}/results-feed"]  # fmt: skip
    assert "another number of partitions" in other.conflicts[0].note
    js = pf.nc.jetstream()
    names = [s.config.name for s in await js.streams_info()]
    assert EVENT_STREAM not in names and all(s in names for s in streams)
    cli = sicbo("provision", "--partitions", str(K), "--nats", pf.url)
    assert cli.returncode == 0, cli.stdout + cli.stderr
    assert "created" not in cli.stdout and "conflict" not in cli.stdout


async def test_rounds_in_every_partition_settle_publish_and_replay(pf: PartitionedFloor) -> None:
    assert isinstance(pf.log, FloorLog) and pf.log.partitions == K
    tables = tables_in_every_partition()
    js = pf.nc.jetstream()
    for table in tables:
        await open_table(pf.floor, pf.nc, table)
        rng = random.Random(table)
        slips = [(f"p{i}", random_wagers("cca-1992", 4, rng)) for i in range(3)]
        await play(pf.floor, pf.nc, table, 1, slips, (2, 4, 5))
        await wait_completed(pf.log, table, 1)
        settled = await settlement_of(pf.log, table, 1)
        assert len(settled.results) == 12 and settled.summaries
        # Every event of the table is in its partition's stream, and in no other.
        own = partition_stream(partition_of(table, K), K)
        for p in range(K):
            stream = partition_stream(p, K)
            info = await js.stream_info(stream, subjects_filter=f"{table_filter(table)}")
            assert bool(info.state.subjects) == (stream == own), (table, stream)
        # The stored subject carries the partition token; the floor reads its own subjects.
        history = await pf.log.read(table_filter(table))
        assert history and all(e.subject.split(".")[-1] != f"p{p}of{K}" for e in history
                               for p in range(K))  # fmt: skip
    # The results feed published every table's round, from the consumers of all 3 streams.
    feed = EventStore(pf.nc, RESULTS_STREAM)
    for table in tables:
        for _ in range(100):
            if await feed.read(results(table)):
                break
            await asyncio.sleep(0.1)
        assert await feed.read(results(table)), f"no result published for {table}"
    # Replay verify, whole log and per table, each table read from its stream.
    whole = sicbo("replay", "verify", "--nats", pf.url)
    assert whole.returncode == 0, whole.stdout + whole.stderr
    for table in tables:
        one = sicbo("replay", "verify", "--table", table, "--nats", pf.url)
        assert one.returncode == 0, one.stdout + one.stderr
        assert "1 round" in one.stdout or "rounds" in one.stdout, one.stdout


async def test_a_service_pinned_to_another_k_refuses_to_start(pf: PartitionedFloor) -> None:
    log = pf.tmp / "pinned.log"
    # The board: not otherwise running here, so no other replica answers its ping.
    proc = ServiceProcess("board", pf.url, log_path=log, env={"SICBO_PARTITIONS": "1"})
    proc.start()
    try:
        with pytest.raises(RuntimeError, match="exited"):
            await proc.wait_ready(timeout=60)
    finally:
        proc.stop()
    text = log.read_text()
    assert "expects 1 partition(s)" in text and "has 3" in text, text[-2000:]


async def test_the_store_keeps_expectations_batches_and_reads_per_table(
    pf: PartitionedFloor,
) -> None:
    log = pf.log
    assert isinstance(log, FloorLog)
    a, b = tables_in_every_partition()[:2]  # two tables of two streams
    subject_a = event(a, Aggregate.LAMP, 1, "probe-v1")
    first = await log.append(subject_a, b"1", expect=Expect(subject_a, 0), msg_id=f"{a}-1")
    # The exact subject as expectation: checked on the table's stream, with its token.
    with pytest.raises(AppendConflict):
        await log.append(subject_a, b"2", expect=Expect(subject_a, 0))
    again = await log.append(subject_a, b"1", expect=Expect(subject_a, 0), msg_id=f"{a}-1")
    assert again.duplicate and again.seq == first.seq  # a retry of a landed append
    assert await log.last_sequence(subject_a) == first.seq
    got = await log.get(first.seq, table=a)
    assert got is not None and got.subject == subject_a and got.data == b"1"
    with pytest.raises(ValueError, match="names no table"):
        await log.get(first.seq)
    # A batch is one stream's: one table's is stored whole, one across partitions refused.
    batch = [(event(b, Aggregate.LAMP, 1, f"probe-{n}-v1"), b"x") for n in range(3)]
    stored = await log.append_batch(batch, expect=Expect(round_filter(b, Aggregate.LAMP, 1), 0))
    assert [s.seq for s in stored] == list(range(stored[0].seq, stored[0].seq + 3))
    with pytest.raises(ValueError, match="one stream"):
        await log.append_batch([(subject_a, b"y"), batch[0]])
    # Reads: a table's from its stream, every table's from every stream, in the floor's subjects.
    assert [e.subject for e in await log.read(round_filter(b, Aggregate.LAMP, 1))] == [
        s for s, _ in batch
    ]
    everything = {e.subject for e in await log.read_all()}
    assert subject_a in everything and batch[0][0] in everything
    with pytest.raises(ValueError, match="reads all 3 partitions"):
        await log.read("sicbo.evt.>", after_seq=1)
