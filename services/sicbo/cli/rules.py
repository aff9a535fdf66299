"""``sicbo rules``: the game's rules from the command line, for people and for scripts."""

import json
import sys
from typing import Annotated

import msgspec
import typer
from rich.console import Console
from rich.table import Table

from sicbo.game.choices import ChoiceValue, parse_value
from sicbo.game.dice import make_roll
from sicbo.game.errors import GameError
from sicbo.game.house_edge import EdgeReport, format_pay, house_edge_report
from sicbo.game.profiles import PROFILE_IDS, Paytable, load_paytable
from sicbo.game.settlement import check_unit, parse_medium, settle_wager
from sicbo_contracts.base import DECODE_ERRORS

app = typer.Typer(help="The game's rules: profiles, house edge, settlement.", no_args_is_help=True)

ProfileOption = Annotated[str, typer.Option("--profile", "-p", help="rule profile id")]
ChoiceOption = Annotated[
    list[str] | None,
    typer.Option(
        "--choice",
        help="an operator's choice, NAME=VALUE (e.g. total-5-16=24, offer-odd=no,"
        " activation=electric)",
    ),
]


def paytable_or_exit(profile: str, choices: list[str] | None) -> Paytable:
    try:
        parsed: dict[str, ChoiceValue] = {}
        for item in choices or []:
            name, sep, value = item.partition("=")
            if not sep or not value:
                raise GameError(f"--choice {item!r}: write NAME=VALUE, e.g. total-5-16=24")
            parsed[name] = parse_value(value)
        return load_paytable(profile, parsed)
    except GameError as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None


@app.command("profiles")
def profiles() -> None:
    """List the rule profile ids."""
    for profile_id in PROFILE_IDS:
        typer.echo(profile_id)


def report_json(report: EdgeReport) -> dict[str, object]:
    bets = []
    for edge in report.bets:
        row: dict[str, object] = {
            "bet": edge.bet.id,
            "pays": format_pay(edge.pays),
            "wins_out_of_216": edge.wins_out_of_216,
            "house_edge": float(edge.house_edge),
            "rtp": float(edge.rtp),
        }
        if edge.pays_by_dice:
            row["pays_by_dice"] = [format_pay(p) for p in edge.pays_by_dice]
        if edge.no_house_edge:
            row["no_house_edge"] = True
        bets.append(row)
    return {
        "profile": report.paytable.profile.id,
        "paytable": report.paytable.ref,
        "max_rtp": float(report.max_rtp),
        "no_house_edge": [e.bet.id for e in report.no_house_edge],
        "bets": bets,
    }


def print_report(report: EdgeReport, console: Console) -> None:
    profile = report.paytable.profile
    table = Table(title=f"{profile.title} ({report.paytable.ref}, source {profile.source})")
    for header in ("bet", "pays", "wins /216", "house edge", "RTP"):
        table.add_column(header, justify="left" if header == "bet" else "right")
    for edge in report.bets:
        pays = " / ".join(map(format_pay, edge.pays_by_dice)) or format_pay(edge.pays)
        style = "bold red" if edge.no_house_edge else None
        table.add_row(
            edge.bet.id,
            pays,
            str(edge.wins_out_of_216),
            f"{float(edge.house_edge):.2%}",
            f"{float(edge.rtp):.2%}",
            style=style,
        )
    console.print(table)
    console.print(f"maximum RTP: {float(report.max_rtp):.2%}")
    for edge in report.no_house_edge:
        console.print(
            f"[bold red]WARNING: {edge.bet.id} has no house edge (RTP {float(edge.rtp):.2%})[/]"
        )


@app.command("table")
def table(
    profile: ProfileOption,
    as_json: Annotated[bool, typer.Option("--json", help="one JSON object")] = False,
    choice: ChoiceOption = None,
) -> None:
    """The house-edge report of a profile, computed from the 216 outcomes."""
    report = house_edge_report(paytable_or_exit(profile, choice))
    if as_json:
        typer.echo(json.dumps(report_json(report)))
    else:
        print_report(report, Console())


class SettleLine(msgspec.Struct, forbid_unknown_fields=True):
    dice: list[int]
    bet: str
    stake: int
    medium: str


_decode_line = msgspec.json.Decoder(SettleLine).decode
_encode = msgspec.json.Encoder().encode


def settle_line(paytable: Paytable, unit: int, line: str) -> dict[str, object]:
    """One input line to one output object; never raises for bad input."""
    try:
        if not line.strip():
            raise GameError("empty line: expected a JSON object")
        wager = _decode_line(line)
        roll = make_roll(wager.dice)
        settled = settle_wager(
            paytable, roll, wager.bet, wager.stake, parse_medium(wager.medium), unit=unit
        )
    except DECODE_ERRORS as err:  # malformed JSON, missing or unknown fields, wrong types
        return {"error": f"bad line: {err}"}
    except GameError as err:
        return {"error": str(err)}
    return {
        "outcome": settled.outcome.value,
        "winnings": settled.winnings,
        "returned": settled.returned,
    }


@app.command("settle")
def settle(
    profile: ProfileOption,
    unit: Annotated[int, typer.Option("--unit", help="the table's minimum unit")] = 1,
    choice: ChoiceOption = None,
) -> None:
    """Settle JSON-lines wagers from stdin: one result line per input line, in order.

    Input: {"dice": [a, b, c], "bet": id, "stake": int, "medium": "chips"|"color"|"promo"}.
    Output: {"outcome": "win"|"lose", "winnings": int, "returned": int} or {"error": "..."}.
    Exit status 2 if any line was bad.
    """
    paytable = paytable_or_exit(profile, choice)
    try:
        check_unit(unit)
    except GameError as err:
        typer.echo(f"error: --unit: {err}", err=True)
        raise typer.Exit(2) from None
    bad = False
    out = sys.stdout.buffer
    for line in sys.stdin:
        result = settle_line(paytable, unit, line)
        bad = bad or "error" in result
        out.write(_encode(result) + b"\n")
    out.flush()
    raise typer.Exit(2 if bad else 0)
