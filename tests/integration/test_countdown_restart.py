"""The online betting countdown survives a crash of the lifecycle service (004)."""

from __future__ import annotations

import asyncio
from datetime import datetime
from pathlib import Path

import msgspec
import nats

from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo.provisioning import provision
from sicbo_contracts.lifecycle import OpenBetting, OpenTable, StartRound, TableConfig
from sicbo_contracts.replies import Accepted
from sicbo_contracts.subjects import EVENT_STREAM
from tests.integration.conftest import DEALER, LIMITS, OPERATOR, Floor, new_id


async def test_countdown_closes_betting_after_the_service_was_killed(tmp_path: Path) -> None:
    # A server of its own: no other lifecycle replica may close this countdown for us.
    with LocalNatsServer(tmp_path / "nats") as server:
        nc = await nats.connect(server.url)
        try:
            (await provision(nc)).raise_for_conflicts()
            first = ServiceProcess("lifecycle", server.url, log_path=tmp_path / "lc1.log").start()
            second = None
            try:
                await first.wait_ready()
                floor = Floor(server.url, {}, tmp_path)
                table = "online1"
                config = TableConfig(profile="online-live", limits=LIMITS, betting_seconds=3)
                for cmd in (
                    OpenTable(command_id=new_id(), table=table, actor=OPERATOR, config=config),
                    StartRound(command_id=new_id(), table=table, actor=DEALER, round=1, tumbles=3),
                    OpenBetting(command_id=new_id(), table=table, actor=DEALER, round=1),
                ):
                    assert isinstance(await floor.send(nc, cmd), Accepted)
                first.kill()  # SIGKILL while the countdown runs
                second = ServiceProcess("lifecycle", server.url, log_path=tmp_path / "lc2.log")
                second.start()
                await second.wait_ready()
                store = EventStore(nc, EVENT_STREAM)
                closed = None
                for _ in range(150):
                    events = [
                        msgspec.json.decode(e.data)
                        for e in await store.read(f"sicbo.evt.{table}.>")
                    ]
                    closed = next(
                        (e for e in events if e["type"] == "round.betting-closed.v1"), None
                    )
                    if closed:
                        break
                    await asyncio.sleep(0.1)
                assert closed is not None, "betting was never closed by the countdown"
                opened = next(e for e in events if e["type"] == "round.betting-opened.v1")
                assert closed["by_countdown"] is True
                closes_at = datetime.fromisoformat(opened["closes_at"])
                assert datetime.fromisoformat(closed["at"]) >= closes_at
            finally:
                first.stop()
                if second is not None:
                    second.stop()
        finally:
            await nc.close()
