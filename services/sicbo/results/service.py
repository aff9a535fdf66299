"""The results feed process: a job on the provisioned ``results-feed`` consumer, and the
feed's heartbeat.

It also needs the ``SICBO_RESULTS`` stream. Any number of replicas may run: the server's
expectations make each public message exist once (:mod:`sicbo.results.feed`), and each
interval's heartbeat of a table once (:mod:`sicbo.results.heartbeat`). A message is
acknowledged once the table's public subject covers it (:mod:`sicbo.shell.bootstrap`).

``SICBO_RESULTS_HEARTBEAT_S`` (whole seconds, default 5) is the heartbeat interval.
"""

from __future__ import annotations

import asyncio
import contextlib
import os

from faststream import FastStream

from sicbo.resources import consumer_filter
from sicbo.results.feed import Feed, acts_on, public_store
from sicbo.results.heartbeat import INTERVAL_ENV, Heartbeats, parse_interval
from sicbo.shell.bootstrap import Reacts, Runtime, service_app
from sicbo.shell.reacting import Job
from sicbo_contracts.subjects import RESULTS_STREAM

SERVICE = "results"
CONSUMER = "results-feed"


def app(nats_url: str) -> FastStream:
    interval = parse_interval(os.environ.get(INTERVAL_ENV))
    beating: list[asyncio.Task[None]] = []

    def start(runtime: Runtime) -> Job:
        feed = Feed(runtime.store, public_store(runtime.nc), runtime.clock)

        async def job(subject: str, seq: int, data: bytes) -> None:
            await feed.on_event(subject, seq)

        return job

    async def start_beating(runtime: Runtime) -> None:
        beats = Heartbeats(runtime.nc, public_store(runtime.nc), runtime.clock, interval)
        beating.append(asyncio.create_task(beats.run(), name="results heartbeat"))

    async def stop_beating(runtime: Runtime) -> None:
        for task in beating:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    reacts = Reacts(
        CONSUMER,
        consumer_filter(CONSUMER),
        start,
        needs_streams=[RESULTS_STREAM],
        acts_on=acts_on,
    )
    return service_app(
        SERVICE,
        nats_url,
        reacts=reacts,
        on_start=start_beating,
        on_stop=stop_beating,
        ready_note=f" (heartbeat every {interval} s)",
    )
