"""The dice capture service: the entry terminal's commands behind the shell."""

from faststream import FastStream

from sicbo.dice import decider
from sicbo.shell.bootstrap import service_app
from sicbo.shell.commands import DeciderSpec
from sicbo_contracts.dice import DiceCommand, DiceEvent
from sicbo_contracts.lifecycle import LifecycleEvent
from sicbo_contracts.subjects import Aggregate

SPEC: DeciderSpec[decider.DiceState] = DeciderSpec(
    service="dice",
    aggregate=Aggregate.LIFECYCLE,  # the result belongs to the round (DESIGN.md "lc")
    command_type=DiceCommand,
    event_type=LifecycleEvent | DiceEvent,
    initial=decider.initial_state,
    evolve=decider.evolve,
    decide=decider.decide,
)


def app(nats_url: str) -> FastStream:
    return service_app(SPEC.service, nats_url, commands=SPEC)
