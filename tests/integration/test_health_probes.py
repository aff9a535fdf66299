"""The probes and the NATS credentials of the Kubernetes deployment, on real processes.

A nats-server of this module's own requires a user and password (as the FLOOR account does);
the services get them as the manifests give them (``NATS_USER``, ``NATS_PASSWORD_FILE`` on a
file like a mounted Secret) and serve ``/livez`` and ``/readyz`` on ``SICBO_HEALTH_PORT``.
Then the password is rotated: the file is rewritten, the server restarts with the new one, and
the services come back ready without a restart of their own (the file is read at reconnect).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import nats
import pytest

from sicbo.infra.nats_server import LocalNatsServer, free_port
from sicbo.infra.processes import ServiceProcess

USER = "floor"
#: What each service's /readyz checks, besides the FastStream broker's connection.
CHECKS = {
    "dice": {"store", "commands"},
    "settlement": {
        "store",
        "consumer SICBO/settlement",
        "consumer SICBO_ACCOUNTS/settlement-debits",
    },
    "illumination": {"store", "consumer SICBO/illumination"},
    "board": {"store", "queries"},
}


async def get(port: int, path: str) -> tuple[int, dict[str, Any]]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: probe\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    raw = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    head, _, body = raw.decode().partition("\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


async def wait_for_status(port: int, path: str, status: int, timeout: float = 30.0) -> dict:
    deadline = time.monotonic() + timeout
    last: object = None
    while time.monotonic() < deadline:
        try:
            code, body = await get(port, path)
            if code == status:
                return body
            last = (code, body)
        except OSError as exc:
            last = exc
        await asyncio.sleep(0.2)
    raise AssertionError(f"{path} on {port} never answered {status}; last: {last}")


@pytest.fixture(scope="module")
def secret(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("secret") / "password"
    path.write_text("first-secret\n")
    return path


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("auth-js")


@pytest.fixture(scope="module")
def server(store: Path) -> Iterator[dict[str, LocalNatsServer]]:
    """The running server, in a box: the rotation test swaps it for one with a new password."""
    box = {"server": LocalNatsServer(store, extra_args=["--user", USER, "--pass", "first-secret"])}
    box["server"].start()
    try:
        yield box
    finally:
        box["server"].stop()


@pytest.fixture(scope="module")
def env(secret: Path) -> dict[str, str]:
    return {"NATS_USER": USER, "NATS_PASSWORD_FILE": str(secret)}


@pytest.fixture(scope="module")
def provisioned_with_password(server: dict[str, LocalNatsServer], env: dict[str, str]) -> str:
    """``sicbo provision`` as the Job runs it: credentials from the environment only."""
    url = server["server"].url
    provision = subprocess.run(
        [sys.executable, "-m", "sicbo.cli.main", "provision", "--nats", url],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert provision.returncode == 0, provision.stdout + provision.stderr
    return url


@pytest.fixture(scope="module")
async def services(
    provisioned_with_password: str,
    env: dict[str, str],
    tmp_path_factory: pytest.TempPathFactory,
) -> AsyncIterator[dict[str, int]]:
    url = provisioned_with_password
    logs = tmp_path_factory.mktemp("probe-logs")
    ports = {service: free_port() for service in CHECKS}
    procs = [
        ServiceProcess(
            service,
            url,
            log_path=logs / f"{service}.log",
            env={**env, "SICBO_HEALTH_PORT": str(port), "SICBO_HEALTH_HOST": "127.0.0.1"},
        ).start()
        for service, port in ports.items()
    ]
    try:
        yield ports
    finally:
        for proc in procs:
            proc.stop()


async def test_a_server_requiring_a_password_refuses_a_client_without_it(
    server: dict[str, LocalNatsServer],
) -> None:
    with pytest.raises(nats.errors.Error, match="Authorization"):
        await nats.connect(server["server"].url, allow_reconnect=False, connect_timeout=2)


async def test_each_service_is_alive_then_ready_with_its_checks(services: dict[str, int]) -> None:
    for service, port in services.items():
        body = await wait_for_status(port, "/readyz", 200)
        assert body["service"] == service
        assert set(body["checks"]) == CHECKS[service] | {"broker"}
        assert set(body["checks"].values()) == {"ok"}
        assert (await get(port, "/livez"))[0] == 200


async def test_a_rotated_password_is_used_at_reconnect_without_a_restart(
    server: dict[str, LocalNatsServer], store: Path, secret: Path, services: dict[str, int]
) -> None:
    for port in services.values():
        await wait_for_status(port, "/readyz", 200)
    old = server["server"]
    port = old.port
    # The kubelet refreshes the mounted Secret.
    await asyncio.to_thread(secret.write_text, "rotated-secret\n")
    old.stop()
    for service_port in services.values():  # NATS gone: not ready, but alive (no restart)
        await wait_for_status(service_port, "/readyz", 503)
        assert (await get(service_port, "/livez"))[0] == 200
    # The same store and port, the new password (a restarted NATS pod).
    new = LocalNatsServer(store, port=port, extra_args=["--user", USER, "--pass", "rotated-secret"])
    server["server"] = new.start()
    assert new.port == port
    for service_port in services.values():
        await wait_for_status(service_port, "/readyz", 200, timeout=40)
