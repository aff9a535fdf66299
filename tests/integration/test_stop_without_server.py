"""A service stops on SIGTERM even when its nats-server is gone (seen once: after a test run
was stopped, wager intake and the board waited for their vanished server until SIGKILLed).

Its own floor (a nats-server of its own, the services as processes): the server is killed by
its PID first, then each service is sent SIGTERM and must exit, cleanly, by itself: a command
service (wager intake), a reacting service (settlement), a query service (the board) and the
web gateway.
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
from pathlib import Path

import nats

from sicbo.gateway.server_process import GatewayProcess
from sicbo.infra.nats_server import LocalNatsServer, free_port
from sicbo.infra.processes import ServiceProcess
from sicbo.provisioning import provision
from tests.floor import start_services

SERVICES = {"wagers": 1, "settlement": 1, "board": 1}
#: Seconds a service is given to exit by itself after SIGTERM: generous (its graceful timeout
#: and more), the assertion is that it exits at all, not how fast.
EXIT_BOUND = 30.0


async def test_services_exit_on_sigterm_with_their_server_gone(tmp_path: Path) -> None:
    with LocalNatsServer(tmp_path / "nats") as server:
        nc = await nats.connect(server.url)
        try:
            (await provision(nc)).raise_for_conflicts()
        finally:
            await nc.close()
        processes = start_services(server.url, SERVICES, tmp_path, tmp_path)
        gateway = GatewayProcess(server.url, free_port(), log_path=tmp_path / "gateway.log")
        processes["gateway"] = [gateway.start()]
        try:
            for procs in processes.values():
                for proc in procs:
                    await proc.wait_ready()
            assert server.pid is not None
            os.kill(server.pid, signal.SIGKILL)
            await asyncio.sleep(1.0)  # the services notice: reconnecting, not closed
            running: list[ServiceProcess] = [p for procs in processes.values() for p in procs]
            for proc in running:
                assert proc.proc is not None
                proc.proc.send_signal(signal.SIGTERM)
            exits: dict[str, int | None] = {}
            for proc in running:
                assert proc.proc is not None
                try:
                    exits[proc.service] = await asyncio.to_thread(proc.proc.wait, EXIT_BOUND)
                except subprocess.TimeoutExpired:
                    exits[proc.service] = None
            # uvicorn ends by raising again the signal it caught: the gateway's normal stop, as
            # with its server there; the services (FastStream) exit 0.
            expected = {**dict.fromkeys(SERVICES, 0), "gateway": -signal.SIGTERM}
            assert exits == expected, (
                "exit codes after SIGTERM with the server gone (None: still running):"
                f" {exits}; logs in {tmp_path}"
            )
        finally:
            for procs in processes.values():
                for proc in procs:
                    proc.kill()
