"""The results feed process: a job on the provisioned ``results-feed`` consumer.

It also needs the ``SICBO_RESULTS`` stream. Any number of replicas may run: the server's
expectations make each public message exist once (:mod:`sicbo.results.feed`). A message is
acknowledged once the table's public subject covers it (:mod:`sicbo.shell.bootstrap`).
"""

from __future__ import annotations

from faststream import FastStream

from sicbo.resources import consumer_filter
from sicbo.results.feed import Feed, public_store
from sicbo.shell.bootstrap import Reacts, Runtime, service_app
from sicbo.shell.reacting import Job
from sicbo_contracts.subjects import RESULTS_STREAM

SERVICE = "results"
CONSUMER = "results-feed"


def app(nats_url: str) -> FastStream:
    def start(runtime: Runtime) -> Job:
        feed = Feed(runtime.store, public_store(runtime.nc), runtime.clock)

        async def job(subject: str, seq: int, data: bytes) -> None:
            await feed.on_event(subject, seq)

        return job

    reacts = Reacts(CONSUMER, consumer_filter(CONSUMER), start, needs_streams=[RESULTS_STREAM])
    return service_app(SERVICE, nats_url, reacts=reacts)
