"""One NATS subscription per subject filter, shared by every page that watches it.

A hundred pages on one table cost the server one subscription, not a hundred: each event is
copied in process into each page's queue. A page that falls behind loses changes, never
blocks the others: it re-reads the table anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

#: Changes kept for a page that reads slowly; beyond, the oldest are dropped (it re-reads).
QUEUE_SIZE = 256


class ChangeHub:
    def __init__(self, nc: NATS) -> None:
        self._nc = nc
        self._pages: dict[str, set[asyncio.Queue[Msg]]] = {}
        self._subs: dict[str, Subscription] = {}
        self._lock = asyncio.Lock()
        self._closing: set[asyncio.Task[None]] = set()  # referenced until done

    @contextlib.asynccontextmanager
    async def watch(self, subject: str) -> AsyncIterator[asyncio.Queue[Msg]]:
        queue: asyncio.Queue[Msg] = asyncio.Queue(maxsize=QUEUE_SIZE)
        async with self._lock:
            if subject not in self._subs:

                async def fan_out(msg: Msg) -> None:
                    self._fan_out(subject, msg)

                self._subs[subject] = await self._nc.subscribe(subject, cb=fan_out)
            # Added once subscribed: a page cancelled while subscribing leaves no queue behind.
            pages = self._pages.setdefault(subject, set())
            pages.add(queue)
        try:
            yield queue
        finally:
            pages.discard(queue)
            if not pages:
                self._pages.pop(subject, None)
                sub = self._subs.pop(subject, None)
                if sub is not None:  # not awaited: the page's stream is being cancelled
                    task = asyncio.get_running_loop().create_task(sub.unsubscribe())
                    self._closing.add(task)
                    task.add_done_callback(self._closing.discard)

    def _fan_out(self, subject: str, msg: Msg) -> None:
        for queue in self._pages.get(subject, ()):
            if queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(msg)

    @property
    def subscriptions(self) -> int:
        return len(self._subs)
