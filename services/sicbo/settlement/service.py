"""The settlement service process: a FastStream app on the provisioned ``settlement`` consumer.

Any number of replicas may run: the consumer spreads the events among them and the server's
expectations make each settlement happen once (:mod:`sicbo.settlement.settler`). A message is
acknowledged only when its job is done: settled and the round completed
(:mod:`sicbo.shell.consumer_app`).
"""

from __future__ import annotations

from faststream import FastStream
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.settlement.settler import Settler
from sicbo.shell.app import utc_now
from sicbo.shell.consumer_app import GRACEFUL_TIMEOUT as GRACEFUL_TIMEOUT
from sicbo.shell.consumer_app import Job, consumer_app
from sicbo_contracts.subjects import EVENT_STREAM

SERVICE = "settlement"


def app(nats_url: str) -> FastStream:
    def start(nc: NATS) -> Job:
        settler = Settler(EventStore(nc, EVENT_STREAM), nc, utc_now)

        async def job(subject: str, seq: int, data: bytes) -> None:
            await settler.on_event(subject, seq)

        return job

    return consumer_app(SERVICE, SERVICE, nats_url, start)
