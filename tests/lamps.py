"""Healthy layout controllers for the test tables whose rules require the layout lit (000 §2.3,
002/2003 art. 3(2)): a table of such a profile opens only with ``layout_controller``, and the
floor's illumination service then asks its controller after every result; a table with none
answering would be suspended for a malfunction (000 §7.7) two seconds after each result.

The controllers are :class:`sicbo.illumination.controller.LayoutController` (what ``sicbo
layout-controller`` runs, with no fault), on a thread of their own with their own event loop and
connection: a test that blocks its loop a while (a CLI run by ``subprocess.run``) never makes
them miss the illumination service's deadline. One thread serves every table of the session.
"""

from __future__ import annotations

import asyncio
import threading

import nats
from nats.aio.client import Client as NATS

from sicbo.game.profiles import load_profile
from sicbo.illumination.controller import LayoutController
from sicbo.infra.nats_flush import flush_sent


def lamps_required(profile: str) -> bool:
    """Whether the profile's rules say the winning areas shall be lit (its ``[layout_lamps]``)."""
    return load_profile(profile).layout_lamps.required


class HealthyLamps:
    """Layout controllers without a fault, one per table asked for, until :meth:`close`."""

    def __init__(self, nats_url: str) -> None:
        self._nats_url = nats_url
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="healthy-lamps", daemon=True
        )
        self._thread.start()
        self._nc: NATS | None = None
        self._controllers: dict[str, LayoutController] = {}

    async def serve(self, table: str) -> None:
        """A healthy controller answers for ``table`` from now on (ready when this returns)."""
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self._serve(table), self._loop))

    async def _serve(self, table: str) -> None:
        if self._nc is None:
            self._nc = await nats.connect(self._nats_url, name="test-healthy-lamps")
        if table not in self._controllers:
            controller = LayoutController(self._nc, table)
            await controller.start()
            self._controllers[table] = controller
        await flush_sent(self._nc)

    def close(self) -> None:
        asyncio.run_coroutine_threadsafe(self._close(), self._loop).result(timeout=10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=10)

    async def _close(self) -> None:
        for controller in self._controllers.values():
            await controller.stop()
        if self._nc is not None:
            await self._nc.close()
