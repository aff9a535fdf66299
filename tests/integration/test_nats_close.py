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
