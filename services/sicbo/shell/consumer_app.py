"""A service that reacts to the log: a FastStream app bound to a provisioned durable consumer.

Settlement, illumination and the results feed are such services. The app declares nothing
(DESIGN.md: provisioning is an explicit step): it binds to its durable pull consumer on
``SICBO`` and refuses to start when the consumer (or a stream it needs) is missing, rather than
let the client create one. Any number of replicas may run: the consumer spreads the events
among them, and each job is idempotent by the server's expectations.

A message is acknowledged only when its job is done; otherwise it is negatively acknowledged
with a growing delay and comes back. On SIGTERM the broker stops fetching and waits for the
jobs in hand (``graceful_timeout``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence

import nats
from fast_depends.msgspec import MsgSpecSerializer
from faststream import AckPolicy, FastStream
from faststream.nats import JStream, NatsBroker, NatsMessage, PullSub
from faststream.nats.opentelemetry import NatsTelemetryMiddleware
from nats.aio.client import Client as NATS
from nats.js.errors import NotFoundError

from sicbo.infra import health as healthz
from sicbo.infra.nats_auth import broker_security, connect_options
from sicbo.infra.nats_urls import servers
from sicbo.infra.telemetry import setup_tracing
from sicbo.provisioning import CONSUMERS
from sicbo.shell.app import ping_subject
from sicbo_contracts.subjects import EVENT_STREAM

log = logging.getLogger(__name__)

#: Messages fetched at once; they run concurrently (each job locks its own table).
FETCH_BATCH = 16
#: Seconds before a message whose job failed is delivered again (grows with each delivery).
RETRY_DELAY = 0.5
MAX_RETRY_DELAY = 10.0
GRACEFUL_TIMEOUT = 20.0

#: The job for one event: its subject, stream sequence and data. Raises to be redelivered.
Job = Callable[[str, int, bytes], Awaitable[None]]


class NotProvisioned(RuntimeError):
    pass


def consumer_app(
    service: str,
    consumer: str,
    nats_url: str,
    start_job: Callable[[NATS], Job],
    *,
    needs_streams: Sequence[str] = (),
    ready_note: str = "",
) -> FastStream:
    """The app of ``service``: ``start_job(nc)`` is called once connected and returns the job
    run for every event of the durable ``consumer``."""
    spec = next(c for c in CONSUMERS if c.name == consumer)
    provider = setup_tracing(f"sicbo-{service}")
    broker = NatsBroker(
        servers(nats_url),
        middlewares=[NatsTelemetryMiddleware(tracer_provider=provider)],
        serializer=MsgSpecSerializer(),
        name=f"sicbo-{service}",
        graceful_timeout=GRACEFUL_TIMEOUT,
        security=broker_security(nats_url),
    )
    application = FastStream(broker)
    health = healthz.install(application, service)
    held: dict[str, NATS] = {}
    jobs: list[Job] = []

    @application.on_startup
    async def connect() -> None:
        nc = await nats.connect(
            servers(nats_url), name=f"sicbo-{service}-store", **connect_options(nats_url)
        )
        js = nc.jetstream()
        try:
            await js.consumer_info(EVENT_STREAM, spec.name)
            for stream in needs_streams:
                await js.stream_info(stream)
        except NotFoundError:
            await nc.close()
            raise NotProvisioned(
                f"consumer {EVENT_STREAM}/{spec.name} or a stream of {list(needs_streams)} does"
                " not exist: run `sicbo provision` first (services never declare JetStream"
                " resources)"
            ) from None
        held["nc"] = nc
        health.add_nats("store", nc)
        health.add_consumer(nc, EVENT_STREAM, spec.name)
        jobs.append(start_job(nc))

    @application.after_startup
    async def started() -> None:
        log.info("sicbo-%s ready%s", service, ready_note)

    @application.after_shutdown
    async def disconnect() -> None:
        nc = held.get("nc")
        if nc is not None:
            await nc.drain()

    @broker.subscriber(
        spec.filters[0],
        stream=JStream(EVENT_STREAM, declare=False),
        durable=spec.name,
        pull_sub=PullSub(batch_size=FETCH_BATCH, timeout=1.0),
        ack_policy=AckPolicy.MANUAL,
    )
    async def on_event(msg: NatsMessage) -> None:
        raw = msg.raw_message
        try:
            await jobs[0](raw.subject, raw.metadata.sequence.stream, raw.data)
        except Exception:
            delivered = raw.metadata.num_delivered or 1
            delay = min(MAX_RETRY_DELAY, RETRY_DELAY * 2 ** (delivered - 1))
            log.exception("%s (delivery %s): retry in %.1f s", raw.subject, delivered, delay)
            await msg.nack(delay=delay)
            return
        await msg.ack()

    @broker.subscriber(ping_subject(service))
    async def on_ping(msg: NatsMessage) -> bytes:
        return b'{"ok":true}'

    return application
