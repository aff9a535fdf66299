"""``sicbo replay``: settle again from the log alone, for disputes and audits.

``sicbo replay round TABLE ROUND`` shows a round's history and each wager's result as recorded
next to the recomputation; ``sicbo replay verify`` re-settles every settled round (and
re-folds every player's account); ``sicbo replay account PLAYER`` prints a statement. Both also
check the log's own invariants (:mod:`sicbo.replay.invariants`) and list each violation under
"log invariants" with its stream sequence. Both exit 1 when anything recorded differs from the
recomputation or an invariant is broken.
"""

from __future__ import annotations

import os
from datetime import datetime
from typing import Annotated

import msgspec
import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from sicbo.cli.common import DEFAULT_NATS_URL, NatsOption, fail, read_or_exit
from sicbo.cli.replay_account import describe, replay_account
from sicbo.eventstore.records import StoredEvent
from sicbo.replay.findings import Finding
from sicbo.replay.floor import read_log, verify_floor
from sicbo.replay.report import MISMATCH, RoundReport, round_report
from sicbo.replay.verify import Verification
from sicbo_contracts.subjects import table_filter

FLOOR_LOGS = "the floor's logs"

app = typer.Typer(help="Settle again from the log and compare with the record.")
app.command("account")(replay_account)


def _read_or_exit(nats_url: str, subject_filter: str) -> list[StoredEvent]:
    return read_or_exit(nats_url, FLOOR_LOGS, lambda: read_log(nats_url, subject_filter))


@app.command("round")
def replay_round(
    table: Annotated[str, typer.Argument(help="table id")],
    round_no: Annotated[int, typer.Argument(metavar="ROUND", help="round number")],
    as_json: Annotated[bool, typer.Option("--json", help="the report as JSON")] = False,
    nats_url: NatsOption = DEFAULT_NATS_URL,
) -> None:
    """Replay one round: its history, every wager recorded vs recomputed, and the log's
    invariants broken by the round's events.

    Exit status: 0 the record matches, 1 a mismatch or a broken invariant, 2 no such round or
    no server."""
    # The whole table: limits, and wagers carried in from earlier void rounds, are facts too.
    stored = _read_or_exit(nats_url, table_filter(table))
    report = round_report(stored, table, round_no)
    if report.status == "NOT STARTED":
        raise fail(f"round {round_no} of {table} has not started in the log")
    if as_json:
        typer.echo(msgspec.json.encode(report).decode())
    else:
        _print_report(report)
    raise typer.Exit(0 if report.ok else 1)


def _print_report(report: RoundReport) -> None:
    console = Console()
    history = Table(title=f"{report.table} round {report.round}: history")
    for column in ("seq", "stored", "type", "actor"):
        history.add_column(column)
    for h in report.history:
        history.add_row(str(h.seq), h.time.isoformat(timespec="milliseconds"), h.type, h.actor)
    console.print(history)
    wagers = Table(title="wagers: recorded vs recomputed")
    for column in (
        "slip",
        "#",
        "player",
        "bet",
        "stake",
        "medium",
        "outcome",
        "settled",
        "adjusted",
        "recorded",
        "recomputed",
        "status",
    ):
        wagers.add_column(column, justify="right" if column in ("stake", "#") else "left")
    for w in report.wagers:
        style = "red" if w.status == MISMATCH else None
        wagers.add_row(
            w.slip_id,
            str(w.index),
            w.player,
            w.bet,
            str(w.stake),
            w.medium,
            w.outcome,
            str(w.settled),
            f"{w.adjusted:+d}" if w.adjusted else "",
            str(w.recorded),
            str(w.recomputed),
            w.status,
            style=style,
        )
    console.print(wagers)
    dice = f"dice {report.dice}" if report.dice else "no dice"
    if report.final_dice != report.dice:
        dice += f", corrected to {report.final_dice}"
    console.print(
        f"basis {report.basis} ({report.paytable}), {dice}; facts as of seq {report.as_of}\n"
        f"staked {report.staked}, returned {report.returned} (recomputed"
        f" {report.recomputed_returned}), house result {report.house_result}"
    )
    for problem in report.problems:
        console.print(f"[red]problem:[/red] {problem}")
    if report.voided_by is not None:
        console.print(f"cancelled after the result (seq {report.voided_by}): every wager refunded")
    for seq in report.pending_corrections:
        console.print(
            f"[yellow]pending:[/yellow] seq {seq} (correction or cancellation) not compensated yet"
        )
    colour = "red" if report.status == MISMATCH else "green"
    console.print(f"[{colour}]{report.status}[/{colour}]")
    _print_findings(console, report.invariants)


def _finding(f: Finding) -> str:
    if f.account is not None:
        return describe(f)
    return f"seq {f.seq} {f.table} round {f.round} ({f.check}, {f.event}): {f.message}"


def _print_findings(console: Console, findings: list[Finding]) -> None:
    if not findings:
        console.print("log invariants: [green]none broken[/green]")
        return
    console.print(f"[red]log invariants: {len(findings)} broken[/red]")
    for f in findings:
        console.print(f"  [red]VIOLATION[/red] {escape(_finding(f))}", highlight=False)


@app.command("verify")
def replay_verify(
    table: Annotated[str | None, typer.Option("--table", help="only this table")] = None,
    since: Annotated[
        str | None,
        typer.Option("--since", help="only rounds settled at or after this ISO time"),
    ] = None,
    jobs: Annotated[
        int, typer.Option("--jobs", "-j", min=1, help="worker processes (tables in parallel)")
    ] = os.cpu_count() or 1,
    as_json: Annotated[bool, typer.Option("--json", help="the verification as JSON")] = False,
    nats_url: NatsOption = DEFAULT_NATS_URL,
) -> None:
    """Re-settle every settled round in the log and check the log's invariants; print each
    mismatch, each violation and a summary.

    Exit status: 0 all match and no invariant is broken, 1 a mismatch (or a settlement replay
    cannot read) or a broken invariant, 2 bad input."""
    since_at = _parse_since(since)
    done = read_or_exit(
        nats_url, FLOOR_LOGS, lambda: verify_floor(nats_url, jobs=jobs, table=table, since=since_at)
    )
    result, read_s = done.result, done.read_seconds
    if as_json:
        typer.echo(_verification_json(result, done.events, read_s, done.seconds - read_s))
    else:
        _print_verification(result, done.events, read_s, done.seconds - read_s)
    raise typer.Exit(0 if result.ok else 1)


def _parse_since(since: str | None) -> datetime | None:
    if since is None:
        return None
    try:
        parsed = datetime.fromisoformat(since)
    except ValueError:
        raise fail(
            f"--since {since!r} is not an ISO time (e.g. 2026-01-31T20:00:00+00:00)"
        ) from None
    if parsed.tzinfo is None:
        raise fail(f"--since {since!r} needs a time zone (e.g. +00:00 or Z)")
    return parsed


def _print_verification(result: Verification, events: int, read_s: float, check_s: float) -> None:
    for audit in result.mismatches:
        typer.echo(f"MISMATCH {audit.table} round {audit.round}:")
        for problem in audit.problems:
            typer.echo(f"  {problem}")
        for check in audit.mismatches:
            recorded = check.final.returned if check.final else None
            expected = check.expected_final.returned if check.expected_final else None
            settled = check.settled.returned if check.settled else None
            typer.echo(
                f"  wager {check.key[0]}#{check.key[1]}: recorded {recorded} (settled"
                f" {settled}), recomputed {expected}"
            )
    for name, seq in result.undecodable:
        typer.echo(f"UNREADABLE settlement message {name} seq {seq}")
    for name, round_no, seq in result.pending:
        typer.echo(f"pending: {name} round {round_no}: seq {seq} not compensated yet")
    for name, round_no in result.unsettled:
        typer.echo(f"not settled yet: {name} round {round_no}")
    if result.violations:
        typer.echo(f"log invariants: {len(result.violations)} broken")
        for f in sorted(result.violations, key=lambda f: (f.account or "", f.table, f.seq)):
            typer.echo(f"  VIOLATION {_finding(f)}")
    else:
        typer.echo("log invariants: none broken")
    total = read_s + check_s
    rate = result.wagers / check_s if check_s > 0 else 0.0
    overall = result.wagers / total if total > 0 else 0.0
    typer.echo(
        f"verified {result.rounds} rounds, {result.wagers} wagers from {events} events:"
        f" {len(result.mismatches)} mismatched rounds, {len(result.violations)} log invariant"
        f" violations; read {read_s:.2f} s, re-settled and checked in"
        f" {check_s:.2f} s ({rate:,.0f} wagers/s; {overall:,.0f} wagers/s with the read)"
    )


def _verification_json(result: Verification, events: int, read_s: float, check_s: float) -> str:
    mismatches = [
        {
            "table": audit.table,
            "round": audit.round,
            "problems": audit.problems,
            "wagers": [
                {
                    "slip_id": c.key[0],
                    "index": c.key[1],
                    "recorded": c.final.returned if c.final else None,
                    "settled": c.settled.returned if c.settled else None,
                    "recomputed": c.expected_final.returned if c.expected_final else None,
                }
                for c in audit.mismatches
            ],
        }
        for audit in result.mismatches
    ]
    document = {
        "ok": result.ok,
        "events": events,
        "rounds": result.rounds,
        "wagers": result.wagers,
        "mismatches": mismatches,
        "undecodable": [{"table": t, "seq": s} for t, s in result.undecodable],
        "pending": [{"table": t, "round": r, "seq": s} for t, r, s in result.pending],
        "unsettled": [{"table": t, "round": r} for t, r in result.unsettled],
        "violations": sorted(result.violations, key=lambda f: (f.account or "", f.table, f.seq)),
        "read_seconds": round(read_s, 3),
        "check_seconds": round(check_s, 3),
    }
    return msgspec.json.encode(document).decode()
