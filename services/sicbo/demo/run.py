"""``make run``: a local nats-server, the services as processes, and the demo floor.

Everything started here is stopped here, by PID, when the floor is stopped (Ctrl-C).
"""

import asyncio
import contextlib
from pathlib import Path

import nats
from rich.console import Console

from sicbo.demo.client import FloorClient
from sicbo.demo.simulator import DEMO_TABLES, RoundLine, TableSimulator
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo.provisioning import provision

SERVICES = {"lifecycle": 1, "dice": 1, "wagers": 1, "settlement": 1}


def print_line(console: Console, line: RoundLine) -> None:
    if line.dice is None:
        outcome = f"[yellow]{line.basis}[/]"
    else:
        a, b, c = line.dice
        outcome = f"dice [bold]{a} {b} {c}[/] ({a + b + c:>2})"
    house = line.staked - line.returned
    console.print(
        f"[cyan]{line.table:<13}[/] round {line.round:>4}  {outcome:<28} "
        f"wagers {line.wagers:>3}  staked {line.staked:>9,}  returned {line.returned:>9,}  "
        f"house {house:>+9,}"
    )


async def run_floor(data_dir: Path, port: int, console: Console) -> None:
    with LocalNatsServer(data_dir / "nats", port=port) as server:
        console.print(f"nats-server pid {server.pid} on [bold]{server.url}[/] (data in {data_dir})")
        nc = await nats.connect(server.url)
        processes: list[ServiceProcess] = []
        try:
            report = await provision(nc)
            report.raise_for_conflicts()
            logs = data_dir / "logs"
            logs.mkdir(parents=True, exist_ok=True)
            for service, replicas in SERVICES.items():
                for n in range(replicas):
                    proc = ServiceProcess(service, server.url, log_path=logs / f"{service}-{n}.log")
                    processes.append(proc.start())
            for proc in processes:
                await proc.wait_ready()
                console.print(f"{proc.service} pid {proc.pid} ready")
            console.print(
                f"playing on {len(DEMO_TABLES)} tables; Ctrl-C stops everything. Try: "
                f"[bold]NATS_URL={server.url} sicbo log demo-cca[/] or "
                f"[bold]sicbo replay round demo-cca 1 --nats {server.url}[/]"
            )
            client = FloorClient(nc)
            tables = [
                TableSimulator(client, demo, lambda line: print_line(console, line))
                for demo in DEMO_TABLES
            ]
            await asyncio.gather(*(t.run() for t in tables))
        finally:
            for proc in processes:
                proc.stop()
            with contextlib.suppress(Exception):
                await nc.close()
    console.print("floor stopped: services and nats-server ended")
