"""Where wager intake's time goes: CPU per slip of every process, at several numbers of clients.

``python -m sicbo.bench.intake_cpu [--clients 4,16,64] [--wager-replicas 1]``. For each number
of clients, a floor of its own (nats-server, lifecycle, dice, settlement, accounts and the
wager service as processes): the raw append reference, then the intake bench of ``make bench``
(``bench_intake``: one table, 4,000 slips of 4 wagers, each client one slip in flight) with
that many clients. Printed: both rates, the accept p50, and each process's CPU time per
append (reference) and per slip (intake), in µs, from ``/proc``. The figures in
docs/benchmarks.md ("Wager intake: where a slip's time goes") come from it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import nats

from sicbo.bench.floor import bench_intake, provision_and_start
from sicbo.bench.jetstream import bench_raw_appends
from sicbo.bench.procstat import cpu_seconds
from sicbo.demo.client import FloorClient
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess

SERVICES = ("lifecycle", "dice", "settlement", "accounts")
SLIPS = 4_000  # bench_intake's default, as make bench runs it


def _per(before: dict[str, float], after: dict[str, float], count: int) -> str:
    """Each process's CPU between the two readings, in µs per item (the idle ones left out)."""
    used = {name: (after[name] - before[name]) / count * 1e6 for name in before}
    return ", ".join(f"{name} {us:.0f}" for name, us in used.items() if us >= 1)


async def one_floor(clients: int, wager_replicas: int) -> None:
    with tempfile.TemporaryDirectory() as tmp, LocalNatsServer(Path(tmp) / "nats") as server:
        nc = await nats.connect(server.url)
        names = [*SERVICES, *(["wagers"] * wager_replicas)]
        labels = [*SERVICES, *(f"wagers{n}" for n in range(wager_replicas))]
        processes = [
            ServiceProcess(name, server.url, log_path=Path(tmp) / f"{label}.log")
            for name, label in zip(names, labels, strict=True)
        ]
        try:
            await provision_and_start(nc, processes)
            pids = {label: p.pid for label, p in zip(labels, processes, strict=True)}
            pids.update({"nats-server": server.pid, "bench": os.getpid()})

            def cpu() -> dict[str, float]:
                return {name: cpu_seconds(pid) for name, pid in pids.items() if pid is not None}

            start = cpu()
            reference = await bench_raw_appends(server.url)
            between = cpu()
            intake = await bench_intake(FloorClient(nc), slips=SLIPS, clients=clients)
            end = cpu()
        finally:
            for proc in processes:
                proc.stop()
            await nc.close()
    slips = len(intake.latencies_ms)
    print(
        f"{clients} clients, {wager_replicas} wager replica(s): reference"
        f" {reference.per_second:,.0f} appends/s, intake {intake.per_second:,.0f} wagers/s ="
        f" {intake.per_second / reference.per_second:.2f}x, accept p50"
        f" {intake.percentile(0.5):.1f} ms"
    )
    print(f"  CPU µs per append (reference): {_per(start, between, reference.count)}")
    print(f"  CPU µs per slip (intake):      {_per(between, end, slips)}")


def client_counts(text: str) -> list[int]:
    """``--clients``: positive numbers, comma-separated (each client sends SLIPS // clients)."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not numbers separated by commas: {text!r}") from None
    wrong = [n for n in counts if not 1 <= n <= SLIPS]
    if wrong:
        raise argparse.ArgumentTypeError(f"{wrong}: a number of clients is 1 to {SLIPS:,}")
    return counts


def main(argv: Sequence[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m sicbo.bench.intake_cpu", description=__doc__)
    parser.add_argument(
        "--clients", type=client_counts, default=[4, 16, 64], help="comma-separated, a floor each"
    )
    parser.add_argument("--wager-replicas", type=int, choices=range(1, 5), default=1)
    args = parser.parse_args(argv)
    for clients in args.clients:
        asyncio.run(one_floor(clients, args.wager_replicas))


if __name__ == "__main__":
    main(sys.argv[1:])
