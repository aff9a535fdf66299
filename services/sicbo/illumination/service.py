"""The illumination service process: a FastStream app on the provisioned ``illumination``
consumer (filter ``sicbo.evt.*.lc.>``, created by ``sicbo provision``).

A message is acknowledged once its verdict is stored and any fault reported to the lifecycle;
otherwise it comes back (the verdict is stored once, the report is a duplicate; see
:mod:`sicbo.shell.consumer_app`). Settlement has its own consumer and never waits for this
one (000 §7.6).

``SICBO_LAYOUT_DEADLINE`` (seconds, default 2) bounds the wait for a controller's report.
"""

from __future__ import annotations

import os

from faststream import FastStream
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.illumination.illuminator import DEFAULT_DEADLINE, Illuminator
from sicbo.shell.app import utc_now
from sicbo.shell.consumer_app import GRACEFUL_TIMEOUT as GRACEFUL_TIMEOUT
from sicbo.shell.consumer_app import Job, consumer_app
from sicbo_contracts.subjects import EVENT_STREAM

SERVICE = "illumination"


def app(nats_url: str) -> FastStream:
    deadline = float(os.environ.get("SICBO_LAYOUT_DEADLINE", DEFAULT_DEADLINE))

    def start(nc: NATS) -> Job:
        illuminator = Illuminator(EventStore(nc, EVENT_STREAM), nc, utc_now, deadline=deadline)

        async def job(subject: str, seq: int, data: bytes) -> None:
            await illuminator.on_event(subject, seq, data)

        return job

    return consumer_app(
        SERVICE, SERVICE, nats_url, start, ready_note=f" (controller deadline {deadline:.1f} s)"
    )
