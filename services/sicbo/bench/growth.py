"""How cost grows (``python -m sicbo.bench --large``): settlement of rounds of 1,000, 10,000
and 100,000 wagers; replay verify over a log of 1,000,000 wagers; the memory (RSS) of every
service with 1,000 tables open.

One floor (a nats-server of its own, the services as separate processes), in this order: the
three settlement rounds; the log filled up to the wager count with rounds of 10,000 wagers
(slips of 4, as the intake bench); ``replay verify`` over the whole log, as the CLI runs it;
then tables opened until 1,000 are open, each playing one round (a slip from each of three
players), and the RSS of each service read.
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass
from pathlib import Path

import nats

from sicbo.bench.floor import (
    SLIP,
    SettleFigure,
    VerifyFigure,
    _finish,
    _open_round,
    _slips,
    bench_settlement,
    bench_verify,
    provision_and_start,
)
from sicbo.bench.load import RoundWatch, play_table, start_services
from sicbo.bench.procstat import rss_bytes
from sicbo.demo.client import FloorClient
from sicbo.infra.nats_server import LocalNatsServer

SETTLE_ROUNDS = (1_000, 10_000, 100_000)
LOG_WAGERS = 1_000_000
FILL_ROUND_WAGERS = 10_000
FILL_TABLES_AT_ONCE = 4
TABLES_OPEN = 1_000
TABLES_AT_ONCE = 100


@dataclass(frozen=True)
class GrowthFigures:
    settlements: list[SettleFigure]
    verify: VerifyFigure
    tables_open: int
    rss: dict[str, int]  # bytes, by service


async def _fill(client: FloorClient, wagers: int) -> None:
    """Rounds of ``FILL_ROUND_WAGERS`` wagers, played to the end, until ``wagers`` are placed."""
    rounds = -(-wagers // FILL_ROUND_WAGERS)
    slips = FILL_ROUND_WAGERS // len(SLIP)

    async def one(n: int) -> None:
        table = f"fill-{n}"
        await _open_round(client, table, 1)
        await _slips(client, table, 1, slips, 16)
        await _finish(client, table, 1, pace=0.0)

    for first in range(0, rounds, FILL_TABLES_AT_ONCE):
        await asyncio.gather(
            *(one(n) for n in range(first, min(rounds, first + FILL_TABLES_AT_ONCE)))
        )


async def _open_tables(client: FloorClient, watch: RoundWatch, count: int) -> None:
    gate = asyncio.Semaphore(TABLES_AT_ONCE)

    async def one(n: int) -> None:
        async with gate:
            await play_table(client, watch, f"open-{n}", rounds=1)

    await asyncio.gather(*(one(n) for n in range(count)))


async def bench_growth(
    settle_rounds: tuple[int, ...] = SETTLE_ROUNDS,
    log_wagers: int = LOG_WAGERS,
    tables_open: int = TABLES_OPEN,
) -> GrowthFigures:
    with tempfile.TemporaryDirectory() as tmp, LocalNatsServer(Path(tmp) / "nats") as server:
        nc = await nats.connect(server.url)
        processes = start_services(server.url, Path(tmp))
        try:
            await provision_and_start(nc, processes)
            client = FloorClient(nc, timeout=30.0)
            settlements = [await bench_settlement(client, n) for n in settle_rounds]
            await _fill(client, log_wagers - sum(settle_rounds))
            await asyncio.sleep(2)  # the last rounds' settlements land before verifying
            checked = await bench_verify(server.url, runs=1)
            watch = RoundWatch()
            await watch.subscribe(nc)
            opened = len(settle_rounds) + -(-(log_wagers - sum(settle_rounds)) // FILL_ROUND_WAGERS)
            await _open_tables(client, watch, max(0, tables_open - opened))
            rss = {p.service: rss_bytes(p.pid or 0) for p in processes}
        finally:
            for proc in processes:
                proc.stop()
            await nc.close()
    return GrowthFigures(settlements, checked, max(tables_open, opened), rss)


def growth_rows(figures: GrowthFigures) -> list[tuple[str, str, str]]:
    """The figures as rows of ``make bench``'s table: what, figure, goal."""
    rows = [
        (f"settlement of a {s.wagers:,}-wager round (large)", f"{s.milliseconds:,.0f} ms", "")
        for s in figures.settlements
    ]
    v = figures.verify
    rows.append(
        (
            f"replay verify (large): {v.rounds} rounds, {v.wagers:,} wagers, as"
            " `sicbo replay verify` (the accounts too)",
            f"{v.per_second:,.0f} wagers/s (read {v.read_seconds:.1f} s, re-settle and"
            f" accounts {v.check_seconds:.1f} s){'' if v.ok else ' MISMATCH'}",
            "> 100,000 wagers/s",
        )
    )
    rss = ", ".join(f"{name} {size / 2**20:.0f}" for name, size in figures.rss.items())
    rows.append((f"RSS of each service (MiB), {figures.tables_open:,} tables open", rss, ""))
    return rows
