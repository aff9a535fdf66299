"""Time (and profile) `sicbo replay verify`'s pure part on one saved log, so two versions of
the code can be compared on the very same events (docs/benchmarks.md, issue 16 item 2).

    python scripts/verify_profile.py make LOG     # run the bench's floor once, save its log
    python scripts/verify_profile.py time LOG     # verify_parallel on it, as make bench does
    python scripts/verify_profile.py cpu LOG      # CPU seconds of verify in one process
    python scripts/verify_profile.py profile LOG  # cProfile of verify in one process
    python scripts/verify_profile.py served LOG   # LOG in a fresh nats-server: the whole read
                                                  # + verify_parallel, then the workers' own
                                                  # reads (sicbo.replay.spread), and those by
                                                  # Direct Get through nats-py's callback
                                                  # ("old"), alternating
    python scripts/verify_profile.py reads LOG    # LOG served, each table read alone: by a
                                                  # consumer, by Direct Get (raw route, and
                                                  # nats-py's callback), alternating
    python scripts/verify_profile.py floor RUNS   # the bench's floor (its accounts too) kept
                                                  # up: `sicbo replay verify`'s whole check
                                                  # (verify_floor) RUNS times, with its CPU

Run ``time``/``profile`` with another checkout first on PYTHONPATH to time that version.
"""

from __future__ import annotations

import asyncio
import contextlib
import cProfile
import os
import pickle
import pstats
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import nats

from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.replay.verify import verify, verify_parallel
from sicbo_contracts.subjects import EVENT_STREAM, EVENTS_ALL

Row = tuple[int, str, bytes, dict[str, str], object]


@contextlib.asynccontextmanager
async def _floor() -> AsyncIterator[tuple[LocalNatsServer, nats.NATS]]:
    """The bench's floor (`make bench`'s intake rounds, the wallet's, two settlements), its
    services stopped once played; the server and a connection, until the block ends."""
    from sicbo.bench.floor import (  # the bench's own floor and rounds
        _settle_time,
        bench_intake,
        bench_settlement,
        provision_and_start,
    )
    from sicbo.demo.client import FloorClient
    from sicbo.infra.processes import ServiceProcess

    with tempfile.TemporaryDirectory() as tmp, LocalNatsServer(Path(tmp) / "nats") as server:
        nc = await nats.connect(server.url)
        processes = [
            ServiceProcess(name, server.url, log_path=Path(tmp) / f"{name}.log")
            for name in ("lifecycle", "dice", "wagers", "settlement", "accounts")
        ]
        try:
            await provision_and_start(nc, processes)
            client = FloorClient(nc)
            await bench_intake(client)
            await bench_intake(client, wallet=True)
            await _settle_time(client, "bench-wallet", 1, "round-completed-v1")
            for n in (1_000, 10_000):
                await bench_settlement(client, n)
            await asyncio.sleep(1)
            for proc in processes:
                proc.stop()
            yield server, nc
        finally:
            for proc in processes:
                proc.stop()
            await nc.close()


async def make() -> list[Row]:
    async with _floor() as (_, nc):
        stored = await EventStore(nc, EVENT_STREAM).read(EVENTS_ALL)
    rows: list[Row] = [(e.seq, e.subject, e.data, e.headers, e.time) for e in stored]
    return rows


async def floor(runs: int) -> None:
    """`sicbo replay verify`'s whole check on the bench's floor, ``runs`` times: each run's
    rate and the CPU of this process and its workers (docs/benchmarks.md, issue 16 item 2)."""
    import resource
    import statistics

    from sicbo.replay.floor import verify_floor

    def cpu() -> float:
        own, workers = (
            resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
        )
        return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime

    async with _floor() as (server, _):
        rates = []
        for _ in range(runs):
            c = cpu()
            done = await asyncio.to_thread(verify_floor, server.url, jobs=os.cpu_count() or 1)
            rates.append(done.result.wagers / done.seconds)
            print(
                f"{done.result.wagers} wagers ok={done.result.ok}: {rates[-1]:,.0f} wagers/s"
                f" ({done.seconds:.3f} s, read {done.read_seconds:.3f} s); CPU {cpu() - c:.3f} s"
            )
        print(f"median {statistics.median(rates):,.0f} wagers/s of {runs} runs")


async def reads(rows: list[Row], rounds: int = 6) -> None:
    """Store ``rows`` in a fresh server, then read every table alone: by a consumer
    (:mod:`sicbo.eventstore.consumer_read`), by Direct Get through the raw route
    (:mod:`sicbo.eventstore.raw_route`) and through nats-py's callback, alternating; CPU
    seconds of this process and of the server, for each way."""
    from sicbo.eventstore import raw_route
    from sicbo_contracts.subjects import table_filter, table_of

    async with _served(rows) as (_, store, server_cpu):
        tables = sorted({table_of(subject) or "" for _, subject, *_ in rows})
        for _ in range(rounds):
            for way in ("consumer", "Direct Get, raw route", "Direct Get, callback"):
                raw_route._SUPPORTED = way != "Direct Get, callback"
                c, s, t = time.process_time(), server_cpu(), time.perf_counter()
                read = [
                    len(await store.read(table_filter(name), bulk=way == "consumer"))
                    for name in tables
                ]
                print(
                    f"{way:21}: {sum(read)} events {time.perf_counter() - t:.3f} s; CPU s: reader"
                    f" {time.process_time() - c:.3f}, nats-server {server_cpu() - s:.3f}"
                )
        raw_route._SUPPORTED = True


async def served(rows: list[Row], rounds: int = 4) -> None:
    """Store ``rows`` in a fresh server as they were stored (same subjects, sequences from 1),
    then time both ways of verifying it; CPU of this process and its workers, and the
    server's."""
    import resource

    from sicbo.eventstore import raw_route
    from sicbo.replay.spread import Spread, verify_log_spread

    def cpu() -> float:
        own, workers = (
            resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
        )
        return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime

    async with _served(rows) as (server, store, server_cpu):
        for _ in range(rounds):
            for way in ("whole read", "workers' reads", "workers' reads, old"):
                # old: no raw route, so no consumer read: Direct Get through nats-py's callback
                raw_route._SUPPORTED = way != "workers' reads, old"  # forked: kept
                c, s, t = cpu(), server_cpu(), time.perf_counter()
                if way == "whole read":
                    result = verify_parallel(await store.read(EVENTS_ALL), jobs=os.cpu_count() or 1)
                else:
                    spread: Spread[None] | None = await asyncio.to_thread(
                        verify_log_spread, server.url, jobs=os.cpu_count() or 1
                    )
                    assert spread is not None
                    result = spread.result
                took = time.perf_counter() - t
                print(
                    f"{way}: {result.wagers / took:,.0f} wagers/s ({took:.3f} s) ok={result.ok};"
                    f" CPU s: verify {cpu() - c:.2f}, nats-server {server_cpu() - s:.2f}"
                )
        raw_route._SUPPORTED = True


@contextlib.asynccontextmanager
async def _served(
    rows: list[Row],
) -> AsyncIterator[tuple[LocalNatsServer, EventStore, Callable[[], float]]]:
    """``rows`` stored in a fresh server as they were stored (same subjects, sequences from 1):
    the server, a store on it, and the server's CPU seconds so far."""
    from sicbo.provisioning import provision

    with tempfile.TemporaryDirectory() as tmp, LocalNatsServer(Path(tmp) / "nats") as server:
        nc = await nats.connect(server.url)
        (await provision(nc)).raise_for_conflicts()
        store = EventStore(nc, EVENT_STREAM, carry_trace=False)
        for seq, subject, data, headers, _ in rows:  # the server's own headers left out
            kept = {k: v for k, v in headers.items() if not k.startswith(("Nats-Exp", "Nats-Bat"))}
            assert (await store.append(subject, data, headers=kept)).seq == seq
        pid = server.pid

        def server_cpu() -> float:
            fields = Path(f"/proc/{pid}/stat").read_text().split()
            return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")

        try:
            yield server, store, server_cpu
        finally:
            await nc.close()


def load(path: Path) -> list[StoredEvent]:
    rows: list[Row] = pickle.loads(path.read_bytes())  # our own file, written by `make`
    return [StoredEvent(*row) for row in rows]  # type: ignore[arg-type]


def main() -> None:
    mode, path = sys.argv[1], Path(sys.argv[2])
    if mode == "floor":
        asyncio.run(floor(int(sys.argv[2])))
        return
    if mode == "make":
        rows = asyncio.run(make())
        path.write_bytes(pickle.dumps(rows))
        print(f"{len(rows)} events saved to {path}")
        return
    if mode in ("served", "reads"):
        asyncio.run((served if mode == "served" else reads)(pickle.loads(path.read_bytes())))
        return
    stored = load(path)
    if mode == "time":
        for _ in range(3):
            start = time.perf_counter()
            result = verify_parallel(stored, jobs=os.cpu_count() or 1)
            took = time.perf_counter() - start
            rate = result.wagers / took
            print(f"{result.wagers} wagers in {took:.3f} s: {rate:,.0f}/s ok={result.ok}")
    elif mode == "cpu":  # CPU time moves less than wall time with the machine's load
        cpu: list[float] = []
        for _ in range(5):
            start = time.process_time()
            result = verify(stored)
            cpu.append(time.process_time() - start)
        runs = " ".join(f"{t:.3f}" for t in sorted(cpu))
        print(f"{result.wagers} wagers ok={result.ok}: CPU s {runs}")
    else:
        profile = cProfile.Profile()
        profile.enable()
        result = verify(stored)
        profile.disable()
        print(f"{result.wagers} wagers ok={result.ok}")
        pstats.Stats(profile).sort_stats("cumulative").print_stats(35)


if __name__ == "__main__":
    main()
