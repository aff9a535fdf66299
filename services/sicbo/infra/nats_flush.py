"""A flush that means "the server has everything this connection sent so far".

nats-py 2.16's ``flush()`` writes its PING straight to the socket, while a SUB, UNSUB or PUB
just made waits in the client's pending buffer for its flusher task. The PONG can then come
back before the server has seen the SUB: a caller told "subscribed" meets "no responders"
(CI met it once: a request on another connection right after ``subscribe`` and ``flush``).
So the pending buffer is handed to the socket first (the flusher runs as soon as we yield),
and only then is the PING sent: on one TCP connection the server reads them in order.
"""

from __future__ import annotations

import asyncio
import time

from nats.aio.client import Client as NATS
from nats.errors import FlushTimeoutError


async def flush_sent(nc: NATS, timeout: float = 10.0) -> None:
    """Return once the server has processed every command sent on ``nc`` before the call.

    Raises nats-py's ``FlushTimeoutError`` if the pending buffer is not written in ``timeout``
    seconds (the connection is down) or the PONG does not come back in time.
    """
    deadline = time.monotonic() + timeout
    while nc.pending_data_size > 0:
        if time.monotonic() > deadline:
            raise FlushTimeoutError
        await asyncio.sleep(0.001 if nc.is_connected else 0.05)
    await nc.flush(timeout=max(1, round(deadline - time.monotonic())))
