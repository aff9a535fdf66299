"""A service process: a FastStream app on NATS whose command subscriber runs the shell.

Streams and consumers are never declared here (DESIGN.md: provisioning is an explicit step).
"""

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import nats
from fast_depends.msgspec import MsgSpecSerializer
from faststream import FastStream
from faststream.nats import NatsBroker, NatsMessage
from faststream.nats.opentelemetry import NatsTelemetryMiddleware
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.infra import health as healthz
from sicbo.infra.nats_auth import broker_security, connect_options
from sicbo.infra.nats_urls import servers
from sicbo.infra.telemetry import setup_tracing
from sicbo.shell.commands import Clock, CommandHandler, DeciderSpec, Hook
from sicbo.shell.listener import CommandListener
from sicbo_contracts.subjects import EVENT_STREAM

log = logging.getLogger(__name__)


#: Commands one service process works on at once (other tables, pipelined slips); the
#: handler serialises per table where the decider asks for it.
MAX_IN_FLIGHT = 64


def utc_now() -> datetime:
    return datetime.now(UTC)


def ping_subject(service: str) -> str:
    return f"sicbo.svc.{service}.ping"


@dataclass
class Runtime:
    """What a service's extra components get once connected."""

    nc: NATS
    store: EventStore
    handler: CommandHandler[Any]
    clock: Clock


Component = Callable[[Runtime], Awaitable[None]]


def create_app(
    spec: DeciderSpec[Any],
    nats_url: str,
    *,
    clock: Clock = utc_now,
    before_append: Callable[[NATS], Hook] | None = None,
    on_start: Component | None = None,
    on_stop: Component | None = None,
) -> FastStream:
    provider = setup_tracing(f"sicbo-{spec.service}")
    broker = NatsBroker(
        servers(nats_url),
        middlewares=[NatsTelemetryMiddleware(tracer_provider=provider)],
        serializer=MsgSpecSerializer(),
        name=f"sicbo-{spec.service}",
        security=broker_security(nats_url),
    )
    app = FastStream(broker)
    health = healthz.install(app, spec.service)
    holder: dict[str, Runtime] = {}
    listeners: list[CommandListener] = []

    @app.on_startup
    async def connect() -> None:
        nc = await nats.connect(
            servers(nats_url), name=f"sicbo-{spec.service}-store", **connect_options(nats_url)
        )
        health.add_nats("store", nc)
        store = EventStore(nc, EVENT_STREAM)
        hook = before_append(nc) if before_append is not None else None
        handler: CommandHandler[Any] = CommandHandler(spec, store, clock, before_append=hook)
        holder["rt"] = Runtime(nc, store, handler, clock)
        listener = CommandListener(
            nc,
            handler,
            spec.service,
            provider.get_tracer("sicbo.shell"),
            max_in_flight=MAX_IN_FLIGHT,
        )
        listeners.append(listener)
        health.add("commands", lambda: listener.subscribed)

    @app.after_startup
    async def started() -> None:
        if on_start is not None:
            await on_start(holder["rt"])
        for listener in listeners:
            await listener.start()
        log.info("sicbo-%s ready", spec.service)

    @app.on_shutdown
    async def disconnect() -> None:
        runtime = holder.get("rt")
        if runtime is None:
            return
        for listener in listeners:
            await listener.stop()
        if on_stop is not None:
            await on_stop(runtime)
        await runtime.nc.drain()

    @broker.subscriber(ping_subject(spec.service))
    async def on_ping(msg: NatsMessage) -> bytes:
        return b'{"ok":true}'

    return app
