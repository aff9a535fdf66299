"""``sicbo results``: read the public results feed, and set up the partners' copy of it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Annotated

import msgspec
import nats
import typer

from sicbo.cli.common import DEFAULT_NATS_URL, NatsOption, fail
from sicbo.eventstore.errors import StoreError
from sicbo.infra.nats_auth import connect_options
from sicbo.infra.nats_urls import redacted
from sicbo.provisioning import ProvisionError, ProvisionReport, provision
from sicbo.results.partners import partner_copy
from sicbo.results.reader import describe, tail
from sicbo_contracts.results import RoundResult
from sicbo_contracts.subjects import PARTNER_STREAM, RESULTS_STREAM, RESULTS_TABLES, results

CONNECT_WITHIN = 10.0  # seconds

app = typer.Typer(help="The public results feed for integration partners.", no_args_is_help=True)


class Unreachable(Exception):
    pass


async def _tail(
    nats_url: str, stream: str, subject_filter: str, last: int, count: int | None, as_json: bool
) -> None:
    def emit(result: RoundResult) -> None:
        typer.echo(msgspec.json.encode(result).decode() if as_json else describe(result))

    told: list[str] = []

    async def remember(exc: Exception) -> None:  # e.g. a permissions violation; reconnects
        told.append(str(exc))

    # Connecting must succeed within CONNECT_WITHIN; after that a lost server is waited for.
    try:
        nc = await asyncio.wait_for(
            nats.connect(
                nats_url,
                connect_timeout=2,
                max_reconnect_attempts=-1,
                error_cb=remember,
                **connect_options(nats_url),
            ),
            CONNECT_WITHIN,
        )
    except (OSError, nats.errors.NoServersError) as exc:  # TimeoutError is an OSError
        raise Unreachable(nats_url) from exc
    try:
        await tail(
            nc, stream=stream, subject_filter=subject_filter, last=last, emit=emit, count=count
        )
    except (StoreError, nats.errors.Error, TimeoutError) as exc:
        said = f"; the server said: {told[-1]}" if told else ""
        raise StoreError(f"cannot read {stream}: {exc!r}{said}") from exc
    finally:
        await nc.close()


@app.command("tail")
def tail_command(
    table: Annotated[str | None, typer.Option("--table", help="only this table")] = None,
    last: Annotated[
        int, typer.Option("--last", min=0, help="first print the last N stored results")
    ] = 0,
    count: Annotated[
        int | None, typer.Option("--count", min=1, help="stop after N results (default: never)")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one result.v1 JSON per line")] = False,
    stream: Annotated[
        str,
        typer.Option(help=f"results stream to replay from (partners: {PARTNER_STREAM})"),
    ] = RESULTS_STREAM,
    nats_url: NatsOption = DEFAULT_NATS_URL,
) -> None:
    """Print results as they are published (Ctrl-C stops), after the last N with --last."""
    subject_filter = results(table) if table else RESULTS_TABLES  # no heartbeats
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(_tail(nats_url, stream, subject_filter, last, count, as_json))
    except Unreachable:
        raise fail(f"cannot reach NATS at {redacted(nats_url)}") from None
    except StoreError as exc:
        raise fail(str(exc)) from None


async def _copy(nats_url: str, replicas: int, upgrade: bool) -> ProvisionReport:
    nc = await nats.connect(nats_url, connect_timeout=5, **connect_options(nats_url))
    try:
        return await provision(nc, resources=[partner_copy(replicas)], upgrade=upgrade)
    finally:
        await nc.close()


@app.command("copy")
def copy_command(
    replicas: Annotated[int, typer.Option(min=1, max=5, help="stream replicas")] = 1,
    nats_url: NatsOption = DEFAULT_NATS_URL,
    upgrade: Annotated[
        bool,
        typer.Option(
            "--upgrade", help="turn on what a newer floor adds to the copy (allow_msg_ttl)"
        ),
    ] = False,
) -> None:
    """Create the partners' copy of the feed (run as the PARTNERS account's admin user;
    deploy/nats/README.md). Idempotent; a differing existing copy is reported (exit 1)."""
    try:
        report = asyncio.run(_copy(nats_url, replicas, upgrade))
    except (OSError, nats.errors.NoServersError):
        raise fail(f"cannot reach NATS at {redacted(nats_url)}") from None
    except ProvisionError as exc:  # e.g. not the PARTNERS admin: the request is refused
        raise fail(f"{exc} (is this the PARTNERS account's admin user?)") from None
    for result in report.results:
        typer.echo(str(result))
    if not report.ok:
        raise fail("the existing copy differs; nothing was overwritten", code=1)
