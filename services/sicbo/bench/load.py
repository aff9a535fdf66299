"""Floor load: tables playing rounds back to back, stepped up until settlement falls behind.

``python -m sicbo.bench.load`` (also a part of ``make bench``). A nats-server of its own and
the services as separate processes; in this process a dealer per table and a few players per
table, each table playing round after round: betting open for ``BETTING_SECONDS`` (each player
places one slip), no more bets, uncover, the dice entered and confirmed, then the next round
once the lifecycle has completed this one. The tables are stepped up (16, 64, 128, 256) and
each step measured over a window once its new tables play: rounds completed per minute, the
p99 from a round's ResultConfirmed to its RoundSettled (as this process receives both), and
the CPU of every process. The steps stop at the first whose p99 passes one second.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import nats
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from sicbo.bench.floor import SLIP, _finish, _open_round, percentile, provision_and_start
from sicbo.bench.procstat import CpuMeter, rss_bytes
from sicbo.bench.profiling import profile_window
from sicbo.demo.client import FloorClient, new_id
from sicbo.infra.nats_flush import flush_sent
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.dice import ResultConfirmed
from sicbo_contracts.lifecycle import RoundCompleted
from sicbo_contracts.replies import Rejected
from sicbo_contracts.settlement import RoundSettled
from sicbo_contracts.subjects import Aggregate, events_of_type
from sicbo_contracts.wagers import PlaceSlip

SERVICES = ("lifecycle", "dice", "wagers", "settlement", "results")
STEPS = (16, 64, 128, 256)
BETTING_SECONDS = 2.0
PLAYERS = 3
WARMUP_SECONDS = 6.0
WINDOW_SECONDS = 20.0
P99_LIMIT_MS = 1000.0


@dataclass(frozen=True)
class StepFigure:
    tables: int
    rounds: int
    seconds: float
    settle_ms: list[float]
    cpu: dict[str, float]  # % of one core, by process

    @property
    def rounds_per_minute(self) -> float:
        return self.rounds * 60 / self.seconds

    @property
    def cpu_ms_per_round(self) -> float:
        """CPU of every process a round completed, in ms: what a round costs the machine,
        less moved by a busy machine than the rate (the machine is shared)."""
        busy = sum(self.cpu.values()) / 100 * self.seconds
        return busy * 1000 / self.rounds if self.rounds else float("nan")

    @property
    def p99_ms(self) -> float:
        return percentile(self.settle_ms, 0.99) if self.settle_ms else float("nan")


@dataclass(frozen=True)
class LoadFigures:
    steps: list[StepFigure]
    rss: dict[str, int]  # bytes, by service, after the last step
    tables_open: int


@dataclass
class RoundWatch:
    """ResultConfirmed, RoundSettled and RoundCompleted of every table as they are appended
    (core subscriptions on their subjects: the receive time in this process)."""

    confirmed: dict[tuple[str, int], float] = field(default_factory=dict)
    settled: list[tuple[float, float]] = field(default_factory=list)  # (at, latency ms)
    completed: list[float] = field(default_factory=list)  # when
    _waiting: dict[tuple[str, int], asyncio.Future[None]] = field(default_factory=dict)

    async def subscribe(self, nc: NATS) -> None:
        watched = (
            (ResultConfirmed, Aggregate.LIFECYCLE, self._on_confirmed),
            (RoundSettled, Aggregate.SETTLE, self._on_settled),
            (RoundCompleted, Aggregate.LIFECYCLE, self._on_completed),
        )
        for event_type, aggregate, cb in watched:
            await nc.subscribe(events_of_type(event_type, aggregate), cb=cb)
        await flush_sent(nc)

    def completion(self, table: str, round_no: int) -> asyncio.Future[None]:
        return self._waiting.setdefault(
            (table, round_no), asyncio.get_running_loop().create_future()
        )

    @staticmethod
    def _key(msg: Msg) -> tuple[str, int]:
        parts = msg.subject.split(".")  # sicbo.evt.<table>.<aggregate>.<round>.<type>
        return parts[2], int(parts[4])

    async def _on_confirmed(self, msg: Msg) -> None:
        self.confirmed[self._key(msg)] = time.perf_counter()

    async def _on_settled(self, msg: Msg) -> None:
        now = time.perf_counter()
        start = self.confirmed.pop(self._key(msg), None)
        if start is not None:
            self.settled.append((now, (now - start) * 1000))

    async def _on_completed(self, msg: Msg) -> None:
        self.completed.append(time.perf_counter())
        done = self.completion(*self._key(msg))
        if not done.done():
            done.set_result(None)


async def play_table(
    client: FloorClient,
    watch: RoundWatch,
    table: str,
    rounds: int | None = None,
    stop: asyncio.Event | None = None,
) -> None:
    """Rounds back to back at ``table``: ``rounds`` of them, or until ``stop`` is set (the
    round under way is played to its end)."""
    players = [Actor(id=f"{table}-p{n}", role=Role.PLAYER) for n in range(PLAYERS)]
    round_no = 0
    while (rounds is None or round_no < rounds) and not (stop is not None and stop.is_set()):
        round_no += 1
        await _open_round(client, table, round_no)
        opened = time.perf_counter()
        replies = await asyncio.gather(
            *(
                client.send(
                    PlaceSlip(
                        command_id=new_id("s"),
                        table=table,
                        actor=p,
                        round=round_no,
                        player=p.id,
                        wagers=SLIP,
                    )
                )
                for p in players
            )
        )
        refused = [r for r in replies if isinstance(r, Rejected)]
        if refused:
            raise RuntimeError(f"{table} round {round_no}: slip refused: {refused[0].reason}")
        await asyncio.sleep(max(0.0, BETTING_SECONDS - (time.perf_counter() - opened)))
        completed = watch.completion(table, round_no)
        await _finish(client, table, round_no, pace=0.0)
        await asyncio.wait_for(completed, 120)


def start_services(url: str, tmp: Path) -> list[ServiceProcess]:
    return [ServiceProcess(name, url, log_path=tmp / f"{name}.log") for name in SERVICES]


def process_pids(server: LocalNatsServer, processes: Sequence[ServiceProcess]) -> dict[str, int]:
    pids = {"nats-server": server.pid or 0}
    pids.update({p.service: p.pid or 0 for p in processes})
    pids["bench (dealers, players)"] = os.getpid()
    return pids


async def _measure(
    tables: int, watch: RoundWatch, meter: CpuMeter, profile: Path | None = None
) -> StepFigure:
    await asyncio.sleep(WARMUP_SECONDS)
    meter.start()
    start = time.perf_counter()
    if profile is None:
        await asyncio.sleep(WINDOW_SECONDS)
    else:
        await profile_window(meter.pids, profile / f"{tables}-tables", WINDOW_SECONDS)
    end = time.perf_counter()
    return StepFigure(
        tables=tables,
        rounds=sum(1 for at in watch.completed if start <= at < end),
        seconds=end - start,
        settle_ms=[ms for at, ms in watch.settled if start <= at < end],
        cpu=meter.percent(end - start),
    )


async def bench_load(steps: Sequence[int] = STEPS, *, profile: Path | None = None) -> LoadFigures:
    """The steps of the floor load; ``profile``: a folder where each step's window is also
    sampled by py-spy, one flame graph a service process (see :mod:`.profiling`)."""
    with tempfile.TemporaryDirectory() as tmp, LocalNatsServer(Path(tmp) / "nats") as server:
        nc = await nats.connect(server.url)
        processes = start_services(server.url, Path(tmp))
        playing: list[asyncio.Task[None]] = []
        figures: list[StepFigure] = []
        stop = asyncio.Event()
        try:
            await provision_and_start(nc, processes)
            client = FloorClient(nc, timeout=30.0)
            watch = RoundWatch()
            await watch.subscribe(nc)
            meter = CpuMeter(process_pids(server, processes))
            for tables in steps:
                playing += [
                    asyncio.create_task(play_table(client, watch, f"load-{n}", stop=stop))
                    for n in range(len(playing), tables)
                ]
                figure = await _measure(tables, watch, meter, profile)
                failed = [t for t in playing if t.done() and t.exception() is not None]
                if failed:
                    raise RuntimeError(f"a table stopped: {failed[0].exception()!r}")
                figures.append(figure)
                if figure.p99_ms > P99_LIMIT_MS:
                    break
            rss = {p.service: rss_bytes(p.pid or 0) for p in processes}
        finally:
            # Each table ends its round (a cancelled nats-py request may not end a task).
            stop.set()
            if playing:
                _, unfinished = await asyncio.wait(playing, timeout=60)
                for task in unfinished:
                    task.cancel()
            for proc in processes:
                proc.stop()
            await nc.close()
    return LoadFigures(figures, rss, len(playing))


def print_load(figures: LoadFigures) -> None:
    for step in figures.steps:
        cpu = ", ".join(f"{name} {pct:.0f}" for name, pct in step.cpu.items())
        print(
            f"{step.tables:>4} tables: {step.rounds_per_minute:,.0f} rounds/min,"
            f" p99 confirmed->settled {step.p99_ms:,.0f} ms ({len(step.settle_ms)} rounds);"
            f" CPU % of a core: {cpu}; {step.cpu_ms_per_round:.1f} ms CPU a round"
        )
    rss = ", ".join(f"{name} {size / 2**20:.0f} MiB" for name, size in figures.rss.items())
    print(f"RSS with {figures.tables_open} tables open: {rss}")


def load_rows(figures: LoadFigures) -> list[tuple[str, str, str]]:
    """The figures as rows of ``make bench``'s table: what, figure, goal."""
    rows = []
    for step in figures.steps:
        cpu = ", ".join(f"{name} {pct:.0f}" for name, pct in step.cpu.items())
        rows.append(
            (
                f"floor load: {step.tables} tables back to back, {PLAYERS} players each"
                f" ({BETTING_SECONDS:.0f} s betting); CPU % of a core: {cpu}",
                f"{step.rounds_per_minute:,.0f} rounds/min, p99 confirmed->settled"
                f" {step.p99_ms:,.0f} ms; {step.cpu_ms_per_round:.1f} ms CPU a round",
                ">= 3,000 rounds/min, p99 < 1 s",
            )
        )
    rss = ", ".join(f"{name} {size / 2**20:.0f}" for name, size in figures.rss.items())
    rows.append((f"RSS of each service (MiB), {figures.tables_open} tables open", rss, ""))
    return rows


def main(argv: Sequence[str]) -> None:
    """``python -m sicbo.bench.load [--steps 64,128] [--profile DIR]``: the floor load alone."""
    parser = argparse.ArgumentParser(prog="python -m sicbo.bench.load", description=__doc__)
    parser.add_argument(
        "--steps",
        type=lambda text: [int(n) for n in text.split(",")],
        default=list(STEPS),
        help="tables at each step, comma-separated (default: %(default)s)",
    )
    parser.add_argument(
        "--profile", type=Path, help="sample every service with py-spy into this folder"
    )
    args = parser.parse_args(argv)
    print_load(asyncio.run(bench_load(args.steps, profile=args.profile)))


if __name__ == "__main__":
    main(sys.argv[1:])
