"""The settlement service process: a job on the provisioned ``settlement`` consumer.

Any number of replicas may run: the consumer spreads the events among them and the server's
expectations make each settlement happen once (:mod:`sicbo.settlement.settler`). A message is
acknowledged only when its job is done: settled and the round completed
(:mod:`sicbo.shell.bootstrap`).
"""

from __future__ import annotations

from faststream import FastStream

from sicbo.resources import consumer_filter
from sicbo.settlement.settler import Settler
from sicbo.shell.bootstrap import Reacts, Runtime, service_app
from sicbo.shell.reacting import Job

SERVICE = "settlement"


def app(nats_url: str) -> FastStream:
    def start(runtime: Runtime) -> Job:
        settler = Settler(runtime.store, runtime.nc, runtime.clock)

        async def job(subject: str, seq: int, data: bytes) -> None:
            await settler.on_event(subject, seq)

        return job

    return service_app(SERVICE, nats_url, reacts=Reacts(SERVICE, consumer_filter(SERVICE), start))
