"""close_promptly (sicbo.infra.nats_close): a connection whose server is gone is closed.

Against a real nats-server, killed by its PID: the connection is reconnecting (nats-py's own
drain raises ``ConnectionReconnectingError`` then, and leaves the reconnect loop running);
close_promptly closes it. The bound is generous: the assertion is that the call returns, with
the connection closed.
"""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import nats
import pytest
from nats.aio.transport import TcpTransport

from sicbo.infra.nats_close import close_promptly
from sicbo.infra.nats_server import LocalNatsServer

RETURNS_WITHIN = 60.0


async def test_a_connection_whose_server_is_gone_is_closed(tmp_path: Path) -> None:
    with LocalNatsServer(tmp_path / "nats") as server:
        gone = asyncio.Event()

        async def disconnected() -> None:
            gone.set()

        nc = await nats.connect(
            server.url,
            max_reconnect_attempts=-1,
            reconnect_time_wait=0.1,
            disconnected_cb=disconnected,
        )
        try:
            assert server.pid is not None
            os.kill(server.pid, signal.SIGKILL)
            await asyncio.wait_for(gone.wait(), RETURNS_WITHIN)  # the read loop noticed
            assert nc.is_reconnecting
            await asyncio.wait_for(close_promptly(nc, 5.0), RETURNS_WITHIN)
            assert nc.is_closed
        finally:
            if not nc.is_closed:
                await nc.close()


async def test_a_reconnect_loop_that_loses_the_cancel_is_ended(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On Python 3.11 a cancel that lands as a connection attempt fails is lost
    (``asyncio.wait_for`` hands back the attempt's error): nats-py's close cancels its
    reconnect loop once, so the loop went on retrying and kept the stopping process alive. An
    attempt that turns every cancel into "connection refused" stands for that moment here."""
    attempting = asyncio.Event()

    async def refused_when_cancelled(self: TcpTransport, *args: object, **kw: object) -> None:
        attempting.set()
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            raise ConnectionRefusedError(111, "Connection refused") from None

    with LocalNatsServer(tmp_path / "nats") as server:
        nc = await nats.connect(server.url, max_reconnect_attempts=-1, reconnect_time_wait=0.1)
        try:
            monkeypatch.setattr(TcpTransport, "connect", refused_when_cancelled)
            assert server.pid is not None
            os.kill(server.pid, signal.SIGKILL)
            await asyncio.wait_for(attempting.wait(), RETURNS_WITHIN)  # reconnecting, stuck
            reconnecting = nc._reconnection_task
            assert reconnecting is not None
            await asyncio.wait_for(close_promptly(nc, 5.0), RETURNS_WITHIN)
            assert nc.is_closed and reconnecting.done()
        finally:
            if nc._reconnection_task is not None:
                nc._reconnection_task.cancel()
            if not nc.is_closed:
                await nc.close()
