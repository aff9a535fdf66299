"""A nats-server per generated configuration of the floor's accounts (deploy/nats/floor.conf as
it is, and the Helm values' accounts as the chart renders them), shared by the permission tests
of this folder (test_nats_permissions.py, test_command_authority.py: each module its own, so
the services one runs answer none of the other's probes; the fixtures are registered by
tests/deploy/conftest.py), and a client that records the server's refusals."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
from collections.abc import AsyncIterator, Iterator, Mapping
from pathlib import Path
from typing import Any

import nats
import pytest
import yaml
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.errors import NoRespondersError

from sicbo.infra.nats_accounts import password_envs, users
from sicbo.infra.nats_flush import flush_sent
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.provisioning import provision

ROOT = Path(__file__).resolve().parents[2]
NATS_DIR = ROOT / "deploy" / "nats"
VALUES = ROOT / "deploy" / "nats-helm" / "values.yaml"
PASSWORDS = {env: f"{env.lower()}-test" for env in password_envs()}


# -- servers ---------------------------------------------------------------------------------


def floor_conf(directory: Path) -> Path:
    """deploy/nats/floor.conf and its accounts.conf, as checked in, behind the passwords."""
    for name in ("floor.conf", "accounts.conf"):
        shutil.copy(NATS_DIR / name, directory / name)
    return directory / "floor.conf"


def helm_conf(directory: Path) -> Path:
    """What the chart writes from values.yaml's ``config.merge``: JSON, with every
    ``"<< $VAR >>"`` unquoted (nats.formatConfig), the variables read from the environment."""
    merge = yaml.safe_load(VALUES.read_text())["config"]["merge"]
    config = {"jetstream": "enabled", **merge}
    text = re.sub(r'"<<\s+(.*?)\s+>>"', r"\1", json.dumps(config, indent=2))
    path = directory / "helm.conf"
    path.write_text(text)
    return path


@pytest.fixture(scope="module", params=["floor.conf", "helm-values"])
def server_dir(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp(f"perms-{request.param}")
    (floor_conf if request.param == "floor.conf" else helm_conf)(directory)
    return directory


@pytest.fixture(scope="module")
def server(server_dir: Path) -> Iterator[LocalNatsServer]:
    config = next(p for p in (server_dir / "floor.conf", server_dir / "helm.conf") if p.exists())
    running = LocalNatsServer(server_dir / "store", config_file=config)
    try:
        with passwords_in_environment():  # the server reads them as it starts
            running.start()
        yield running
    finally:
        running.stop()


@contextlib.contextmanager
def passwords_in_environment(passwords: Mapping[str, str] = PASSWORDS) -> Iterator[None]:
    """The accounts read every password from the environment the servers inherit: set while
    they start, then as it was."""
    saved = {env: os.environ.get(env) for env in passwords}
    os.environ.update(passwords)
    try:
        yield
    finally:
        for env, value in saved.items():
            if value is None:
                os.environ.pop(env, None)
            else:
                os.environ[env] = value


def url(server: LocalNatsServer, user: str) -> str:
    password = PASSWORDS[users()[user].password_env]
    return f"nats://{user}:{password}@127.0.0.1:{server.port}"


@pytest.fixture(scope="module")
async def admin(server: LocalNatsServer) -> AsyncIterator[NATS]:
    """The operator's user: provisions the floor, publishes the probes' messages."""
    nc = await nats.connect(url(server, "floor"))
    (await provision(nc)).raise_for_conflicts()
    yield nc
    await nc.close()


class As:
    """A connection as one user that records the server's errors (permission violations)."""

    def __init__(self, user: str) -> None:
        self.user = user
        self.errors: list[str] = []
        self.nc = NATS()

    async def connect(self, server: LocalNatsServer, **options: Any) -> As:
        async def on_error(exc: Exception) -> None:
            self.errors.append(str(exc).lower())

        await self.nc.connect(
            url(server, self.user), error_cb=on_error, max_reconnect_attempts=0, **options
        )
        return self

    def _refused(self, needle: str) -> bool:
        """Whether the server has refused ``needle`` (its error text, lowercased by nats-py)."""
        return any(needle.lower() in e for e in self.errors)

    async def publish(
        self, subject: str, data: bytes = b"{}", headers: dict[str, str] | None = None
    ) -> Msg | None:
        """Publish as a request. The reply (None: no responders) if allowed; raises
        :class:`Refused` when the server refuses the publish."""
        reply = asyncio.ensure_future(self.nc.request(subject, data, timeout=5, headers=headers))
        for _ in range(500):
            if reply.done():
                try:
                    return reply.result()
                except NoRespondersError:
                    return None
            if self._refused(f'publish to "{subject}"'):
                reply.cancel()
                raise Refused(subject)
            await asyncio.sleep(0.01)
        pytest.fail(f"{self.user}: publish to {subject} neither answered nor refused")

    async def subscribe(self, pattern: str, probe: str, admin: NATS) -> bool:
        """True if a message published on ``probe`` arrives through ``pattern``; False if
        the server refuses the subscription."""
        got: asyncio.Queue[Msg] = asyncio.Queue()
        sub = await self.nc.subscribe(pattern, cb=got.put)
        try:
            await flush_sent(self.nc)
            for _ in range(200):
                if self._refused(f'subscription to "{pattern}"'):
                    return False
                await admin.publish(probe, b"probe")
                try:
                    await asyncio.wait_for(got.get(), 0.02)
                    return True
                except TimeoutError:
                    pass
            pytest.fail(f"{self.user}: subscription {pattern} neither delivers nor refused")
        finally:
            await sub.unsubscribe()

    async def close(self) -> None:
        await self.nc.close()


class Refused(Exception):
    pass


async def refused(who: As, subject: str, headers: dict[str, str] | None = None) -> None:
    with pytest.raises(Refused):
        await who.publish(subject, headers=headers)


@pytest.fixture
async def connect(server: LocalNatsServer, admin: NATS) -> AsyncIterator[Any]:
    opened: list[As] = []

    async def as_user(user: str, **options: Any) -> As:
        opened.append(await As(user).connect(server, **options))
        return opened[-1]

    yield as_user
    for who in opened:
        assert who.nc.is_connected  # refused, never disconnected
        await who.close()
