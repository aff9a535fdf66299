"""A durable consumer's jobs: nats-py pull requests, with the trace context carried by hand.

Why not a FastStream subscriber (as before issue 16): profiled under the floor load
(docs/benchmarks.md), FastStream's per-message path (its logging and telemetry middlewares,
its dependency injection, a worker thread for its decoder) took three quarters of the
settlement and results-feed processes' consumer time, the jobs themselves a quarter. And its
pull loop fetched a batch and waited for every job of it before the next fetch, so one slow job
(a 10,000-wager settlement) held up the events of every other table behind it.

This loop does what that subscriber did, and no more:

- one pull request at a time on the provisioned durable consumer (bound by name, never
  declared), for as many messages as there are free slots (``max_in_flight`` jobs at once;
  with a backlog, once a quarter of them are free: not a request a message);
  each message is handed to a task as it arrives (nats-py's ``fetch`` would hold the first
  ones until the whole batch came or its timeout passed); the next request is sent as soon as
  this one is used up, expires, or is ended by the server;
- a message is acknowledged only once its job is done; a job that raises is negatively
  acknowledged with a delay growing with its deliveries, and comes back;
- each job runs in a consumer span continuing the trace of the event's producer (the
  ``traceparent`` the store appended with it), as ``NatsTelemetryMiddleware`` did; with
  ``traced``, only the jobs of the events it acts on (a span cost settlement more than the
  jobs of the lifecycle events it leaves).

Order: the tasks start in delivery order, so jobs that serialise per table (an asyncio lock
taken at their first await) run in log order, as with the concurrent batch before.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Awaitable, Callable

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.errors import ConnectionClosedError
from nats.js.api import DEFAULT_PREFIX, Header, StatusCode
from opentelemetry import trace

from sicbo.infra.telemetry import consumer_span
from sicbo.shell.reacting import Job
from sicbo_contracts.subjects import without_partition

log = logging.getLogger(__name__)

#: Seconds a pull request waits on the server for messages before it expires (and is sent
#: again): bounds how long a request lost in a reconnect goes unnoticed.
PULL_EXPIRES = 2.0
#: Seconds before asking again after the server ended a request otherwise than by its expiry.
REFUSED_PAUSE = 0.5


class JobConsumer:
    """Run ``job`` for every message of the durable consumer ``durable`` on ``stream``."""

    def __init__(
        self,
        nc: NATS,
        stream: str,
        durable: str,
        job: Callable[[], Job],
        tracer: trace.Tracer,
        *,
        traced: Callable[[str], bool] | None = None,
        partitioned: bool = False,
        max_in_flight: int,
        retry_delay: float,
        max_retry_delay: float,
    ) -> None:
        self._nc = nc
        self._next = f"{DEFAULT_PREFIX}.CONSUMER.MSG.NEXT.{stream}.{durable}"
        self._job = job
        self._tracer = tracer
        self._traced = traced
        #: A partition stream of the floor's log: its token is not part of the floor's subject.
        self._floor_subject = without_partition if partitioned else _as_stored
        self._max_in_flight = max_in_flight
        self._refill = max(1, max_in_flight // 4)
        self._retry_delay = retry_delay
        self._max_retry_delay = max_retry_delay
        self._span_name = f"{stream}/{durable} process"
        self._in_flight: set[asyncio.Task[None]] = set()
        self._asked = 0  # messages the pull request under way may still deliver
        self._asked_until = 0.0  # when it expires (monotonic)
        self._ask_after = 0.0  # not before (a request the server refused: not in a loop)
        self._wake = asyncio.Event()
        self._stopping = False
        self._sub: Subscription | None = None
        self._pulling: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._inbox = self._nc.new_inbox()
        self._sub = await self._nc.subscribe(self._inbox, cb=self._on_msg)
        self._pulling = asyncio.create_task(self._pull_loop())

    async def stop(self, timeout: float) -> None:
        """Stop asking, let the jobs in hand finish (at most ``timeout`` s), unsubscribe. A
        message that arrives meanwhile is given back at once (a nak: another replica takes
        it); a job left unfinished is redelivered after the consumer's ack wait."""
        self._stopping = True
        if self._pulling is not None:
            self._pulling.cancel()
            await asyncio.gather(self._pulling, return_exceptions=True)
            self._pulling = None
        if self._in_flight:
            await asyncio.wait(set(self._in_flight), timeout=timeout)
        if self._sub is not None:
            await self._sub.unsubscribe()
            self._sub = None

    async def _pull_loop(self) -> None:
        while True:
            now = time.monotonic()
            if now >= self._asked_until:
                self._asked = 0  # expired (or lost in a reconnect): nothing more comes of it
            free = self._max_in_flight - len(self._in_flight)
            # Not a request a message when the slots are all but full (a backlog): a quarter
            # of them free at least, or none in hand.
            ready = free >= self._refill or not self._in_flight
            if self._asked == 0 and free > 0 and ready and now >= self._ask_after:
                await self._ask(free, now)
            self._wake.clear()
            until = self._asked_until if self._asked else self._ask_after
            wait = max(0.01, until - time.monotonic()) if until > now else None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=wait)

    async def _ask(self, batch: int, now: float) -> None:
        request = {"batch": batch, "expires": int(PULL_EXPIRES * 1e9)}
        try:
            await self._nc.publish(self._next, json.dumps(request).encode(), reply=self._inbox)
        except ConnectionClosedError:
            return  # closing: nothing to ask for any more
        self._asked = batch
        # A little longer than the server's expiry: its 408 normally ends the request first.
        self._asked_until = now + PULL_EXPIRES + 0.5

    async def _on_msg(self, msg: Msg) -> None:
        status = msg.headers.get(Header.STATUS) if msg.headers else None
        if status is not None:
            if status != StatusCode.CONTROL_MESSAGE:
                # 408 expired: ask again; 409 ended by the server (a leader change, the
                # consumer deleted, ...): ask again in a while.
                if status != StatusCode.REQUEST_TIMEOUT:
                    log.warning("pull request on %s ended: %s", self._next, status)
                    self._ask_after = time.monotonic() + REFUSED_PAUSE
                self._asked = 0
                self._wake.set()
            return
        self._asked = max(0, self._asked - 1)
        if self._stopping:
            await _send(msg.nak())
            return
        task = asyncio.create_task(self._run(msg))
        self._in_flight.add(task)
        task.add_done_callback(self._done)
        if self._asked == 0:
            self._wake.set()

    def _done(self, task: asyncio.Task[None]) -> None:
        self._in_flight.discard(task)
        if self._asked == 0:
            self._wake.set()  # the loop asks again if enough slots are free

    async def _run(self, msg: Msg) -> None:
        subject = self._floor_subject(msg.subject)
        if self._traced is not None and not self._traced(subject):
            await self._done_or_again(msg, subject)  # an event the job leaves: no span
            return
        with consumer_span(self._tracer, self._span_name, msg.subject, msg.headers):
            await self._done_or_again(msg, subject)

    async def _done_or_again(self, msg: Msg, subject: str) -> None:
        meta = msg.metadata
        try:
            await self._job()(subject, meta.sequence.stream, msg.data)
        except Exception:
            delivered = meta.num_delivered or 1
            delay = min(self._max_retry_delay, self._retry_delay * 2 ** (delivered - 1))
            log.exception("%s (delivery %s): retry in %.1f s", msg.subject, delivered, delay)
            await _send(msg.nak(delay=delay))
            return
        await _send(msg.ack())


def _as_stored(subject: str) -> str:
    return subject


async def _send(reply: Awaitable[None]) -> None:
    """An ack or a nak; a connection gone meanwhile is logged (the server redelivers)."""
    try:
        await reply
    except ConnectionClosedError:
        log.warning("ack not sent: the connection is closed (the message comes back)")
