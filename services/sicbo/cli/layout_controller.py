"""``sicbo layout-controller``: a simulated lamp panel for one table, with fault injection."""

import asyncio
import contextlib
import logging
import signal
from typing import Annotated

import typer

from sicbo.cli.common import (
    DEFAULT_NATS_URL,
    NatsOption,
    check_nats_settings,
    event_loop_setting,
    fail,
)
from sicbo.illumination.controller import Fault, parse_fault, run_controller
from sicbo.infra import event_loop


def layout_controller(
    table: Annotated[str, typer.Argument(help="table id")],
    fault: Annotated[
        str,
        typer.Option(help="none | dark:BET | extra:BET | silent | slow:SECONDS"),
    ] = "none",
    fault_every: Annotated[
        int, typer.Option("--fault-every", min=1, help="inject the fault on every Nth round only")
    ] = 1,
    nats_url: NatsOption = DEFAULT_NATS_URL,
) -> None:
    """Answer the table's LightLayout requests with what the panel lit, until SIGINT/SIGTERM."""
    check_nats_settings(nats_url)
    event_loop_setting()
    try:
        chosen = parse_fault(fault, fault_every)
    except ValueError as err:
        raise fail(str(err)) from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    with contextlib.suppress(KeyboardInterrupt, asyncio.CancelledError):
        event_loop.run(_serve(nats_url, table, chosen))
    raise typer.Exit(0)


async def _serve(nats_url: str, table: str, fault: Fault) -> None:
    task = asyncio.current_task()
    assert task is not None
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, task.cancel)
    await run_controller(nats_url, table, fault)
