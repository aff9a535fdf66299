"""What the subcommands share: the NATS URL option and running a coroutine."""

from pathlib import Path
from typing import Annotated

import typer

from sicbo.infra import event_loop
from sicbo.infra.nats_auth import connect_options

DEFAULT_NATS_URL = "nats://127.0.0.1:4222"

NatsOption = Annotated[
    str,
    typer.Option(
        "--nats", envvar="NATS_URL", help="NATS server URL (default: $NATS_URL or local 4222)"
    ),
]


#: The gateway's operator list (``sicbo gateway serve``, ``sicbo run``).
OperatorsOption = Annotated[
    Path | None,
    typer.Option(envvar="SICBO_OPERATORS", help="the gateway's operator list (TOML)"),
]


def fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def check_nats_settings(nats_url: str) -> None:
    """A bad NATS setting of the environment (``NATS_CA_FILE``, ``NATS_PASSWORD_FILE``, ...)
    stops a long-running command at once, with the reason and no traceback."""
    try:
        connect_options(nats_url)
    except ValueError as err:
        raise fail(str(err)) from None


def event_loop_setting() -> event_loop.Loop:
    """The event loop of a long-running command (``SICBO_EVENT_LOOP``); a bad value stops it at
    once, with the reason and no traceback."""
    try:
        return event_loop.chosen()
    except ValueError as err:
        raise fail(str(err)) from None
