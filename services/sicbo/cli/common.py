"""What the subcommands share: the NATS URL option and running a coroutine."""

from collections.abc import Callable
from pathlib import Path
from typing import Annotated, TypeVar

import nats
import typer

from sicbo.eventstore.errors import StoreError
from sicbo.eventstore.layout import LayoutMismatch
from sicbo.infra import event_loop
from sicbo.infra.nats_auth import connect_options
from sicbo.infra.nats_urls import redacted

T = TypeVar("T")

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


def read_or_exit(nats_url: str, what: str, read: Callable[[], T]) -> T:
    """``read()``'s result; exit 2 saying why when ``what`` (a log of the floor) cannot be
    read: no server, not one whole set of partition streams, or the server's refusal."""
    try:
        return read()
    except (OSError, nats.errors.NoServersError):
        raise fail(f"cannot reach NATS at {redacted(nats_url)}") from None
    except LayoutMismatch as exc:  # no log, or not one whole set of partition streams
        raise fail(str(exc)) from None
    except (StoreError, nats.errors.Error) as err:
        raise fail(
            f"cannot read {what} ({err}): is the floor provisioned (`sicbo provision`)?"
        ) from None


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
