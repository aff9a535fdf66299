"""Closing a nats-py connection as a process stops, without waiting on a server that is gone.

nats-py's ``drain()`` refuses a connection that is reconnecting (``ConnectionReconnectingError``:
the process then exits with an error and leaves the reconnect loop running), and on one whose
server vanishes mid-drain it waits on PONGs that never come (its drain timeout, 30 s, and then
a flush of 10 s more, for each connection in turn). A stopping service was seen needing SIGKILL
with its server gone. So: drain when connected, at most ``timeout`` seconds, then close
whatever is left; a connection that is not connected is closed at once (what it would have
sent is lost either way; the server redelivers what was not acknowledged).

nats-py's close cancels its reconnect loop once. On Python 3.11 that cancel is lost when it
lands as a connection attempt fails (``asyncio.wait_for`` then hands back the attempt's error
instead of the cancel): the loop retries for ever, and ``asyncio.run`` waits for it at exit
(a service with its server gone was seen still running 30 s after SIGTERM). So the loop is
cancelled again until it has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from nats.aio.client import Client as NATS
from nats.errors import Error as NatsError

log = logging.getLogger(__name__)

#: Seconds between cancels of a reconnect loop that went on (:func:`_end_reconnecting`).
RECANCEL_EVERY = 0.05


async def close_promptly(nc: NATS, timeout: float) -> None:
    """Drain ``nc`` if it is connected (bounded by ``timeout`` s), and close it in any case."""
    if nc.is_closed:
        return
    draining: asyncio.Task[None] | None = None
    if nc.is_connected and not nc.is_draining:
        draining = asyncio.create_task(nc.drain())
        done, _ = await asyncio.wait({draining}, timeout=timeout)
        if draining in done:
            if (err := draining.exception()) is not None:
                log.warning("drain of %s failed (%r): closing it", _name(nc), err)
            draining = None
        else:
            log.warning("drain of %s took over %.0f s: closing it", _name(nc), timeout)
    elif not nc.is_draining:
        log.warning("%s is not connected: closed without draining", _name(nc))
    if not nc.is_closed:
        with contextlib.suppress(NatsError, OSError):
            await nc.close()
    if draining is not None:
        # Closed under it: the drain's own flush now fails at once (connection closed).
        draining.cancel()
        await asyncio.gather(draining, return_exceptions=True)
    await _end_reconnecting(nc, timeout)


async def _end_reconnecting(nc: NATS, timeout: float) -> None:
    """Cancel ``nc``'s reconnect loop until it has ended (at most ``timeout`` s): a cancel that
    lands on a failing connection attempt is lost on Python 3.11 (module docstring); the next
    lands on the loop's wait between attempts, or on another attempt."""
    reconnecting: asyncio.Task[None] | None = nc._reconnection_task
    deadline = asyncio.get_running_loop().time() + timeout
    while reconnecting is not None and not reconnecting.done():
        if asyncio.get_running_loop().time() >= deadline:
            log.warning("the reconnect loop of %s would not end", _name(nc))
            return
        reconnecting.cancel()
        await asyncio.wait({reconnecting}, timeout=RECANCEL_EVERY)


def _name(nc: NATS) -> str:
    return str(nc.options.get("name") or "the NATS connection")
