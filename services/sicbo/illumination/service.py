"""The illumination service process: a FastStream app on the provisioned ``illumination``
consumer (filter ``sicbo.evt.*.lc.>``, created by ``sicbo provision``).

Like settlement it declares nothing and refuses to start when its consumer is missing. A message
is acknowledged once its verdict is stored and any fault reported to the lifecycle; otherwise it
is negatively acknowledged with a growing delay and comes back (the verdict is stored once, the
report is a duplicate). Settlement has its own consumer and never waits for this one (000 §7.6).

``SICBO_LAYOUT_DEADLINE`` (seconds, default 2) bounds the wait for a controller's report.
"""

from __future__ import annotations

import logging
import os

import nats
from fast_depends.msgspec import MsgSpecSerializer
from faststream import AckPolicy, FastStream
from faststream.nats import JStream, NatsBroker, NatsMessage, PullSub
from faststream.nats.opentelemetry import NatsTelemetryMiddleware
from nats.aio.client import Client as NATS
from nats.js.errors import NotFoundError

from sicbo.eventstore.store import EventStore
from sicbo.illumination.illuminator import DEFAULT_DEADLINE, Illuminator
from sicbo.infra import health as healthz
from sicbo.infra.nats_auth import broker_security, connect_options
from sicbo.infra.telemetry import setup_tracing
from sicbo.provisioning import CONSUMERS
from sicbo.shell.app import ping_subject, utc_now
from sicbo_contracts.subjects import EVENT_STREAM

log = logging.getLogger(__name__)

SERVICE = "illumination"
CONSUMER = next(c for c in CONSUMERS if c.name == SERVICE)
FETCH_BATCH = 16
RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 10.0
GRACEFUL_TIMEOUT = 20.0


class ConsumerMissing(RuntimeError):
    pass


def app(nats_url: str) -> FastStream:
    provider = setup_tracing(f"sicbo-{SERVICE}")
    broker = NatsBroker(
        nats_url,
        middlewares=[NatsTelemetryMiddleware(tracer_provider=provider)],
        serializer=MsgSpecSerializer(),
        name=f"sicbo-{SERVICE}",
        graceful_timeout=GRACEFUL_TIMEOUT,
        security=broker_security(nats_url),
    )
    application = FastStream(broker)
    health = healthz.install(application, SERVICE)
    held: dict[str, Illuminator | NATS] = {}
    deadline = float(os.environ.get("SICBO_LAYOUT_DEADLINE", DEFAULT_DEADLINE))

    @application.on_startup
    async def connect() -> None:
        nc = await nats.connect(
            nats_url, name=f"sicbo-{SERVICE}-store", **connect_options(nats_url)
        )
        try:
            await nc.jetstream().consumer_info(EVENT_STREAM, CONSUMER.name)
        except NotFoundError:
            await nc.close()
            raise ConsumerMissing(
                f"consumer {EVENT_STREAM}/{CONSUMER.name} does not exist: run `sicbo provision`"
                " first (services never declare JetStream resources)"
            ) from None
        held["nc"] = nc
        health.add_nats("store", nc)
        health.add_consumer(nc, EVENT_STREAM, CONSUMER.name)
        held["illuminator"] = Illuminator(
            EventStore(nc, EVENT_STREAM), nc, utc_now, deadline=deadline
        )

    @application.after_startup
    async def started() -> None:
        log.info("sicbo-%s ready (controller deadline %.1f s)", SERVICE, deadline)

    @application.after_shutdown
    async def disconnect() -> None:
        nc = held.get("nc")
        if isinstance(nc, NATS):
            await nc.drain()

    @broker.subscriber(
        CONSUMER.filters[0],
        stream=JStream(EVENT_STREAM, declare=False),
        durable=CONSUMER.name,
        pull_sub=PullSub(batch_size=FETCH_BATCH, timeout=1.0),
        ack_policy=AckPolicy.MANUAL,
    )
    async def on_event(msg: NatsMessage) -> None:
        illuminator = held["illuminator"]
        assert isinstance(illuminator, Illuminator)
        raw = msg.raw_message
        try:
            await illuminator.on_event(raw.subject, raw.metadata.sequence.stream, raw.data)
        except Exception:
            delivered = raw.metadata.num_delivered or 1
            delay = min(MAX_RETRY_DELAY, RETRY_DELAY * 2 ** (delivered - 1))
            log.exception("%s (delivery %s): retry in %.1f s", raw.subject, delivered, delay)
            await msg.nack(delay=delay)
            return
        await msg.ack()

    @broker.subscriber(ping_subject(SERVICE))
    async def on_ping(msg: NatsMessage) -> bytes:
        return b'{"ok":true}'

    return application
