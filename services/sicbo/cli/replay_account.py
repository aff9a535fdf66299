"""``sicbo replay account PLAYER``: a player's statement from the accounts' log, and the
accounts' half of ``sicbo replay verify`` (:mod:`sicbo.replay.accounts`)."""

from __future__ import annotations

from typing import Annotated

import msgspec
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from sicbo.cli.common import DEFAULT_NATS_URL, NatsOption, fail, read_or_exit
from sicbo.eventstore.records import StoredEvent
from sicbo.replay.findings import Finding
from sicbo.replay.floor import read_accounts as read_log_of_accounts
from sicbo.replay.statement import Statement, statement
from sicbo.shell.headers import COMMAND_ID
from sicbo_contracts.subjects import ACCOUNT_STREAM, ACCOUNTS_ALL, account_filter


def read_accounts(nats_url: str, subject_filter: str = ACCOUNTS_ALL) -> list[StoredEvent]:
    """The accounts' log (or a filter of it); exit 2 when it cannot be read."""
    return read_or_exit(
        nats_url,
        f"the accounts' stream {ACCOUNT_STREAM}",
        lambda: read_log_of_accounts(nats_url, subject_filter, bulk=False),  # one account
    )


def replay_account(
    player: Annotated[str, typer.Argument(help="the player's account id")],
    as_json: Annotated[bool, typer.Option("--json", help="the statement as JSON")] = False,
    nats_url: NatsOption = DEFAULT_NATS_URL,
) -> None:
    """A player's statement from the log: every entry with the balance before and after it,
    and per round the balance before, stakes, refunds, returns, adjustments and after.

    Exit status: 0 the account folds as recorded, 1 a broken invariant, 2 no such account or
    no server."""
    try:
        subject_filter = account_filter(player)
    except ValueError as err:
        raise fail(str(err)) from None
    found = statement(read_accounts(nats_url, subject_filter), player, command_header=COMMAND_ID)
    if not found.lines:
        raise fail(f"player {player!r} has no account in the log")
    if as_json:
        typer.echo(msgspec.json.encode(found).decode())
    else:
        _print(found)
    raise typer.Exit(0 if found.ok else 1)


def _print(found: Statement) -> None:
    console = Console()
    currency = found.currency or "?"
    lines = Table(title=f"account {found.player} ({currency}): entries")
    for column in ("seq", "at", "type", "table", "round", "slip", "amount", "before", "after"):
        lines.add_column(
            column, justify="right" if column in ("amount", "before", "after") else "left"
        )
    for line in found.lines:
        style = "red" if line.recorded is not None and line.recorded != line.after else None
        lines.add_row(
            str(line.seq),
            line.at.isoformat(timespec="seconds"),
            line.type,
            line.table or "",
            str(line.round or ""),
            line.slip_id or "",
            f"{line.amount:+d}" if line.amount else "",
            str(line.before),
            str(line.after),
            style=style,
        )
    console.print(lines)
    if found.rounds:
        rounds = Table(title="per round")
        for column in (
            "table",
            "round",
            "before",
            "staked",
            "refunded",
            "returned",
            "adjusted",
            "after",
        ):
            rounds.add_column(column, justify="left" if column == "table" else "right")
        for r in found.rounds:
            rounds.add_row(
                r.table,
                str(r.round),
                str(r.before),
                str(r.staked),
                str(r.refunded),
                str(r.returned),
                f"{r.adjusted:+d}" if r.adjusted else "",
                str(r.after),
            )
        console.print(rounds)
    console.print(f"balance {found.balance} {currency}")
    if not found.violations:
        console.print("account invariants: [green]none broken[/green]")
    for f in found.violations:
        console.print(f"  [red]VIOLATION[/red] {escape(describe(f))}", highlight=False)


def describe(f: Finding) -> str:
    """One finding of an account, for people."""
    where = f" {f.table} round {f.round}" if f.table else ""
    head = f"{ACCOUNT_STREAM} seq {f.seq} account {f.account}{where}"
    return f"{head} ({f.check}, {f.event}): {f.message}"
