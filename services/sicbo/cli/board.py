"""``sicbo board``: a table's statistics board (004) and game recall (AGCO 13.1), asked of the
board service (``sicbo serve board``) and printed as a readable board or as JSON.

Exit status: 0 answered, 1 the service rejected the query, 2 bad input or no service.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

import msgspec
import nats
import typer
from rich.console import Console
from rich.table import Table

from sicbo.cli.common import DEFAULT_NATS_URL, NatsOption, fail
from sicbo.infra.nats_auth import connect_options
from sicbo.infra.nats_urls import redacted
from sicbo_contracts.board import (
    RECALL_DEPTH,
    STATS_DEPTH,
    Recall,
    RecallQuery,
    RecallRound,
    StatsBoard,
    StatsQuery,
)
from sicbo_contracts.replies import Rejected
from sicbo_contracts.subjects import recall_query, stats_query

T = TypeVar("T")

app = typer.Typer(help="The statistics board and game recall of a table.", no_args_is_help=True)

TableArg = Annotated[str, typer.Argument(help="table id")]
JsonOption = Annotated[bool, typer.Option("--json", help="the answer as JSON")]
TimeoutOption = Annotated[float, typer.Option(help="seconds to wait for the answer")]
_TABLE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")  # sicbo_contracts.base.TableId
NOT_A_PREDICTION = "Past results only: every roll of the dice is independent of the ones before."


async def _request(nats_url: str, subject: str, payload: bytes, timeout: float) -> bytes:
    nc = await nats.connect(
        nats_url, connect_timeout=5, max_reconnect_attempts=1, **connect_options(nats_url)
    )
    try:
        return (await nc.request(subject, payload, timeout=timeout)).data
    finally:
        await nc.close()


def _table(table: str) -> str:
    if not _TABLE.match(table):
        raise fail(f"not a table id: {table!r}")
    return table


def _ask(nats_url: str, subject: str, query: Any, answer: Any, timeout: float) -> Any:
    try:
        raw = asyncio.run(_request(nats_url, subject, msgspec.json.encode(query), timeout))
    except (nats.errors.NoRespondersError, nats.errors.TimeoutError):
        raise fail(
            f"no board service answered on {redacted(nats_url)} (sicbo serve board)"
        ) from None
    except (OSError, nats.errors.NoServersError):
        raise fail(f"cannot reach NATS at {redacted(nats_url)}") from None
    reply = msgspec.json.decode(raw, type=answer | Rejected)
    if isinstance(reply, Rejected):
        typer.echo(f"rejected ({reply.code}): {reply.reason}", err=True)
        raise typer.Exit(1)
    return reply


def _show(answer: T, as_json: bool, render: Callable[[T, Console], None]) -> None:
    if as_json:
        typer.echo(msgspec.json.encode(answer).decode())
    else:
        render(answer, Console())


@app.command("stats")
def stats(
    table: TableArg,
    limit: Annotated[
        int, typer.Option(min=1, max=STATS_DEPTH, help="results to show")
    ] = STATS_DEPTH,
    as_json: JsonOption = False,
    nats_url: NatsOption = DEFAULT_NATS_URL,
    timeout: TimeoutOption = 10.0,
) -> None:
    """The statistics board: the table's last results (004: 50) and their counts."""
    board: StatsBoard = _ask(
        nats_url, stats_query(_table(table)), StatsQuery(limit=limit), StatsBoard, timeout
    )
    _show(board, as_json, print_board)


@app.command("recall")
def recall(
    table: TableArg,
    limit: Annotated[
        int, typer.Option(min=1, max=RECALL_DEPTH, help="rounds to recall")
    ] = RECALL_DEPTH,
    as_json: JsonOption = False,
    nats_url: NatsOption = DEFAULT_NATS_URL,
    timeout: TimeoutOption = 10.0,
) -> None:
    """Game recall: the table's last rounds (AGCO 13.1: 10) in full detail, oldest first."""
    answer: Recall = _ask(
        nats_url, recall_query(_table(table)), RecallQuery(limit=limit), Recall, timeout
    )
    _show(answer, as_json, print_recall)


# ---- rendering ----------------------------------------------------------------------------


def _dice(dice: Any) -> str:
    return "-".join(str(d) for d in dice) if dice else ""


def print_board(board: StatsBoard, console: Console) -> None:
    n = len(board.results)
    results = Table(
        title=f"{board.table}: the last {n} results (oldest first), as of seq {board.as_of}"
    )
    for column in ("round", "dice", "total", "big/small", "odd/even", ""):
        results.add_column(column, justify="right" if column in ("round", "total") else "left")
    for r in board.results:
        size = "triple" if r.triple else "big" if r.big else "small" if r.small else ""
        parity = "odd" if r.odd else "even" if r.even else "-"
        results.add_row(
            str(r.round),
            _dice(r.dice),
            str(r.total),
            size,
            parity,
            "corrected" if r.corrected else "",
        )
    console.print(results)
    console.print(
        f"big {board.big}   small {board.small}   odd {board.odd}   even {board.even}"
        f"   triples {board.triples}"
    )
    totals = Table(title="totals")
    for total in board.totals:
        totals.add_column(str(total), justify="right")
    totals.add_row(*(str(c) for c in board.totals.values()))
    console.print(totals)
    faces = Table(title="faces (dice showing each)")
    for face in board.faces:
        faces.add_column(str(face), justify="right")
    faces.add_row(*(str(c) for c in board.faces.values()))
    console.print(faces)
    if board.voids:
        voids = ", ".join(f"{v.round} ({v.basis.value}: {v.reason})" for v in board.voids)
        console.print(f"void rounds, not counted: {voids}")
    console.print(f"[dim]{NOT_A_PREDICTION}[/dim]")


def _headline(r: RecallRound) -> str:
    text = f"round {r.round} ({r.paytable}), started {r.started_at.isoformat(timespec='seconds')}"
    if r.dice is not None:
        text += f": result {_dice(r.dice)}"
        if r.final_dice is not None and r.final_dice != r.dice:
            text += f", corrected to {_dice(r.final_dice)}"
    return text


def _void_line(r: RecallRound) -> str:
    if r.void is None:
        return ""
    v = r.void
    text = f"{v.basis.value}: {v.reason}"
    if v.detail:
        text += f" ({v.detail})"
    if v.consequence:
        text += f"; wagers: {v.consequence}"
    if v.forfeits:
        text += f"; forfeited: {', '.join(v.forfeits)}"
    return f"[yellow]{text}[/yellow], by {v.actor.id} at {v.at.isoformat(timespec='seconds')}"


def print_recall(answer: Recall, console: Console) -> None:
    console.print(
        f"[bold]{answer.table}[/bold]: the last {len(answer.rounds)} rounds (oldest first), as of"
        f" seq {answer.as_of}"
    )
    for r in answer.rounds:
        console.rule(_headline(r))
        if r.void is not None:
            console.print(_void_line(r))
        for c in r.corrections:
            console.print(
                f"correction (seq {c.seq}) by {c.actor.id}: {_dice(c.before)} -> {_dice(c.after)}"
                f" ({c.reason})"
            )
        wagers = Table()
        for column in (
            "slip",
            "#",
            "player",
            "bet",
            "stake",
            "medium",
            "outcome",
            "returned",
            "final",
        ):
            wagers.add_column(column, justify="right" if column in ("#", "stake") else "left")
        for w in r.wagers:
            final = ""
            if w.final_returned is not None and w.final_returned != w.returned:
                final = f"{w.final_outcome.value if w.final_outcome else ''} {w.final_returned}"
            wagers.add_row(
                w.slip_id,
                str(w.index),
                w.player,
                w.bet,
                str(w.stake),
                w.medium + (" (carried in)" if w.carried_in else ""),
                w.outcome.value if w.outcome else "not settled",
                "" if w.returned is None else str(w.returned),
                final,
            )
        if r.wagers:
            console.print(wagers)
        for a in r.adjustments:
            console.print(
                f"adjustment for correction {a.correction_seq}: {_dice(a.before)} ->"
                f" {_dice(a.after)}, {len(a.wagers)} wagers, {a.delta:+d}"
            )
        if r.refund is not None:
            console.print(
                f"refund after cancellation (seq {r.refund.cancel_seq}, {r.refund.reason}):"
                f" {len(r.refund.wagers)} wagers, {r.refund.delta:+d}"
            )
        if r.settled:
            console.print(
                f"staked {r.staked}, returned {r.returned}, house result {r.house_result}"
                + ("" if r.completed else " (not completed yet)")
            )
        else:
            console.print("[yellow]not settled yet[/yellow]")
