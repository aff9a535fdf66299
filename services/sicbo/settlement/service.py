"""The settlement service process: a job on the provisioned ``settlement`` consumer.

Any number of replicas may run: the consumer spreads the events among them and the server's
expectations make each settlement happen once (:mod:`sicbo.settlement.settler`). A message is
acknowledged only when its job is done: settled and the round completed
(:mod:`sicbo.shell.bootstrap`). A second consumer, ``settlement-debits`` on the players'
accounts, squares a round again when a debit of it is appended after its close
(:mod:`sicbo.settlement.late_debits`).
"""

from __future__ import annotations

from faststream import FastStream

from sicbo.resources import consumer_filter
from sicbo.settlement.late_debits import LateDebits
from sicbo.settlement.money import RoundMoney
from sicbo.settlement.settler import SETTLEMENT_ACTOR, Settler, acts_on
from sicbo.shell.bootstrap import Reacts, Runtime, service_app
from sicbo.shell.reacting import Job
from sicbo_contracts.subjects import ACCOUNT_STREAM

SERVICE = "settlement"
DEBITS = "settlement-debits"


def app(nats_url: str) -> FastStream:
    def start(runtime: Runtime) -> Job:
        settler = Settler(runtime.store, runtime.nc, runtime.clock)

        async def job(subject: str, seq: int, data: bytes) -> None:
            await settler.on_event(subject, seq)

        return job

    def start_debits(runtime: Runtime) -> Job:
        late = LateDebits(
            runtime.store,
            RoundMoney(runtime.store, runtime.nc, SETTLEMENT_ACTOR, runtime.clock),
        )

        async def job(subject: str, seq: int, data: bytes) -> None:
            await late.on_debit(subject, seq)

        return job

    return service_app(
        SERVICE,
        nats_url,
        reacts=[
            Reacts(SERVICE, consumer_filter(SERVICE), start, acts_on=acts_on),
            Reacts(DEBITS, consumer_filter(DEBITS), start_debits, stream=ACCOUNT_STREAM),
        ],
    )
