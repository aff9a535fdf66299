"""The illumination service process: a job on the provisioned ``illumination``
consumer (every table's lifecycle events, created by ``sicbo provision``).

A message is acknowledged once its verdict is stored and any fault reported to the lifecycle;
otherwise it comes back (the verdict is stored once, the report is a duplicate; see
:mod:`sicbo.shell.bootstrap`). Settlement has its own consumer and never waits for this
one (000 §7.6).

``SICBO_LAYOUT_DEADLINE`` (seconds, default 2) bounds the wait for a controller's report.
"""

from __future__ import annotations

import os

from faststream import FastStream

from sicbo.illumination.illuminator import DEFAULT_DEADLINE, Illuminator, acts_on
from sicbo.resources import consumer_filter
from sicbo.shell.bootstrap import Reacts, Runtime, service_app
from sicbo.shell.reacting import Job

SERVICE = "illumination"


def app(nats_url: str) -> FastStream:
    deadline = float(os.environ.get("SICBO_LAYOUT_DEADLINE", DEFAULT_DEADLINE))

    def start(runtime: Runtime) -> Job:
        illuminator = Illuminator(runtime.store, runtime.nc, runtime.clock, deadline=deadline)

        async def job(subject: str, seq: int, data: bytes) -> None:
            await illuminator.on_event(subject, seq, data)

        return job

    return service_app(
        SERVICE,
        nats_url,
        reacts=Reacts(SERVICE, consumer_filter(SERVICE), start, acts_on=acts_on),
        ready_note=f" (controller deadline {deadline:.1f} s)",
    )
