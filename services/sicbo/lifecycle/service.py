"""The round lifecycle service: its decider behind the shell, plus the betting countdown."""

from faststream import FastStream

from sicbo.lifecycle import decider
from sicbo.lifecycle.countdown import Countdown, record_deadlines
from sicbo.shell.bootstrap import Runtime, service_app
from sicbo.shell.commands import DeciderSpec
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.lifecycle import LifecycleCommand, LifecycleEvent
from sicbo_contracts.subjects import Aggregate

SPEC: DeciderSpec[decider.LifecycleState] = DeciderSpec(
    service="lifecycle",
    aggregate=Aggregate.LIFECYCLE,
    command_type=LifecycleCommand,
    event_type=LifecycleEvent | DiceEvent,
    initial=decider.initial_state,
    evolve=decider.evolve,
    decide=decider.decide,
)


def app(nats_url: str) -> FastStream:
    countdowns: list[Countdown] = []

    async def start(runtime: Runtime) -> None:
        countdown = Countdown(runtime)
        countdowns.append(countdown)
        await countdown.start()

    async def stop(runtime: Runtime) -> None:
        for countdown in countdowns:
            await countdown.stop()

    return service_app(
        SPEC.service,
        nats_url,
        commands=SPEC,
        before_append=record_deadlines,
        on_start=start,
        on_stop=stop,
    )
