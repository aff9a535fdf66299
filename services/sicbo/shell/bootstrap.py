"""The one app factory of every service process: a FastStream app on NATS.

A service is made of the parts it needs, all wired here once (telemetry, health checks, the
ping, a graceful stop):

- ``commands``: a pure decider behind the shell's command path (:mod:`sicbo.shell.commands`),
  served by a lean nats-py queue subscription (:mod:`sicbo.shell.listener`);
- ``reacts``: a job run for every event of a provisioned durable consumer on ``SICBO``
  (settlement, illumination, the results feed), or on another stream (settlement's late
  debits on ``SICBO_ACCOUNTS``); a service may react to several. A message is acknowledged
  only when its job is done; a job that raises (:class:`~sicbo.shell.reacting.NotDone`, a
  store error) is negatively acknowledged with a growing delay and comes back. Any number of
  replicas may run: the consumer spreads the events among them and each job is idempotent by
  the server's expectations;
- ``queries``: request/reply subjects answered from the log (the board, the bet history), in a
  queue group named after the service, concurrently;
- ``on_start`` / ``on_stop``: anything else (the betting countdown).

Streams and consumers are never declared here (DESIGN.md: provisioning is an explicit step):
a reacting service refuses to start when its consumer (or a stream it needs) is missing.
"""

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import partial
from typing import Any

import nats
from fast_depends.msgspec import MsgSpecSerializer
from faststream import FastStream
from faststream.nats.opentelemetry import NatsTelemetryMiddleware
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.js.errors import NotFoundError

from sicbo.eventstore import nats_publish
from sicbo.eventstore.errors import StoreError
from sicbo.eventstore.layout import discover_partitions, floor_log
from sicbo.eventstore.store import EventStore
from sicbo.infra import health as healthz
from sicbo.infra.nats_auth import broker_security, connect_options
from sicbo.infra.nats_close import close_promptly
from sicbo.infra.nats_flush import flush_sent
from sicbo.infra.nats_urls import servers
from sicbo.infra.replies import answer
from sicbo.infra.telemetry import setup_tracing
from sicbo.shell.broker import PromptNatsBroker
from sicbo.shell.commands import Clock, CommandHandler, DeciderSpec, Escrow, Hook
from sicbo.shell.consuming import JobConsumer
from sicbo.shell.gctuning import settle_heap
from sicbo.shell.listener import CommandListener, Concurrent, QueryHandler
from sicbo.shell.reacting import Job
from sicbo_contracts.subjects import (
    EVENT_STREAM,
    partition_stream,
    service_ping,
)

log = logging.getLogger(__name__)

#: Commands (or queries) one service process works on at once (other tables, pipelined
#: slips); the handler serialises per table where the decider asks for it.
MAX_IN_FLIGHT = 64
#: Jobs of a durable consumer run at once (:mod:`sicbo.shell.consuming`).
MAX_JOBS = 64
#: Seconds before a message whose job failed is delivered again (grows with each delivery).
RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 10.0
#: Seconds a stopping process waits for the jobs in hand (SIGTERM).
GRACEFUL_TIMEOUT = 20.0
#: Seconds a stopping process drains a connection before closing it (its server may be gone:
#: sicbo.infra.nats_close).
DRAIN_WITHIN = 5.0
#: Seconds between reconnect attempts to a server that went away (nats-py's default is 2 s):
#: a restarted server is back in use within a fraction of a second (the online countdown).
RECONNECT_WAIT = 0.25


def utc_now() -> datetime:
    return datetime.now(UTC)


class NotProvisioned(RuntimeError):
    pass


@dataclass
class Runtime:
    """What a service's parts get once connected."""

    nc: NATS
    store: EventStore
    clock: Clock
    handler: CommandHandler[Any] | None = None


Component = Callable[[Runtime], Awaitable[None]]


@dataclass(frozen=True)
class Reacts:
    """A durable consumer (of ``SICBO`` unless ``stream`` says) and the job made for each of
    its events."""

    consumer: str
    filter_subject: str
    job: Callable[[Runtime], Job]
    needs_streams: Sequence[str] = ()
    stream: str = EVENT_STREAM
    #: The subjects the job acts on (None: all): only their jobs get a trace span, which
    #: costs more than a job that looks at an event's subject and leaves it.
    acts_on: Callable[[str], bool] | None = None


def service_app(
    service: str,
    nats_url: str,
    *,
    clock: Clock = utc_now,
    commands: DeciderSpec[Any] | None = None,
    before_append: Callable[[NATS], Hook] | None = None,
    escrow: Callable[[NATS], Escrow] | None = None,
    reacts: Reacts | Sequence[Reacts] | None = None,
    queries: Callable[[Runtime], Mapping[str, QueryHandler]] | None = None,
    on_start: Component | None = None,
    on_stop: Component | None = None,
    ready_note: str = "",
) -> FastStream:
    provider = setup_tracing(f"sicbo-{service}")
    # Every publish of the service (appends, replies) with the faster header block; the
    # benchmark's own client process keeps the library's, so its reference is unchanged.
    nats_publish.install()
    reacting = [reacts] if isinstance(reacts, Reacts) else list(reacts or ())
    broker = PromptNatsBroker(
        servers(nats_url),
        drain_within=DRAIN_WITHIN,
        middlewares=[NatsTelemetryMiddleware(tracer_provider=provider)],
        serializer=MsgSpecSerializer(),
        name=f"sicbo-{service}",
        graceful_timeout=GRACEFUL_TIMEOUT,
        security=broker_security(nats_url),
    )
    app = FastStream(broker)
    health = healthz.install(app, service)
    held: dict[str, Runtime] = {}
    jobs: list[Job] = []
    listeners: list[CommandListener] = []
    consumers: list[JobConsumer] = []
    answering = Concurrent(MAX_IN_FLIGHT)

    @app.on_startup
    async def connect() -> None:
        nc = await nats.connect(
            servers(nats_url),
            name=f"sicbo-{service}-store",
            reconnect_time_wait=RECONNECT_WAIT,
            max_reconnect_attempts=-1,  # a service waits for its server, however long
            **connect_options(nats_url),
        )
        own_stream = commands.stream if commands is not None else EVENT_STREAM
        # The floor's log as provisioned (K streams by table), read once: a service never
        # writes or consumes with another K than the server's (sicbo.eventstore.layout).
        on_log = own_stream == EVENT_STREAM or any(r.stream == EVENT_STREAM for r in reacting)
        partitions = await _partitions(nc) if on_log else 1
        streams = [_streams_of(r, partitions) for r in reacting]
        for r, on_streams in zip(reacting, streams, strict=True):
            for stream in on_streams:
                await _require_provisioned(nc, r, stream)
                health.add_consumer(nc, stream, r.consumer)
        health.add_nats("store", nc)
        # A service's own log: the floor's, or its keyed log's stream (players' accounts).
        if own_stream == EVENT_STREAM:
            store = floor_log(nc, partitions)
        else:
            store = EventStore(nc, own_stream)
        runtime = held["rt"] = Runtime(nc, store, clock)
        if commands is not None:
            hook = before_append(nc) if before_append is not None else None
            wallet = escrow(nc) if escrow is not None else None
            runtime.handler = CommandHandler(
                commands, store, clock, before_append=hook, escrow=wallet
            )
            tracer = provider.get_tracer("sicbo.shell")
            listener = CommandListener(
                nc, runtime.handler, service, tracer, max_in_flight=MAX_IN_FLIGHT
            )
            listeners.append(listener)
            health.add("commands", lambda: listener.subscribed)
        jobs.extend(r.job(runtime) for r in reacting)
        tracer = provider.get_tracer("sicbo.shell")
        # One job of a reacting service, on each of its consumer's streams: every partition
        # of the floor's log (the job sees the floor's subjects, the partition token taken off).
        consumers.extend(
            JobConsumer(
                nc,
                stream,
                r.consumer,
                partial(jobs.__getitem__, index),
                tracer,
                traced=r.acts_on,
                partitioned=stream != r.stream,
                max_in_flight=MAX_JOBS,
                retry_delay=RETRY_DELAY,
                max_retry_delay=MAX_RETRY_DELAY,
            )
            for index, (r, on_streams) in enumerate(zip(reacting, streams, strict=True))
            for stream in on_streams
        )
        if queries is not None:
            # Subscribed before the broker answers pings: ready means the queries are served.
            handlers = queries(runtime)
            for subject, handler in handlers.items():
                await answering.subscribe(nc, subject, service, handler)
            health.add("queries", lambda: answering.subscriptions == len(handlers))

    @app.after_startup
    async def started() -> None:
        runtime = held["rt"]
        if on_start is not None:
            await on_start(runtime)
        for listener in listeners:
            await listener.start()
        for consumer in consumers:
            await consumer.start()
        # Ready means served: the ping is answered on the connection that holds the command
        # and query subscriptions, subscribed after them and flushed, so a caller told "ready"
        # never meets "no responders" (the broker's own connection would race them).
        await runtime.nc.subscribe(service_ping(service), cb=_pong)
        await flush_sent(runtime.nc)
        settle_heap()  # start-up's objects out of the collector's way (sicbo.shell.gctuning)
        log.info("sicbo-%s ready%s", service, ready_note)

    @app.on_shutdown
    async def stop_taking() -> None:
        runtime = held.get("rt")
        if runtime is None:
            return
        for listener in listeners:
            await listener.stop(GRACEFUL_TIMEOUT)
        for consumer in consumers:
            await consumer.stop(GRACEFUL_TIMEOUT)
        await answering.stop(GRACEFUL_TIMEOUT)
        if on_stop is not None:
            await on_stop(runtime)

    @app.after_shutdown
    async def disconnect() -> None:
        runtime = held.get("rt")
        if runtime is not None:
            await close_promptly(runtime.nc, DRAIN_WITHIN)

    return app


async def _partitions(nc: NATS) -> int:
    try:
        return await discover_partitions(nc)
    except StoreError as exc:
        await nc.close()
        raise NotProvisioned(str(exc)) from None


def _streams_of(reacts: Reacts, partitions: int) -> list[str]:
    """A consumer of the floor's log is on each of its partition streams (the same name and
    filter on each): one job sees every table's events."""
    if reacts.stream != EVENT_STREAM:
        return [reacts.stream]
    return [partition_stream(p, partitions) for p in range(partitions)]


async def _pong(msg: Msg) -> None:
    await answer(msg, b'{"ok":true}')


async def _require_provisioned(nc: NATS, reacts: Reacts, stream: str) -> None:
    js = nc.jetstream()
    try:
        await js.consumer_info(stream, reacts.consumer)
        for needed in reacts.needs_streams:
            await js.stream_info(needed)
    except NotFoundError:
        await nc.close()
        raise NotProvisioned(
            f"consumer {stream}/{reacts.consumer} or a stream of"
            f" {list(reacts.needs_streams)} does not exist: run `sicbo provision` first"
            " (services never declare JetStream resources)"
        ) from None
