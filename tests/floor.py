"""The floor's services as separate processes against the session's server, and the web gateway:
session fixtures registered once, by tests/conftest.py, for every test folder (one floor per
test session, whichever folder asks first), and the helpers to talk to them."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import nats
import pytest
from nats.aio.client import Client as NATS

from sicbo.gateway.server_process import GatewayProcess
from sicbo.infra.nats_server import LocalNatsServer, free_port
from sicbo.infra.processes import ServiceProcess
from sicbo.provisioning import ProvisionReport, provision
from sicbo_contracts.base import Actor, Limits, Role
from sicbo_contracts.replies import Reply
from sicbo_contracts.routing import command_subject
from tests.lamps import HealthyLamps, lamps_required
from tests.support.launch import OPERATOR as LAUNCH_OPERATOR
from tests.support.launch import Issuers, write_operators

_reply = msgspec.json.Decoder(Reply)
#: The shortened idle lock of ``quick_lock_gateway`` (the floor's is 300 s).
QUICK_LOCK_SECONDS = 5
#: The proxy ``gateway`` believes: the tests themselves, who set X-Forwarded-For to play clients.
FORWARDED_FOR_TRUSTED = "127.0.0.1"


class Floor:
    """The running services and a way to talk to them, as a terminal would."""

    def __init__(self, nats_url: str, processes: dict[str, list[ServiceProcess]], trace_dir: Path):
        self.nats_url = nats_url
        self.processes = processes
        self.trace_dir = trace_dir
        self._lamps: HealthyLamps | None = None

    async def lamps_for(self, table: str, profile: str) -> bool:
        """``TableConfig.layout_controller`` for a test table of ``profile`` that is not about
        the lamps: True where the rules require the layout lit (000 §2.3), and then, if this
        floor runs the illumination service, a healthy controller answers for ``table``."""
        if not lamps_required(profile):
            return False
        if "illumination" in self.processes:
            if self._lamps is None:
                self._lamps = HealthyLamps(self.nats_url)
            await self._lamps.serve(table)
        return True

    def close(self) -> None:
        if self._lamps is not None:
            self._lamps.close()

    async def send(
        self, nc: NATS, cmd: Any, *, headers: dict[str, str] | None = None, raw: bytes | None = None
    ) -> Reply:
        """As the actor's role (a service's command: as that service, :func:`command_subject`)."""
        subject = command_subject(cmd)
        msg = await nc.request(
            subject, raw or msgspec.json.encode(cmd), timeout=10, headers=headers
        )
        return _reply.decode(msg.data)


#: A throwaway floor's services (one replica each): commands, settlement and the accounts.
MONEY_SERVICES = {"lifecycle": 1, "dice": 1, "wagers": 1, "settlement": 1, "accounts": 1}


@contextlib.asynccontextmanager
async def throwaway_floor(
    tmp: Path, services: dict[str, int] = MONEY_SERVICES
) -> AsyncIterator[tuple[Floor, NATS]]:
    """A floor of its own: a nats-server in ``tmp``, provisioned, ``services`` as processes
    (their logs in ``tmp``), and a connection to it; all stopped after."""
    with LocalNatsServer(tmp / "nats") as server:
        nc = await nats.connect(server.url)
        processes: dict[str, list[ServiceProcess]] = {}
        try:
            (await provision(nc)).raise_for_conflicts()
            processes = start_services(server.url, services, tmp, tmp)
            for procs in processes.values():
                for proc in procs:
                    await proc.wait_ready()
            yield Floor(server.url, processes, tmp), nc
        finally:
            for procs in processes.values():
                for proc in procs:
                    proc.stop()
            await nc.close()


def start_services(
    nats_url: str, services: dict[str, int], log_dir: Path, trace_dir: Path
) -> dict[str, list[ServiceProcess]]:
    started: dict[str, list[ServiceProcess]] = {}
    for service, replicas in services.items():
        for n in range(replicas):
            proc = ServiceProcess(
                service,
                nats_url,
                log_path=log_dir / f"{service}-{n}.log",
                env={"SICBO_TRACE_FILE": str(trace_dir / f"{service}-{n}.jsonl")},
            )
            started.setdefault(service, []).append(proc.start())
    return started


#: Service -> replicas started for the session's floor. A service joins when it exists.
FLOOR_SERVICES: dict[str, int] = {
    "lifecycle": 2,
    "dice": 1,
    "wagers": 1,
    "settlement": 2,
    "illumination": 1,
    "results": 1,
    "board": 1,
    # Two replicas: racing cashier commands on one account meet the server's expectation,
    # not only one process's lock (test_accounts.py).
    "accounts": 2,
}


@pytest.fixture(scope="session")
async def floor(
    nats_url: str, provisioned: ProvisionReport, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Floor]:
    """The floor's services as separate processes: two lifecycle replicas, one of the others."""
    log_dir = tmp_path_factory.mktemp("service-logs")
    trace_dir = tmp_path_factory.mktemp("traces")
    processes = start_services(nats_url, FLOOR_SERVICES, log_dir, trace_dir)
    try:
        for procs in processes.values():
            for proc in procs:
                await proc.wait_ready()
        floor = Floor(nats_url, processes, trace_dir)
        yield floor
        floor.close()
    finally:
        for procs in processes.values():
            for proc in procs:
                proc.stop()


def actor(role: Role, name: str | None = None) -> Actor:
    return Actor(id=name or f"{role.value}-1", role=role)


def new_id(prefix: str = "cmd") -> str:
    return f"{prefix}-{uuid.uuid4().hex[:16]}"


DEALER = actor(Role.DEALER)
SUPERVISOR = actor(Role.SUPERVISOR)
INSPECTOR = actor(Role.INSPECTOR)
OPERATOR = actor(Role.OPERATOR)
SERVICE = actor(Role.SERVICE, "settlement")
LIMITS = Limits(minimum=100, maximum=100_000, unit=10)


@contextlib.asynccontextmanager
async def _gateway(
    floor: Floor, log_dir: Path, *, own_origin: bool = False, **options: Any
) -> AsyncIterator[str]:
    """``own_origin``: the gateway serves its own address only (``--origin``, as ``sicbo run``
    and a production floor configure it)."""
    port = free_port()
    if own_origin:
        options["origins"] = (f"http://127.0.0.1:{port}",)
    proc = GatewayProcess(floor.nats_url, port, log_path=log_dir / "gateway.log", **options)
    proc.start()
    try:
        await proc.wait_ready()
        yield proc.url
    finally:
        proc.stop()


@pytest.fixture(scope="session")
def launch_issuers(tmp_path_factory: pytest.TempPathFactory) -> Issuers:
    """The operators that launch players into the session's gateways (tests.support.launch):
    their keys, and the list both gateways are started with."""
    return write_operators(tmp_path_factory.mktemp("launch-operators"))


@pytest.fixture(scope="session")
async def gateway(
    floor: Floor, launch_issuers: Issuers, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[str]:
    """The web gateway as its own process, on a free port; its base URL. As the demo floor's,
    players sign in by a bare id (or are launched by ``launch_issuers``' tokens); the tests
    stand in for its ingress: it believes their X-Forwarded-For (``FORWARDED_FOR_TRUSTED``)."""
    log_dir = tmp_path_factory.mktemp("gateway")
    options = {
        "forwarded_allow_ips": FORWARDED_FOR_TRUSTED,
        "demo_players": True,
        "launch_operators": launch_issuers.listing,
        # Its cashier page launches acme's players, as make run's the demo operator's.
        "demo_launch_key": launch_issuers.private_key_file(log_dir),
        "demo_launch_operator": LAUNCH_OPERATOR,
    }
    async with _gateway(floor, log_dir, **options) as url:
        yield url


@pytest.fixture(scope="session")
async def quick_lock_gateway(
    floor: Floor, launch_issuers: Issuers, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[str]:
    """A second gateway (a second replica of the floor's), whose terminals lock after
    QUICK_LOCK_SECONDS unused (GLI-19 §C.6.5, shortened); as a real floor's, no player signs in
    by a bare id (players are launched by ``launch_issuers``' tokens), no proxy is believed,
    and it serves its own origin only (no other Host, no other Origin)."""
    log_dir = tmp_path_factory.mktemp("gateway-lock")
    options = {"idle_lock_seconds": QUICK_LOCK_SECONDS, "launch_operators": launch_issuers.listing}
    async with _gateway(floor, log_dir, own_origin=True, **options) as url:
        yield url


def browser(base_url: str, cookies: httpx.Cookies | None = None) -> httpx.AsyncClient:
    """A browser of its own (its own cookies) on one gateway's pages: it sends the pages'
    Origin, as a browser does with every request that changes anything."""
    return httpx.AsyncClient(
        base_url=base_url, timeout=15, cookies=cookies, headers={"origin": base_url}
    )
