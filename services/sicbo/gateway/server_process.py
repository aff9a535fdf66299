"""The web gateway as its own process (``sicbo gateway serve``), stopped by its PID: for
``make run`` and the browser tests."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sicbo.infra.processes import ServiceProcess
from sicbo_contracts.subjects import service_ping


class GatewayProcess(ServiceProcess):
    def __init__(
        self,
        nats_url: str,
        port: int,
        *,
        idle_lock_seconds: int | None = None,
        forwarded_allow_ips: str | None = None,
        demo_players: bool = False,
        operators: Path | None = None,
        launch_operators: Path | None = None,
        demo_launch_key: Path | None = None,
        demo_launch_operator: str | None = None,
        origins: Sequence[str] = (),
        log_path: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__("gateway", nats_url, log_path=log_path, env=env)
        self.port = port
        self.idle_lock_seconds = idle_lock_seconds
        self.forwarded_allow_ips = forwarded_allow_ips
        self.demo_players = demo_players
        #: The operator list; None: the demo operators (public PINs: make run and the tests)
        self.operators = operators
        #: The operators that launch players by token (sicbo.gateway.launch); None: none
        self.launch_operators = launch_operators
        #: The demo operator's private key (its cashier page launches players); None: none
        self.demo_launch_key = demo_launch_key
        self.demo_launch_operator = demo_launch_operator
        #: The gateway's own origins (``--origin``): no other Host or Origin is served
        self.origins = tuple(origins)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def argv(self) -> list[str]:
        idle = (
            ()
            if self.idle_lock_seconds is None
            else ("--idle-lock-seconds", str(self.idle_lock_seconds))
        )
        proxies = (
            ()
            if self.forwarded_allow_ips is None
            else ("--forwarded-allow-ips", self.forwarded_allow_ips)
        )
        return [
            *(sys.executable, "-m", "sicbo.cli.main", "gateway", "serve"),
            *("--nats", self.nats_url, "--host", "127.0.0.1", "--port", str(self.port)),
            *(
                ("--demo-operators",)
                if self.operators is None
                else ("--operators", str(self.operators))
            ),
            *(("--demo-players",) if self.demo_players else ()),
            *(
                ()
                if self.launch_operators is None
                else ("--launch-operators", str(self.launch_operators))
            ),
            *(
                ()
                if self.demo_launch_key is None
                else ("--demo-launch-key", str(self.demo_launch_key))
            ),
            *(
                ()
                if self.demo_launch_operator is None
                else ("--demo-launch-operator", self.demo_launch_operator)
            ),
            *idle,
            *proxies,
            *(arg for origin in self.origins for arg in ("--origin", origin)),
        ]

    def ready_subject(self) -> str:
        return service_ping("gateway")

    async def wait_ready(self, timeout: float = 30.0, **connect_options: Any) -> None:
        """Connected to NATS (its ping), then listening on its port."""
        await super().wait_ready(timeout, **connect_options)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                _, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError:
                await asyncio.sleep(0.05)
                continue
            writer.close()
            return
        raise TimeoutError(f"the gateway did not listen on port {self.port} in {timeout} s")
