"""``sicbo send`` and ``sicbo log``: drive a table and read its history from the shell."""

import asyncio
import json
import sys
from typing import Annotated, Any

import msgspec
import nats
import typer
from rich.console import Console
from rich.table import Table

from sicbo.cli.common import DEFAULT_NATS_URL, NatsOption, fail
from sicbo.eventstore.layout import LayoutMismatch, open_floor_log
from sicbo.infra.nats_auth import connect_options, inbox_options
from sicbo.infra.nats_urls import redacted, servers
from sicbo_contracts.access import sender_for
from sicbo_contracts.base import DECODE_ERRORS, Role
from sicbo_contracts.routing import SERVICE_OF_TAG
from sicbo_contracts.subjects import command, round_history, table_filter

app = typer.Typer(help="Drive a table and read its log.", no_args_is_help=True)


async def _request(nats_url: str, subject: str, payload: bytes, timeout: float) -> bytes:
    # Replies on the user's own inbox: a terminal user (dealer, ...) may read no other.
    options = {**connect_options(nats_url), **inbox_options(nats_url)}
    nc = await nats.connect(
        servers(nats_url), connect_timeout=5, max_reconnect_attempts=1, **options
    )
    try:
        msg = await nc.request(subject, payload, timeout=timeout)
        return msg.data
    finally:
        await nc.close()


def send(
    table: Annotated[
        str, typer.Argument(help="table id (an account's command: the player's account id)")
    ],
    payload: Annotated[str, typer.Argument(help="the command as JSON, or - to read it from stdin")],
    nats_url: NatsOption = DEFAULT_NATS_URL,
    timeout: Annotated[float, typer.Option(help="seconds to wait for the reply")] = 5.0,
) -> None:
    """Send one command to the service that owns it and print the reply.

    It is sent as the role its actor names (``actor.role``; a service's command as that
    service), on that sender's subject: the NATS user (NATS_USER / NATS_PASSWORD_FILE, or the
    URL's) must be allowed to send as that role, and the service refuses an actor whose role
    is not the subject's. Exit status: 0 accepted, 1 rejected, 2 bad input or no reply."""
    text = sys.stdin.read() if payload == "-" else payload
    try:
        body = json.loads(text)
    except json.JSONDecodeError:
        body = None
    if not isinstance(body, dict):
        raise fail('the command must be a JSON object with a "type"')
    tag = body.get("type")
    service = SERVICE_OF_TAG.get(tag) if isinstance(tag, str) else None
    if service is None or not isinstance(tag, str):
        raise fail(f"unknown command type {tag!r}; known: {', '.join(sorted(SERVICE_OF_TAG))}")
    actor = body.get("actor")
    role = actor.get("role") if isinstance(actor, dict) else None
    if role not in set(Role):
        roles = ", ".join(r.value for r in Role)
        raise fail(f"actor.role: {role!r} is not a role ({roles}); it says whom to send as")
    sender = sender_for(Role(role), tag)
    try:
        subject = command(table, service, sender)
    except ValueError as err:
        raise fail(str(err)) from None
    where = redacted(nats_url)
    typer.echo(f"sending as {sender} (the command's actor.role) on {subject} at {where}", err=True)
    try:
        reply = asyncio.run(_request(nats_url, subject, text.encode(), timeout))
    except (nats.errors.NoRespondersError, nats.errors.TimeoutError):
        raise fail(
            f"no {service} service answered on {where} (or this NATS user may not send as {sender})"
        ) from None
    except (OSError, nats.errors.NoServersError):
        raise fail(f"cannot reach NATS at {where}") from None
    typer.echo(reply.decode())
    raise typer.Exit(0 if json.loads(reply).get("type") == "accepted.v1" else 1)


#: One line of ``sicbo log``: sequence, subject, the event as JSON (None when the stored
#: bytes are no JSON object) and what is wrong with them (None when nothing is).
LogLine = tuple[int, str, dict[str, Any] | None, str | None]


def log_line(seq: int, subject: str, data: bytes) -> LogLine:
    """A stored message as ``sicbo log`` shows it: a damaged or forged entry (bytes that are no
    JSON object) is a line saying so, never the end of the listing (``sicbo replay verify``
    reports it as a finding)."""
    try:
        body = msgspec.json.decode(data)
    except DECODE_ERRORS as err:
        return seq, subject, None, f"undecodable: not JSON ({err})"
    if not isinstance(body, dict):
        return seq, subject, None, f"undecodable: a JSON {type(body).__name__}, not an object"
    return seq, subject, body, None


async def _read(nats_url: str, subject_filter: str) -> list[LogLine]:
    nc = await nats.connect(nats_url, **connect_options(nats_url))
    try:
        events = await (await open_floor_log(nc)).read(subject_filter)
    finally:
        await nc.close()
    return [log_line(e.seq, e.subject, e.data) for e in events]


def json_line(line: LogLine) -> str:
    seq, subject, body, wrong = line
    out: dict[str, Any] = {"seq": seq, "subject": subject, "event": body}
    if wrong is not None:
        out["undecodable"] = wrong
    return json.dumps(out)


def table_row(line: LogLine) -> tuple[str, str, str, str, str, str]:
    """seq, time, round, event, actor, details: what each field of the event holds, whatever
    its type (a forged entry may carry an actor that is no object)."""
    seq, subject, body, wrong = line
    if body is None:
        return str(seq), "", "", subject, "", str(wrong)
    actor = body.get("actor")
    who = (
        f"{actor.get('role', '')} {actor.get('id', '')}"
        if isinstance(actor, dict)
        else str(actor or "")
    )
    skip = {"type", "table", "actor", "at", "round"}
    details = ", ".join(f"{k}={v}" for k, v in body.items() if k not in skip)
    at, round_no, kind = (str(body.get(k, "")) for k in ("at", "round", "type"))
    return str(seq), at, round_no, kind, who, details


def log(
    table: Annotated[str, typer.Argument(help="table id")],
    round_no: Annotated[int | None, typer.Option("--round", help="only this round")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object per line")] = False,
    nats_url: NatsOption = DEFAULT_NATS_URL,
) -> None:
    """Print a table's events in log order, with who did what and when."""
    subject_filter = round_history(table, round_no) if round_no is not None else table_filter(table)
    try:
        events = asyncio.run(_read(nats_url, subject_filter))
    except (OSError, nats.errors.NoServersError):
        raise fail(f"cannot reach NATS at {redacted(nats_url)}") from None
    except LayoutMismatch as exc:  # no log, or not one whole set of partition streams
        raise fail(str(exc)) from None
    if as_json:
        for line in events:
            typer.echo(json_line(line))
        return
    out = Table(title=f"table {table}" + (f", round {round_no}" if round_no else ""))
    for column in ("seq", "time", "round", "event", "actor", "details"):
        out.add_column(column)
    for line in events:
        out.add_row(*table_row(line))
    Console().print(out)
