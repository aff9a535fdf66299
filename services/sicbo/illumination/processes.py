"""A layout controller as its own process (``sicbo layout-controller``), stopped by its PID:
for ``make run`` and the end-to-end tests."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from sicbo.infra.processes import ServiceProcess
from sicbo_contracts.subjects import layout_ping


class LayoutControllerProcess(ServiceProcess):
    def __init__(
        self,
        table: str,
        nats_url: str,
        *,
        fault: str = "none",
        fault_every: int = 1,
        log_path: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"layout-controller {table}", nats_url, log_path=log_path, env=env)
        self.table = table
        self.fault = fault
        self.fault_every = fault_every

    def argv(self) -> list[str]:
        return [
            *(sys.executable, "-m", "sicbo.cli.main", "layout-controller", self.table),
            *("--fault", self.fault, "--fault-every", str(self.fault_every)),
            *("--nats", self.nats_url),
        ]

    def ready_subject(self) -> str:
        return layout_ping(self.table)
