"""``python -m sicbo.bench``: run every benchmark and print its figures (``make bench``);
``--large`` adds how cost grows (:mod:`.growth`, several minutes more); ``--only PART[,PART]``
runs only those parts (``settle``, ``floor``: intake, settlement and replay verify of its log,
``replay``: the same floor, ``load``, ``gateway``, ``feed``; ``large`` as ``--large``)."""

import argparse
import asyncio
import os
import platform
import sys

from rich.console import Console
from rich.table import Table

from sicbo.bench.feed import bench_feed
from sicbo.bench.floor import FloorFigures, bench_floor
from sicbo.bench.game import bench_settle
from sicbo.bench.gateway import bench_gateway
from sicbo.bench.growth import bench_growth, growth_rows
from sicbo.bench.jetstream import RateFigure
from sicbo.bench.load import bench_load, load_rows

PARTS = ("settle", "floor", "replay", "load", "gateway", "feed", "large")


def _parts(argv: list[str]) -> set[str]:
    parser = argparse.ArgumentParser(prog="python -m sicbo.bench")
    parser.add_argument("--large", action="store_true", help="add how cost grows (minutes)")
    parser.add_argument("--only", help=f"comma-separated parts of {', '.join(PARTS)}")
    args = parser.parse_args(argv)
    if args.only is None:
        return {p for p in PARTS if p != "large" or args.large}
    chosen = {p.strip() for p in args.only.split(",") if p.strip()}
    if unknown := chosen - set(PARTS):
        parser.error(f"no such part: {', '.join(sorted(unknown))} (parts: {', '.join(PARTS)})")
    if "replay" in chosen:
        chosen.add("floor")  # replay verifies the log the floor's intake and rounds made
    return chosen | ({"large"} if args.large else set())


def main() -> None:
    parts = _parts(sys.argv[1:])
    console = Console()
    console.print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    table = Table(title="sicbo benchmarks")
    for column in ("what", "figure", "goal"):
        table.add_column(column)

    if "settle" in parts:
        settle = bench_settle()
        table.add_row(
            f"settle path, one round of {settle.wagers:,} mixed wagers (pure library, one core)",
            f"{settle.per_second:,.0f} wagers/s ({settle.seconds * 1000:.1f} ms)",
            ">= 2,000,000 wagers/s",
        )
    if "floor" in parts:
        console.print("running the floor (nats-server and the services as processes)...")
        _floor_rows(table, asyncio.run(bench_floor()))
    if "load" in parts:
        console.print("running the floor load (tables stepped up, rounds back to back)...")
        for row in load_rows(asyncio.run(bench_load())):
            table.add_row(*row)
    if "large" in parts:
        console.print("running how cost grows (100,000-wager round, 1,000,000-wager log)...")
        for row in growth_rows(asyncio.run(bench_growth())):
            table.add_row(*row)
    if "gateway" in parts:
        _gateway_rows(table)
    if "feed" in parts:
        _feed_rows(table)
    console.print(table)


def _floor_rows(table: Table, floor: FloorFigures) -> None:
    ref = RateFigure.together(floor.references)
    before, after = floor.references
    table.add_row(
        f"reference: raw JetStream appends, nats-py js.publish, 100 in flight ({before.count:,}"
        " right before the 16 clients' intake and as many right after)",
        f"{ref.per_second:,.0f} appends/s (before {before.per_second:,.0f}, after"
        f" {after.per_second:,.0f})",
        "",
    )
    intake = floor.intake
    table.add_row(
        f"wager intake end to end, {intake.clients} clients, slips of 4 wagers"
        f" ({intake.wagers:,} wagers)",
        f"{intake.per_second:,.0f} wagers/s = {intake.per_second / ref.per_second:.2f}x reference;"
        f" accept p50 {intake.percentile(0.5):.1f} ms, p99 {intake.percentile(0.99):.1f} ms",
        ">= 1.0x reference",
    )
    matched = floor.matched
    table.add_row(
        f"wager intake, {matched.clients} clients (as many slips in flight as the reference's"
        f" appends), slips of 4 wagers ({matched.wagers:,} wagers)",
        f"{matched.per_second:,.0f} wagers/s = {matched.per_second / ref.per_second:.2f}x"
        f" reference; accept p50 {matched.percentile(0.5):.1f} ms,"
        f" p99 {matched.percentile(0.99):.1f} ms",
        ">= 1.0x reference",
    )
    wallet = floor.wallet
    table.add_row(
        f"wager intake with the wallet: a table in a currency, {wallet.clients} players with"
        f" funded accounts, each slip debited ({wallet.wagers:,} wagers)",
        f"{wallet.per_second:,.0f} wagers/s = {wallet.per_second / intake.per_second:.2f}x"
        f" intake without it; accept p50 {wallet.percentile(0.5):.1f} ms,"
        f" p99 {wallet.percentile(0.99):.1f} ms",
        ">= 0.70x intake without it",
    )
    paid = floor.wallet_paid
    table.add_row(
        f"the wallet round's {paid.wagers:,} wagers settled and paid into the accounts"
        " (result confirmed -> round completed; one entry per winning wager)",
        f"{paid.milliseconds:,.0f} ms",
        "",
    )
    for s in floor.settlements:
        table.add_row(
            f"settlement of a {s.wagers:,}-wager round (result confirmed -> settlement stored)",
            f"{s.milliseconds:.0f} ms",
            "<= 250 ms for 10,000",
        )
    v = floor.verify
    runs = ", ".join(f"{rate:,.0f}" for rate in v.rates)
    table.add_row(
        f"replay verify: {v.rounds} rounds, {v.wagers:,} wagers, read + re-settle + the"
        f" accounts (tables over the cores, as `sicbo replay verify`; the median of"
        f" {len(v.rates)} runs on the log)",
        f"{v.per_second:,.0f} wagers/s (read {v.read_seconds:.2f} s, re-settle and"
        f" accounts {v.check_seconds:.2f} s; runs {runs}){'' if v.ok else ' MISMATCH'}",
        "> 100,000 wagers/s",
    )


def _gateway_rows(table: Table) -> None:
    Console().print("running the web gateway against a table's log...")
    gw = asyncio.run(bench_gateway())
    table.add_row(
        f"gateway: a table's view, cold (folded from {gw.events:,} lifecycle events,"
        f" {gw.rounds} rounds)",
        f"{gw.cold_ms:.0f} ms",
        "",
    )
    table.add_row(
        "gateway: a table's view, warm (caught up from the last sequence), one client",
        f"p50 {gw.warm.percentile(0.5):.1f} ms, p99 {gw.warm.percentile(0.99):.1f} ms,"
        f" {gw.warm_per_second:,.0f} requests/s",
        "",
    )
    table.add_row(
        "gateway: command sent -> the page's change event (server-sent events)",
        f"p50 {gw.change.percentile(0.5):.1f} ms, p99 {gw.change.percentile(0.99):.1f} ms",
        "",
    )


def _feed_rows(table: Table) -> None:
    Console().print("running the results feed on the floor's accounts, with the partners' copy...")
    feed = asyncio.run(bench_feed())
    for where, got in (
        ("a subscriber of SICBO_RESULTS", feed.floor),
        ("a partner, through the copy RESULTS", feed.partner),
    ):
        table.add_row(
            f"results feed: recorded_at -> received by {where} ({feed.rounds} rounds)",
            f"p50 {got.percentile(0.5):.1f} ms, p99 {got.percentile(0.99):.1f} ms",
            "",
        )


if __name__ == "__main__":
    main()
