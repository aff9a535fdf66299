"""The results feed process: a FastStream app on the provisioned ``results-feed`` consumer.

It declares nothing (DESIGN.md: provisioning is an explicit step): it binds to the durable pull
consumer ``results-feed`` on ``SICBO`` (filter ``sicbo.evt.*.lc.>``) and refuses to start when
that consumer or the ``SICBO_RESULTS`` stream is missing. Any number of replicas may run: the
server's expectations make each public message exist once (:mod:`sicbo.results.feed`).

A message is acknowledged once the table's public subject covers it; otherwise it is
negatively acknowledged with a growing delay and comes back.
"""

from __future__ import annotations

import logging

import nats
from fast_depends.msgspec import MsgSpecSerializer
from faststream import AckPolicy, FastStream
from faststream.nats import JStream, NatsBroker, NatsMessage, PullSub
from faststream.nats.opentelemetry import NatsTelemetryMiddleware
from nats.aio.client import Client as NATS
from nats.js.errors import NotFoundError

from sicbo.eventstore.store import EventStore
from sicbo.infra.telemetry import setup_tracing
from sicbo.provisioning import CONSUMERS
from sicbo.results.feed import Feed
from sicbo.shell.app import ping_subject, utc_now
from sicbo_contracts.subjects import EVENT_STREAM, RESULTS_STREAM

log = logging.getLogger(__name__)

SERVICE = "results"
CONSUMER = next(c for c in CONSUMERS if c.name == "results-feed")
FETCH_BATCH = 16
RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 10.0
GRACEFUL_TIMEOUT = 20.0


class NotProvisioned(RuntimeError):
    pass


def app(nats_url: str) -> FastStream:
    provider = setup_tracing(f"sicbo-{SERVICE}")
    broker = NatsBroker(
        nats_url,
        middlewares=[NatsTelemetryMiddleware(tracer_provider=provider)],
        serializer=MsgSpecSerializer(),
        name=f"sicbo-{SERVICE}",
        graceful_timeout=GRACEFUL_TIMEOUT,
    )
    application = FastStream(broker)
    held: dict[str, Feed | NATS] = {}

    @application.on_startup
    async def connect() -> None:
        nc = await nats.connect(nats_url, name=f"sicbo-{SERVICE}-store")
        js = nc.jetstream()
        try:
            await js.consumer_info(EVENT_STREAM, CONSUMER.name)
            await js.stream_info(RESULTS_STREAM)
        except NotFoundError:
            await nc.close()
            raise NotProvisioned(
                f"consumer {EVENT_STREAM}/{CONSUMER.name} or stream {RESULTS_STREAM} does not"
                " exist: run `sicbo provision` first (services never declare JetStream resources)"
            ) from None
        held["nc"] = nc
        held["feed"] = Feed(EventStore(nc, EVENT_STREAM), EventStore(nc, RESULTS_STREAM), utc_now)

    @application.after_startup
    async def started() -> None:
        log.info("sicbo-%s ready", SERVICE)

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
        feed = held["feed"]
        assert isinstance(feed, Feed)
        raw = msg.raw_message
        try:
            await feed.on_event(raw.subject, raw.metadata.sequence.stream)
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
