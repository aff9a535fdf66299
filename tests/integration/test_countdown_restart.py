"""The online betting countdown survives a crash of the lifecycle service (004)."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import nats
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo.provisioning import provision
from sicbo_contracts.lifecycle import OpenBetting, OpenTable, StartRound, TableConfig
from sicbo_contracts.replies import Accepted
from sicbo_contracts.subjects import EVENT_STREAM, table_filter
from tests.integration.conftest import DEALER, LIMITS, OPERATOR, Floor, new_id


async def open_betting(floor: Floor, nc: NATS, table: str, *, seconds: int) -> None:
    """An online table opened, round 1 started and betting opened: its countdown runs."""
    config = TableConfig(profile="online-live", limits=LIMITS, betting_seconds=seconds)
    for cmd in (
        OpenTable(command_id=new_id(), table=table, actor=OPERATOR, config=config),
        StartRound(command_id=new_id(), table=table, actor=DEALER, round=1, tumbles=3),
        OpenBetting(command_id=new_id(), table=table, actor=DEALER, round=1),
    ):
        assert isinstance(await floor.send(nc, cmd), Accepted)


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
                table = "online1"
                await open_betting(Floor(server.url, {}, tmp_path), nc, table, seconds=3)
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


async def _closed(store: EventStore, table: str) -> dict[str, object] | None:
    for e in await store.read(table_filter(table)):
        event = msgspec.json.decode(e.data)
        if event["type"] == "round.betting-closed.v1":
            return dict(event)
    return None


async def test_004_countdown_closes_betting_once_the_server_is_back_from_a_restart(
    tmp_path: Path,
) -> None:
    """004 "Cara Bermain": a round whose countdown ran out while nats-server was down closes as
    soon as the server is back, by the countdown, and no slip is taken meanwhile."""
    store_dir = tmp_path / "nats"
    server = LocalNatsServer(store_dir).start()
    port = server.port
    lifecycle = ServiceProcess("lifecycle", server.url, log_path=tmp_path / "lc.log")
    nc = await nats.connect(server.url, reconnect_time_wait=0.1, max_reconnect_attempts=-1)
    try:
        (await provision(nc)).raise_for_conflicts()
        lifecycle.start()
        await lifecycle.wait_ready()
        table = "online2"
        await open_betting(Floor(server.url, {}, tmp_path), nc, table, seconds=2)
        server.stop()  # mid-countdown: the deadline passes while the server is away
        await asyncio.sleep(3)
        server = LocalNatsServer(store_dir, port=port).start()
        assert server.port == port  # the services reconnect to the address they know
        back = datetime.now(UTC)
        store = EventStore(nc, EVENT_STREAM)
        closed = None
        for _ in range(300):
            with contextlib.suppress(Exception):  # the client reconnects meanwhile
                closed = await _closed(store, table)
            if closed:
                break
            await asyncio.sleep(0.05)
        assert closed is not None, "betting was never closed after the restart"
        assert closed["by_countdown"] is True
        late = (datetime.fromisoformat(str(closed["at"])) - back).total_seconds()
        print(f"betting closed {late:.2f} s after the server was back")
        slips = [e for e in await store.read(table_filter(table)) if ".bets." in e.subject]
        assert slips == []
    finally:
        lifecycle.stop()
        await nc.close()
        server.stop()
