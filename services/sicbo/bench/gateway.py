"""The web gateway under a page's load: how fast a table's view is answered, cold (folded from
the whole log) and warm (caught up from the last sequence read), and how soon a page hears of
an event. A nats-server of its own, the services and the gateway as processes, an HTTP client
in this process.
"""

import asyncio
import json
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import httpx
import nats

from sicbo.bench.floor import DEALER, _finish, _ok, _open_round, percentile, provision_and_start
from sicbo.demo.client import FloorClient, new_id
from sicbo.gateway.server_process import GatewayProcess
from sicbo.infra.nats_server import LocalNatsServer, free_port
from sicbo.infra.processes import ServiceProcess
from sicbo_contracts.lifecycle import (
    OpenBetting,
    StartRound,
)
from sicbo_contracts.subjects import Aggregate, aggregate_filter, round_filter

TABLE = "bench-gateway"


@dataclass(frozen=True)
class Latencies:
    milliseconds: list[float]

    def percentile(self, p: float) -> float:
        return percentile(self.milliseconds, p)


@dataclass(frozen=True)
class GatewayFigures:
    rounds: int
    events: int  # in the table's lifecycle log when the view is first read
    cold_ms: float
    warm: Latencies
    warm_per_second: float
    change: Latencies  # command sent -> the page's change event received


async def _completed(client: FloorClient, round_no: int) -> None:
    """Until settlement completed the round (the table's next round may then start)."""
    lifecycle = round_filter(TABLE, Aggregate.LIFECYCLE, round_no)
    for _ in range(1000):
        if any(e.subject.endswith("round-completed-v1") for e in await client.events(lifecycle)):
            return
        await asyncio.sleep(0.01)
    raise TimeoutError(f"round {round_no} was not completed")


async def _play(client: FloorClient, round_no: int) -> None:
    """A round without wagers at full speed (no dealer's pace: the log is what is measured)."""
    await _open_round(client, TABLE, round_no)
    await _finish(client, TABLE, round_no, pace=0)
    await _completed(client, round_no)


async def _change_latency(
    web: httpx.AsyncClient, client: FloorClient, first: int, n: int
) -> Latencies:
    """Round after round, time "place your bets" from the command sent to the page's change."""
    measured: list[float] = []
    async with web.stream("GET", "/api/events", params={"table": TABLE}) as events:
        lines = events.aiter_lines()
        await anext(lines)  # ": connected"
        for round_no in range(first, first + n):
            start = StartRound(
                command_id=new_id("s"), table=TABLE, actor=DEALER, round=round_no, tumbles=3
            )
            await _ok(client, start)
            sent = time.perf_counter()
            await _ok(
                client,
                OpenBetting(command_id=new_id("o"), table=TABLE, actor=DEALER, round=round_no),
            )
            async for line in lines:
                if line.startswith("data: ") and "betting-opened" in json.loads(line[6:])["type"]:
                    measured.append((time.perf_counter() - sent) * 1000)
                    break
            await _finish(client, TABLE, round_no, pace=0)
            await _completed(client, round_no)
    return Latencies(measured)


async def bench_gateway(
    rounds: int = 300, requests: int = 500, changes: int = 30
) -> GatewayFigures:
    with tempfile.TemporaryDirectory() as tmp, LocalNatsServer(Path(tmp) / "nats") as server:
        nc = await nats.connect(server.url)
        gateway = GatewayProcess(server.url, free_port(), log_path=Path(tmp) / "gateway.log")
        processes: list[ServiceProcess] = [
            ServiceProcess(name, server.url, log_path=Path(tmp) / f"{name}.log")
            for name in ("lifecycle", "dice", "settlement")
        ]
        processes.append(gateway)
        try:
            await provision_and_start(nc, processes)
            client = FloorClient(nc)
            for round_no in range(1, rounds + 1):  # round 1 opens the table (cca-1992)
                await _play(client, round_no)
            events = len(await client.events(aggregate_filter(TABLE, Aggregate.LIFECYCLE)))
            async with httpx.AsyncClient(base_url=gateway.url, timeout=30) as web:
                start = time.perf_counter()
                (await web.get(f"/api/tables/{TABLE}")).raise_for_status()
                cold = (time.perf_counter() - start) * 1000
                warm: list[float] = []
                begin = time.perf_counter()
                for _ in range(requests):
                    start = time.perf_counter()
                    (await web.get(f"/api/tables/{TABLE}")).raise_for_status()
                    warm.append((time.perf_counter() - start) * 1000)
                per_second = requests / (time.perf_counter() - begin)
                change = await _change_latency(web, client, rounds + 1, changes)
        finally:
            for proc in processes:
                proc.stop()
            await nc.close()
    return GatewayFigures(rounds, events, cold, Latencies(warm), per_second, change)
