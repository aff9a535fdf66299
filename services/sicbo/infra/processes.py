"""Start service processes and stop them by their PID: for `make run` and the end-to-end tests.

Each service runs as its own OS process, as in production. Its NATS credentials go in its
environment (``env``: ``NATS_USER`` and ``NATS_PASSWORD_FILE``), never on its command line.
"""

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Self

import nats

from sicbo.infra.nats_urls import servers
from sicbo_contracts.subjects import service_ping


class ServiceProcess:
    def __init__(
        self,
        service: str,
        nats_url: str,
        *,
        log_path: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.service = service
        self.nats_url = nats_url
        self.log_path = log_path
        self.env = {**os.environ, **(env or {})}
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def pid(self) -> int | None:
        return self.proc.pid if self.proc else None

    def argv(self) -> list[str]:
        """The command line of the process."""
        return [
            sys.executable,
            "-m",
            "sicbo.cli.main",
            "serve",
            self.service,
            "--nats",
            self.nats_url,
        ]

    def ready_subject(self) -> str:
        """What the process answers once it is ready."""
        return service_ping(self.service)

    def start(self) -> Self:
        command = self.argv()
        if self.log_path is None:
            self.proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, env=self.env)
            return self
        # 0600 from its creation, like the secrets: a service's log names players (issue 25).
        fd = os.open(self.log_path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        os.fchmod(fd, 0o600)  # one made before, by an older version, is narrowed too
        with open(fd, "ab") as out:  # the child keeps its own descriptor
            self.proc = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=self.env
            )
        return self

    async def wait_ready(self, timeout: float = 30.0, **connect_options: Any) -> None:
        """Wait until this service answers its ping (bounded); ``connect_options`` (nats.connect)
        name the user that asks, on a server with accounts (one allowed to ping: ``floor``)."""
        deadline = time.monotonic() + timeout
        nc = await nats.connect(servers(self.nats_url), **connect_options)
        try:
            while time.monotonic() < deadline:
                if self.proc is not None and self.proc.poll() is not None:
                    raise RuntimeError(f"{self.service} exited with {self.proc.returncode}")
                try:
                    await nc.request(self.ready_subject(), b"", timeout=0.5)
                    return
                except (nats.errors.NoRespondersError, nats.errors.TimeoutError):
                    await asyncio.sleep(0.1)
        finally:
            await nc.close()
        raise TimeoutError(f"{self.service} did not become ready in {timeout} s")

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM (graceful), then SIGKILL after ``timeout``."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def kill(self) -> None:
        """SIGKILL: a crash, for the tests."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def exit_notices(processes: Sequence[ServiceProcess], told: set[int]) -> list[str]:
    """A line for each process that has exited since the last call (``told``: the PIDs already
    told of): a service that crashed or was killed while the floor runs is said, with its exit
    code and its log, instead of the floor going on without it in silence."""
    lines = []
    for process in processes:
        proc = process.proc
        if proc is None or proc.pid in told or proc.poll() is None:
            continue
        told.add(proc.pid)
        code = proc.returncode
        how = f"killed by signal {-code}" if code < 0 else f"exited with code {code}"
        where = f"; its log: {process.log_path}" if process.log_path else ""
        lines.append(f"{process.service} (pid {proc.pid}) {how}: the floor runs without it{where}")
    return lines


async def watch_exits(
    processes: Sequence[ServiceProcess], say: Callable[[str], None], every: float = 1.0
) -> None:
    """Say each process's exit while the floor runs (until cancelled)."""
    told: set[int] = set()
    while True:
        for line in exit_notices(processes, told):
            say(line)
        await asyncio.sleep(every)
