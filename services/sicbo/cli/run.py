"""``sicbo run``: the demo floor of `make run`."""

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from sicbo.demo.run import run_floor


def run(
    data_dir: Annotated[Path, typer.Option("--data", help="where the floor keeps its data")] = Path(
        "var/floor"
    ),
    port: Annotated[int, typer.Option(help="preferred NATS port (a free one if taken)")] = 4222,
    web_port: Annotated[
        int, typer.Option(help="preferred port of the web pages (a free one if taken)")
    ] = 8080,
    demo: Annotated[
        bool, typer.Option("--demo/--no-demo", help="play the demo tables, or only serve")
    ] = True,
) -> None:
    """Start nats-server, provision, start every service as a process and play a demo floor:
    one table per rule profile, simulated dealers and players; and the web gateway, whose
    address it prints. Ctrl-C stops everything."""
    console = Console()
    try:
        asyncio.run(run_floor(data_dir, port, console, demo=demo, web_port=web_port))
    except (KeyboardInterrupt, asyncio.CancelledError):
        console.print("floor stopped: services and nats-server ended")
