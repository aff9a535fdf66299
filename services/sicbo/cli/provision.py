"""``sicbo provision``: create the floor's streams, consumers and buckets, idempotently."""

import asyncio
from typing import Annotated

import nats
import typer
from rich.console import Console
from rich.table import Table

from sicbo.cli.common import DEFAULT_NATS_URL, NatsOption, fail
from sicbo.infra.nats_auth import connect_options
from sicbo.infra.nats_urls import redacted, servers
from sicbo.log_leaders import spread
from sicbo.provisioning import Outcome, ProvisionReport, additive_only
from sicbo.provisioning import provision as provision_floor


async def _provision(
    nats_url: str, replicas: int, partitions: int, upgrade: bool, spread_leaders: bool
) -> tuple[ProvisionReport, dict[str, str | None]]:
    nc = await nats.connect(
        servers(nats_url), connect_timeout=5, max_reconnect_attempts=1, **connect_options(nats_url)
    )
    try:
        report = await provision_floor(
            nc, replicas=replicas, partitions=partitions, upgrade=upgrade
        )
        led = await spread(nc, partitions) if spread_leaders and report.ok else {}
        return report, led
    finally:
        await nc.close()


def provision(
    replicas: Annotated[
        int, typer.Option(min=1, max=5, help="stream replicas (3 in production)")
    ] = 1,
    partitions: Annotated[
        int,
        typer.Option(
            min=1,
            max=64,
            envvar="SICBO_PARTITIONS",  # the deployment's one setting: the services pin it too
            help="streams the floor's log is spread over, by table (1: the one stream SICBO;"
            " set once: growing it later moves tables, see docs/runbook.md)",
        ),
    ] = 1,
    nats_url: NatsOption = DEFAULT_NATS_URL,
    upgrade: Annotated[
        bool,
        typer.Option(
            "--upgrade",
            help="turn on settings a newer floor adds that change nothing stored"
            " (allow_msg_ttl for the feed's heartbeats); any other difference stays a conflict",
        ),
    ] = False,
    spread_leaders: Annotated[
        bool,
        typer.Option(
            "--spread-leaders",
            help="in a cluster, lead each partition stream from another server (again after"
            " a failed node is back: the survivors took its partitions over)",
        ),
    ] = False,
) -> None:
    """Create what is missing, leave what matches; a conflicting config is reported, not
    overwritten (exit status 1)."""
    try:
        report, led = asyncio.run(
            _provision(nats_url, replicas, partitions, upgrade, spread_leaders)
        )
    except (OSError, nats.errors.NoServersError):
        raise fail(f"cannot reach NATS at {redacted(nats_url)}") from None
    table = Table(title=f"provisioning on {redacted(nats_url)}")
    for column in ("kind", "name", "outcome", "details"):
        table.add_column(column)
    for result in report.results:
        style = "bold red" if result.outcome is Outcome.CONFLICT else None
        details = "; ".join(str(d) for d in result.differences) or (result.note or "")
        table.add_row(result.kind, result.name, result.outcome.value, details, style=style)
    Console().print(table)
    for stream, leader in led.items():
        Console().print(f"{stream} led by {leader or 'nobody yet (an election)'}")
    if not report.ok:
        additive = all(additive_only(r.differences) for r in report.conflicts if r.differences)
        hint = " (only settings --upgrade turns on: run again with --upgrade)" if additive else ""
        raise fail(f"existing configuration conflicts; nothing was overwritten{hint}", code=1)
