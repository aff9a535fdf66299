"""Liveness and readiness over HTTP, for the Kubernetes probes of a service process.

``SICBO_HEALTH_PORT`` turns it on (unset: off, as in the tests and ``make run``); the server
listens on ``SICBO_HEALTH_HOST`` (default every address, IPv4 and IPv6: the kubelet probes the
pod's IP).

- ``GET /livez``: 200 whenever the process's event loop answers. It never looks at NATS: a
  NATS outage must not make Kubernetes restart every replica of the floor.
- ``GET /readyz``: 200 when every check passes (the NATS connections are connected, the
  durable consumer exists, the command subscription is active), else 503; always 503 once
  shutdown has begun. The body is JSON naming each check and its state.

The standard library only (``asyncio.start_server``): two fixed paths and ``Connection:
close``, no framework. A service installs it with :func:`install` right after it builds its
FastStream app (so the server is up before the app connects) and adds its checks as its
connections come into being.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import logging
import os
import weakref
from collections.abc import Awaitable, Callable

from faststream import FastStream
from nats.aio.client import Client as NATS

log = logging.getLogger(__name__)

PORT_ENV = "SICBO_HEALTH_PORT"
HOST_ENV = "SICBO_HEALTH_HOST"
DEFAULT_HOST: str | None = None  # every address, IPv4 and IPv6
LIVE_PATH = "/livez"
READY_PATH = "/readyz"
#: Bound on one readiness check, well under the probes' timeout.
CHECK_TIMEOUT = 2.0
#: Bound on reading a request (a probe sends a few short lines at once).
READ_TIMEOUT = 5.0
MAX_HEADER_LINES = 64

#: A readiness check: true when ready; may be a coroutine function. Raising means not ready.
Check = Callable[[], bool | Awaitable[bool]]

_REASONS = {
    200: "OK",
    400: "Bad Request",
    404: "Not Found",
    405: "Method Not Allowed",
    503: "Service Unavailable",
}
_installed: weakref.WeakKeyDictionary[FastStream, Health] = weakref.WeakKeyDictionary()


def port_from_env() -> int | None:
    """The port to serve on, or None when ``SICBO_HEALTH_PORT`` is unset or empty."""
    raw = os.environ.get(PORT_ENV, "").strip()
    if not raw:
        return None
    try:
        port = int(raw)
    except ValueError:
        raise ValueError(f"{PORT_ENV}={raw!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise ValueError(f"{PORT_ENV}={raw!r} is not a port number")
    return port


class Health:
    """The checks of one process and the HTTP server that reports them."""

    def __init__(self, service: str, *, check_timeout: float = CHECK_TIMEOUT) -> None:
        self.service = service
        self._check_timeout = check_timeout
        self._checks: dict[str, Check] = {}
        self._server: asyncio.Server | None = None
        self._stopping = False

    # Checks

    def add(self, name: str, check: Check) -> None:
        """Add (or replace) a readiness check."""
        self._checks[name] = check

    def add_nats(self, name: str, nc: NATS) -> None:
        """Ready only while this nats-py connection is connected (not reconnecting, closed)."""
        self.add(name, lambda: nc.is_connected)

    def add_consumer(self, nc: NATS, stream: str, durable: str) -> None:
        """Ready only while the durable consumer exists on the server (it is provisioned, never
        created by the service, so an operator deleting it makes the replicas unready)."""

        async def exists() -> bool:
            await nc.jetstream().consumer_info(stream, durable, timeout=self._check_timeout)
            return True

        self.add(f"consumer {stream}/{durable}", exists)

    def stopping(self) -> None:
        """Shutdown has begun: report not ready from now on."""
        self._stopping = True

    async def readiness(self) -> tuple[bool, dict[str, str]]:
        """Run every check (concurrently, each bounded); ``(all passed, name -> state)``."""
        if self._stopping:
            return False, {"shutdown": "in progress"}
        if not self._checks:
            return False, {"checks": "none yet (starting)"}
        names = list(self._checks)
        states = await asyncio.gather(*(self._run(self._checks[n]) for n in names))
        report = dict(zip(names, states, strict=True))
        return all(s == "ok" for s in states), report

    async def _run(self, check: Check) -> str:
        try:
            result = check()
            if inspect.isawaitable(result):
                result = await asyncio.wait_for(result, self._check_timeout)
        except TimeoutError:
            return f"timed out after {self._check_timeout:g} s"
        except Exception as exc:
            return f"failed: {exc!r}"
        return "ok" if result else "failing"

    # Server

    @property
    def port(self) -> int | None:
        """The bound port while serving (useful with port 0)."""
        if self._server is None or not self._server.sockets:
            return None
        return int(self._server.sockets[0].getsockname()[1])

    async def start(self, port: int, host: str | None = DEFAULT_HOST) -> int:
        """Serve on ``host:port``; returns the bound port. Port 0 (any free port) wants a host:
        on every address each family would get a port of its own."""
        if self._server is None:
            self._server = await asyncio.start_server(self._serve, host, port, limit=8192)
            log.info("sicbo-%s health on %s:%s", self.service, host or "*", self.port)
        bound = self.port
        assert bound is not None
        return bound

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            status, body = await asyncio.wait_for(self._respond(reader), READ_TIMEOUT)
        except ValueError:  # not HTTP, or a line over the reader's limit
            status, body = 400, {"error": "bad request"}
        except (TimeoutError, ConnectionError):
            status, body = None, {}
        try:
            if status is not None:
                payload = json.dumps(body, sort_keys=True).encode() + b"\n"
                head = (
                    f"HTTP/1.1 {status} {_REASONS[status]}\r\n"
                    "Content-Type: application/json\r\n"
                    f"Content-Length: {len(payload)}\r\n"
                    "Cache-Control: no-store\r\n"
                    "Connection: close\r\n\r\n"
                )
                writer.write(head.encode("ascii") + payload)
                await writer.drain()
        except ConnectionError:
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

    async def _respond(self, reader: asyncio.StreamReader) -> tuple[int, dict[str, object]]:
        request = (await reader.readline()).decode("latin-1").split()
        for _ in range(MAX_HEADER_LINES):  # the headers: read and ignored
            if (await reader.readline()) in (b"\r\n", b"\n", b""):
                break
        if len(request) != 3 or not request[2].startswith("HTTP/"):
            raise ValueError("not an HTTP request")
        method, target = request[0], request[1].split("?", 1)[0]
        if target not in (LIVE_PATH, READY_PATH):
            return 404, {"error": f"no such path; try {LIVE_PATH} or {READY_PATH}"}
        if method != "GET":
            return 405, {"error": "GET only"}
        if target == LIVE_PATH:
            return 200, {"service": self.service, "status": "alive"}
        ready, checks = await self.readiness()
        status = "ready" if ready else "not ready"
        return (200 if ready else 503), {
            "service": self.service,
            "status": status,
            "checks": checks,
        }


def install(app: FastStream, service: str) -> Health:
    """The app's :class:`Health` (created once per app), served from ``SICBO_HEALTH_PORT``.

    Call it right after building the app: its start hook then runs before the app's own
    (the server answers ``/livez`` while the app connects). Without the variable nothing is
    served and the checks are never run. The FastStream broker's connection is a check.
    """
    health = _installed.get(app)
    if health is not None:
        return health
    health = _installed[app] = Health(service)
    port = port_from_env()
    broker = app.broker
    if broker is not None:

        async def broker_connected() -> bool:
            return await broker.ping(timeout=CHECK_TIMEOUT)

        health.add("broker", broker_connected)
    if port is None:
        return health
    host = os.environ.get(HOST_ENV) or DEFAULT_HOST

    async def start() -> None:
        await health.start(port, host)

    app.on_startup(start)
    app.on_shutdown(health.stopping)  # first of the shutdown hooks: unready at once
    app.after_shutdown(health.stop)  # after the broker's graceful wait: alive until then
    return health
