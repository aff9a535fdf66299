"""The board service: the statistics board (004) and game recall (AGCO 13.1) of every table,
request/reply on ``sicbo.qry.<table>.stats`` and ``sicbo.qry.<table>.recall`` (queue group
``board``, any number of replicas).

Design: the queries are answered by reading the table's log, with a small per-table read
model caught up incrementally (:mod:`sicbo.board.queries`), not from a read model kept in the
``sicbo-readmodels`` KV bucket by a durable consumer. Why:

- Recall shows every wager of ten rounds: a KV value is bounded (1 MB by default) and a busy
  round has thousands of wagers, so it would need a key per round and per part, written by a
  consumer that must be provisioned, acknowledged, kept in order and recovered after a crash:
  a second copy of the log to keep right. The log already answers both questions directly,
  and the answer is always as fresh as the log (no consumer lag to explain to a player).
- The work is bounded: a table is loaded from the lifecycle filter (the last rounds' lifecycle
  events) and the histories of the rounds recall needs, never the whole log; afterwards each
  query reads only what the table gained since the previous one, and folds again only the
  rounds that changed. A restarted process simply loads again; replicas share nothing.
- Folds are the ones settlement and replay use (:class:`~sicbo.settlement.facts.TableLog`
  facts, :func:`~sicbo.replay.history.read_tables`), so the board can never disagree with
  the settlement about what a round's outcome was.

It declares nothing and appends nothing. Queries are served concurrently (per-table lock in
:class:`~sicbo.board.queries.BoardQueries`), as commands are by the shell's listener.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import nats
from fast_depends.msgspec import MsgSpecSerializer
from faststream import FastStream
from faststream.nats import NatsBroker, NatsMessage
from faststream.nats.opentelemetry import NatsTelemetryMiddleware
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from sicbo.board.queries import BoardQueries
from sicbo.eventstore.store import EventStore
from sicbo.infra import health as healthz
from sicbo.infra.nats_auth import broker_security, connect_options
from sicbo.infra.nats_urls import servers
from sicbo.infra.telemetry import setup_tracing
from sicbo.shell.app import ping_subject
from sicbo_contracts.board import RECALL_ALL, STATS_ALL
from sicbo_contracts.subjects import EVENT_STREAM

log = logging.getLogger(__name__)

SERVICE = "board"
#: Queries one process works on at once (other tables; one table's wait on its lock).
MAX_IN_FLIGHT = 64


class _Concurrent:
    """Hands each message to a task (nats-py awaits a callback before the next message), at
    most ``MAX_IN_FLIGHT`` at once; ``wait`` lets the ones in hand finish."""

    def __init__(self) -> None:
        self._slots = asyncio.Semaphore(MAX_IN_FLIGHT)
        self._tasks: set[asyncio.Task[None]] = set()

    def wrap(self, handler: Callable[[Msg], Awaitable[None]]) -> Callable[[Msg], Awaitable[None]]:
        async def on_msg(msg: Msg) -> None:
            await self._slots.acquire()
            task = asyncio.create_task(self._run(handler, msg))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        return on_msg

    async def _run(self, handler: Callable[[Msg], Awaitable[None]], msg: Msg) -> None:
        try:
            await handler(msg)
        except Exception:
            log.exception("query on %s failed", msg.subject)
        finally:
            self._slots.release()

    async def wait(self) -> None:
        if self._tasks:
            await asyncio.wait(set(self._tasks))


def app(nats_url: str) -> FastStream:
    provider = setup_tracing(f"sicbo-{SERVICE}")
    broker = NatsBroker(
        servers(nats_url),
        middlewares=[NatsTelemetryMiddleware(tracer_provider=provider)],
        serializer=MsgSpecSerializer(),
        name=f"sicbo-{SERVICE}",
        security=broker_security(nats_url),
    )
    application = FastStream(broker)
    health = healthz.install(application, SERVICE)
    held: dict[str, NATS] = {}
    subscriptions: list[Subscription] = []
    running = _Concurrent()

    @application.on_startup
    async def connect() -> None:
        # Subscribed before the broker answers pings: ready means the queries are served.
        nc = held["nc"] = await nats.connect(
            servers(nats_url), name=f"sicbo-{SERVICE}-store", **connect_options(nats_url)
        )
        health.add_nats("store", nc)
        queries = BoardQueries(EventStore(nc, EVENT_STREAM))
        for subject, handler in ((STATS_ALL, queries.on_stats), (RECALL_ALL, queries.on_recall)):
            sub = await nc.subscribe(subject, queue=SERVICE, cb=running.wrap(handler))
            subscriptions.append(sub)
        health.add("queries", lambda: len(subscriptions) == 2)

    @application.after_startup
    async def started() -> None:
        log.info("sicbo-%s ready", SERVICE)

    @application.on_shutdown
    async def disconnect() -> None:
        for sub in subscriptions:
            await sub.unsubscribe()
        await running.wait()
        nc = held.get("nc")
        if nc is not None:
            await nc.drain()

    @broker.subscriber(ping_subject(SERVICE))
    async def on_ping(msg: NatsMessage) -> bytes:
        return b'{"ok":true}'

    return application
