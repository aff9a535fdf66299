"""``sicbo run``: the demo floor of `make run`."""

import asyncio
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from sicbo.cli.common import OperatorsOption
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
    operators: OperatorsOption = None,
    demo_operators: Annotated[
        bool,
        typer.Option(
            help="with --no-demo: the gateway signs in the demo operators (public PINs) and"
            " players by a bare id, as the demo floor does; neither this nor --operators: no"
            " gateway"
        ),
    ] = False,
) -> None:
    """Start nats-server, provision, start every service as a process and play a demo floor:
    one table per rule profile, simulated dealers and players; and the web gateway, whose
    address it prints. The server runs the floor's accounts (deploy/nats), each process as its
    own user, with throwaway passwords in files of DATA/secrets (never printed). Ctrl-C stops
    everything."""
    console = Console()
    try:
        asyncio.run(
            run_floor(
                data_dir,
                port,
                console,
                demo=demo,
                web_port=web_port,
                operators=operators,
                demo_operators=demo_operators,
            )
        )
    except (KeyboardInterrupt, asyncio.CancelledError):
        console.print("floor stopped: services and nats-server ended")
