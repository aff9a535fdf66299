"""The public results feed's latency as partners get it: from a result's ``recorded_at`` (the
dice service's clock when it decided the confirmation) to the message's receipt.

A nats-server of its own on the floor's real accounts (``deploy/nats``: FLOOR and PARTNERS,
each service its own user), the partners' copy ``RESULTS`` created by ``partners-admin``,
lifecycle, dice, settlement and the results feed as processes; the rounds are played by a
dealer's and an operator's connection. Two subscribers receive every result: one on the
floor's ``SICBO_RESULTS`` (user ``floor``) and one as a partner (user ``partner``, through the
copy's republish). Every process shares the machine's clock and cores.

``python -m sicbo.bench.feed`` runs it alone (``make bench`` runs it with the others).
"""

from __future__ import annotations

import asyncio
import tempfile
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import nats
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from sicbo.bench.floor import _finish, _open_round, percentile
from sicbo.demo.client import FloorClient
from sicbo.infra import local_accounts, partner_registry
from sicbo.infra.nats_flush import flush_sent
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo.lifecycle.state import Phase
from sicbo.provisioning import provision
from sicbo.results.partners import partner_copy
from sicbo_contracts.base import Role
from sicbo_contracts.results import PublicResult
from sicbo_contracts.subjects import results

TABLE = "bench-feed"
SERVICES = ("lifecycle", "dice", "settlement", "results")
_decode = msgspec.json.Decoder(PublicResult).decode


@dataclass
class Receipts:
    """Milliseconds from ``recorded_at`` to receipt, one per result received."""

    milliseconds: list[float] = field(default_factory=list)

    async def on_msg(self, msg: Msg) -> None:
        received = datetime.now(UTC)
        result = _decode(msg.data)
        self.milliseconds.append((received - result.recorded_at).total_seconds() * 1000)

    def percentile(self, p: float) -> float:
        return percentile(self.milliseconds, p)


@dataclass(frozen=True)
class FeedFigures:
    rounds: int
    floor: Receipts  # a subscriber of SICBO_RESULTS in FLOOR
    partner: Receipts  # a partner, through the copy in PARTNERS


async def _completed(client: FloorClient, round_no: int) -> None:
    """Until settlement completed the round (the next may start), bounded."""
    for _ in range(600):
        now = (await client.lifecycle(TABLE)).round
        if now is not None and now.number == round_no and now.phase is Phase.COMPLETED:
            return
        await asyncio.sleep(0.01)
    raise RuntimeError(f"round {round_no} of {TABLE} not completed")


async def _until(receipts: Receipts, n: int) -> None:
    for _ in range(1000):
        if len(receipts.milliseconds) >= n:
            return
        await asyncio.sleep(0.01)
    raise RuntimeError(f"{len(receipts.milliseconds)} of {n} results received")


def bench_partner(accounts: local_accounts.LocalAccounts) -> Path:
    """A partner of the bench's floor (its own account and nkey, as `sicbo partners add`
    makes one), registered before the server starts; the path of its seed."""
    seed, public = partner_registry.new_key_pair()
    registry = accounts.data_dir / local_accounts.PARTNERS
    today = datetime.now(UTC).date()
    partner_registry.save(registry, partner_registry.added((), "bench", public, today))
    seed_file = accounts.data_dir / "bench.nk"
    local_accounts.write_secret(seed_file, seed + "\n")
    accounts.write_config()
    return seed_file


async def bench_feed(rounds: int = 300) -> FeedFigures:
    with tempfile.TemporaryDirectory() as tmp:
        accounts = local_accounts.create(Path(tmp) / "data")
        seed = bench_partner(accounts)
        with LocalNatsServer(
            Path(tmp) / "nats", config_file=accounts.config, env=accounts.server_env()
        ) as server:

            async def connect(user: str) -> NATS:
                return await nats.connect(server.url, **accounts.connect_options(user))

            floor_nc, admin = await connect("floor"), await connect("partners-admin")
            (await provision(floor_nc)).raise_for_conflicts()
            (await provision(admin, resources=[partner_copy()])).raise_for_conflicts()
            processes = [
                ServiceProcess(
                    name, server.url, log_path=Path(tmp) / f"{name}.log", env=accounts.env_of(name)
                )
                for name in SERVICES
            ]
            senders = {
                Role.DEALER: await connect("dealer"),
                Role.OPERATOR: await connect("operator"),
            }
            partner = await nats.connect(server.url, nkeys_seed=str(seed))
            connections = [floor_nc, admin, partner, *senders.values()]
            try:
                for proc in processes:
                    proc.start()
                for proc in processes:
                    await proc.wait_ready(**accounts.connect_options("floor"))
                on_floor, at_partner = Receipts(), Receipts()
                await floor_nc.subscribe(results(TABLE), cb=on_floor.on_msg)
                await partner.subscribe(results(TABLE), cb=at_partner.on_msg)
                await flush_sent(floor_nc)
                await flush_sent(partner)
                client = FloorClient(floor_nc, senders=senders)
                for n in range(1, rounds + 1):
                    await _open_round(client, TABLE, n)
                    await _finish(client, TABLE, n, pace=0)
                    await _completed(client, n)
                await _until(on_floor, rounds)
                await _until(at_partner, rounds)
            finally:
                for proc in processes:
                    proc.stop()
                for nc in connections:
                    await nc.close()
    return FeedFigures(rounds, on_floor, at_partner)


def main() -> None:
    figures = asyncio.run(bench_feed())
    for name, got in (
        ("floor (SICBO_RESULTS)", figures.floor),
        ("partner (copy)", figures.partner),
    ):
        print(
            f"results feed, recorded_at -> received, {name}, {figures.rounds} results:"
            f" p50 {got.percentile(0.5):.1f} ms, p99 {got.percentile(0.99):.1f} ms,"
            f" max {max(got.milliseconds):.1f} ms"
        )


if __name__ == "__main__":
    main()
