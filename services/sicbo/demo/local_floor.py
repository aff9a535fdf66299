"""The demo floor's processes and connections on the local accounts: every service as its
own user, each layout controller as ``layout``, the gateway as ``gateway``, and the demo's own
client one connection per role it plays."""

from __future__ import annotations

import logging
from pathlib import Path

import nats
from nats.aio.client import Client as NATS

from sicbo.demo.tables import DEMO_TABLES
from sicbo.gateway.server_process import GatewayProcess
from sicbo.illumination.processes import LayoutControllerProcess
from sicbo.infra.local_accounts import LocalAccounts
from sicbo.infra.processes import ServiceProcess
from sicbo_contracts.base import Role

log = logging.getLogger(__name__)

SERVICES = {
    "lifecycle": 1,
    "dice": 1,
    "wagers": 1,
    "settlement": 1,
    "illumination": 1,
    "board": 1,
    "results": 1,
    "accounts": 1,
}

#: Who sends the demo floor's commands of each role: the terminal users as themselves, and a
#: player's through ``gateway``, the one user that may send as a player (HUMAN_SENDERS).
ROLE_USERS = {
    Role.DEALER: "dealer",
    Role.SUPERVISOR: "supervisor",
    Role.INSPECTOR: "inspector",
    Role.OPERATOR: "operator",
    Role.PLAYER: "gateway",
}


async def _quiet(err: Exception) -> None:
    """The floor's own connections live and die with its server: Ctrl-C stops both at once (the
    terminal signals the whole group), so a lost connection is no news worth a traceback."""
    log.debug("demo floor connection: %r", err)


async def connect(url: str, accounts: LocalAccounts, user: str) -> NATS:
    return await nats.connect(
        url, name=f"sicbo run ({user})", error_cb=_quiet, **accounts.connect_options(user)
    )


def start_processes(
    url: str, accounts: LocalAccounts, logs: Path, gateway: GatewayProcess | None
) -> list[ServiceProcess]:
    """Every service as its own user, each layout controller as ``layout``, the gateway as
    ``gateway``: the credentials in each one's environment (its password file)."""
    processes: list[ServiceProcess] = []
    for service, replicas in SERVICES.items():
        for n in range(replicas):
            log_path = logs / f"{service}-{n}.log"
            proc = ServiceProcess(service, url, log_path=log_path, env=accounts.env_of(service))
            processes.append(proc.start())
    for demo_table in DEMO_TABLES:  # each table's lamp panel, its own process
        controller = LayoutControllerProcess(
            demo_table.table,
            url,
            fault=demo_table.layout_fault,
            fault_every=demo_table.layout_fault_every,
            log_path=logs / f"layout-{demo_table.table}.log",
            env=accounts.env_of("layout"),
        )
        processes.append(controller.start())
    if gateway is not None:
        gateway.env.update(accounts.env_of("gateway"))
        processes.append(gateway.start())
    return processes
