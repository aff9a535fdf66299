"""``python -m sicbo.bench``: run every benchmark and print its figures."""

import os
import platform

from rich.console import Console
from rich.table import Table

from sicbo.bench.game import bench_settle


def main() -> None:
    console = Console()
    console.print(
        f"machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    )
    table = Table(title="sicbo benchmarks")
    for column in ("what", "figure", "goal"):
        table.add_column(column)
    settle = bench_settle()
    table.add_row(
        f"settle path, one round of {settle.wagers:,} mixed wagers (one core)",
        f"{settle.per_second:,.0f} wagers/s ({settle.seconds * 1000:.1f} ms)",
        ">= 2,000,000 wagers/s",
    )
    console.print(table)


if __name__ == "__main__":
    main()
