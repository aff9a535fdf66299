"""The probes' HTTP endpoint, over a real TCP connection on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from faststream import FastStream
from faststream.nats import NatsBroker

from sicbo.infra import health as healthz
from sicbo.infra.health import Health


async def get(port: int, path: str, method: str = "GET") -> tuple[int, dict[str, Any], str]:
    """One request as a kubelet sends it; ``(status, body, raw head)``."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(
        f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: kube-probe/1.31\r\n"
        "Accept: */*\r\nConnection: close\r\n\r\n".encode()
    )
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    await writer.wait_closed()
    head, _, body = raw.decode().partition("\r\n\r\n")
    status = int(head.split()[1])
    assert f"Content-Length: {len(body.encode())}" in head
    return status, json.loads(body), head


@pytest.fixture
async def health() -> AsyncIterator[Health]:
    probe = Health("test", check_timeout=0.2)
    await probe.start(0, "127.0.0.1")
    yield probe
    await probe.stop()


def port_of(health: Health) -> int:
    assert health.port is not None
    return health.port


async def test_livez_answers_while_the_loop_runs(health: Health) -> None:
    status, body, head = await get(port_of(health), "/livez")
    assert status == 200
    assert body == {"service": "test", "status": "alive"}
    assert "Content-Type: application/json" in head


async def test_livez_ignores_failing_readiness(health: Health) -> None:
    health.add("nats", lambda: False)  # NATS down must not restart the pod
    assert (await get(port_of(health), "/livez"))[0] == 200


async def test_readyz_is_503_before_any_check(health: Health) -> None:
    status, body, _ = await get(port_of(health), "/readyz")
    assert status == 503
    assert body["status"] == "not ready"


async def test_readyz_is_200_when_every_check_passes(health: Health) -> None:
    async def consumer_exists() -> bool:
        return True

    health.add("store", lambda: True)
    health.add("consumer SICBO/settlement", consumer_exists)
    status, body, _ = await get(port_of(health), "/readyz?verbose=1")
    assert status == 200
    assert body == {
        "service": "test",
        "status": "ready",
        "checks": {"store": "ok", "consumer SICBO/settlement": "ok"},
    }


async def test_readyz_names_each_failing_check(health: Health) -> None:
    async def slow() -> bool:
        await asyncio.sleep(5)
        return True

    def broken() -> bool:
        raise RuntimeError("consumer not found")

    health.add("store", lambda: True)
    health.add("commands", lambda: False)
    health.add("consumer", broken)
    health.add("broker", slow)
    status, body, _ = await get(port_of(health), "/readyz")
    assert status == 503
    checks = body["checks"]
    assert checks["store"] == "ok"
    assert checks["commands"] == "failing"
    assert checks["consumer"].startswith("failed: RuntimeError('consumer not found')")
    assert checks["broker"] == "timed out after 0.2 s"


async def test_readyz_is_503_once_shutdown_begins(health: Health) -> None:
    health.add("store", lambda: True)
    assert (await get(port_of(health), "/readyz"))[0] == 200
    health.stopping()
    status, body, _ = await get(port_of(health), "/readyz")
    assert status == 503
    assert body["checks"] == {"shutdown": "in progress"}
    assert (await get(port_of(health), "/livez"))[0] == 200  # alive while it drains


async def test_other_paths_and_methods_are_refused(health: Health) -> None:
    assert (await get(port_of(health), "/metrics"))[0] == 404
    assert (await get(port_of(health), "/livez", method="POST"))[0] == 405


async def test_garbage_gets_400_and_the_server_keeps_serving(health: Health) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port_of(health))
    writer.write(b"\x16\x03\x01 not http\r\n\r\n")
    await writer.drain()
    assert (await asyncio.wait_for(reader.read(), 5)).startswith(b"HTTP/1.1 400 ")
    writer.close()
    await writer.wait_closed()
    # A client that connects and says nothing does not block the others.
    _idle = await asyncio.open_connection("127.0.0.1", port_of(health))
    assert (await get(port_of(health), "/livez"))[0] == 200
    _idle[1].close()


def test_port_from_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(healthz.PORT_ENV, raising=False)
    assert healthz.port_from_env() is None
    monkeypatch.setenv(healthz.PORT_ENV, "")
    assert healthz.port_from_env() is None
    monkeypatch.setenv(healthz.PORT_ENV, " 8080 ")
    assert healthz.port_from_env() == 8080
    for bad in ("http", "-1", "70000"):
        monkeypatch.setenv(healthz.PORT_ENV, bad)
        with pytest.raises(ValueError, match=healthz.PORT_ENV):
            healthz.port_from_env()


def test_install_without_a_port_adds_no_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(healthz.PORT_ENV, raising=False)
    app = FastStream(NatsBroker("nats://127.0.0.1:1"))
    hooks = [len(app._on_startup_calling), len(app._after_shutdown_calling)]
    health = healthz.install(app, "dice")
    assert [len(app._on_startup_calling), len(app._after_shutdown_calling)] == hooks
    assert healthz.install(app, "dice") is health  # one per app: `sicbo serve` asks again


async def test_install_serves_for_the_app_lifetime(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hooks ``install`` adds, run as FastStream runs them (the broker never connects)."""
    monkeypatch.setenv(healthz.PORT_ENV, "0")
    monkeypatch.setenv(healthz.HOST_ENV, "127.0.0.1")
    app = FastStream(NatsBroker("nats://127.0.0.1:1"))
    health = healthz.install(app, "dice")
    for hook in app._on_startup_calling:
        await hook()
    port = port_of(health)
    assert (await get(port, "/livez"))[0] == 200
    status, body, _ = await get(port, "/readyz")
    assert status == 503  # the broker is not connected
    assert body["checks"] == {"broker": "failing"}
    for hook in app._on_shutdown_calling + app._after_shutdown_calling:
        await hook()
    assert health.port is None
    with pytest.raises(OSError):
        await asyncio.open_connection("127.0.0.1", port)
