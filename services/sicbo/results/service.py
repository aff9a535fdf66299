"""The results feed process: a FastStream app on the provisioned ``results-feed`` consumer.

It also needs the ``SICBO_RESULTS`` stream. Any number of replicas may run: the server's
expectations make each public message exist once (:mod:`sicbo.results.feed`). A message is
acknowledged once the table's public subject covers it (:mod:`sicbo.shell.consumer_app`).
"""

from __future__ import annotations

from faststream import FastStream
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.results.feed import Feed
from sicbo.shell.app import utc_now
from sicbo.shell.consumer_app import GRACEFUL_TIMEOUT as GRACEFUL_TIMEOUT
from sicbo.shell.consumer_app import Job, consumer_app
from sicbo_contracts.subjects import EVENT_STREAM, RESULTS_STREAM

SERVICE = "results"


def app(nats_url: str) -> FastStream:
    def start(nc: NATS) -> Job:
        feed = Feed(EventStore(nc, EVENT_STREAM), EventStore(nc, RESULTS_STREAM), utc_now)

        async def job(subject: str, seq: int, data: bytes) -> None:
            await feed.on_event(subject, seq)

        return job

    return consumer_app(SERVICE, "results-feed", nats_url, start, needs_streams=[RESULTS_STREAM])
