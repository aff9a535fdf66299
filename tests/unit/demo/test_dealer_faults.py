"""The demo floor lifts a suspension as the rules say: the supervisor resumes a suspended
online round (004 "Ralat Pengendalian"), an inspector clears a land table's fault (000 §7.7)."""

from dataclasses import dataclass, field
from typing import Any

from sicbo.demo.dealer import SimulatedDealer
from sicbo.demo.tables import INSPECTOR, SUPERVISOR
from sicbo.lifecycle.state import LifecycleState, Phase
from sicbo_contracts.lifecycle import ClearFault, ReportMalfunction
from sicbo_contracts.replies import Accepted
from sicbo_contracts.resumption import ResumeRound
from tests.support.common import TABLE, Fact, command
from tests.support.lifecycle import (
    given,
    round_through,
    suspended_while_betting,
    table_opened,
    when,
)
from tests.unit.demo.dealers import dealer_over


@dataclass
class Client:
    state: LifecycleState
    sent: list[Any] = field(default_factory=list)

    async def lifecycle(self, table: str) -> LifecycleState:
        return self.state

    async def events(self, subject_filter: str) -> list[Any]:
        return []

    async def send(self, cmd: Any) -> Accepted:
        self.sent.append(cmd)
        return Accepted(command_id=cmd.command_id, seq=1)


def lifting(history: list[Fact]) -> tuple[Client, SimulatedDealer]:
    client = Client(given(history))
    dealer = dealer_over(client, TABLE)
    return client, dealer


async def test_004_the_demo_supervisor_resumes_a_suspended_online_round() -> None:
    client, dealer = lifting(suspended_while_betting())
    await dealer._fault_fixed()
    [resume] = client.sent
    assert isinstance(resume, ResumeRound) and resume.actor == SUPERVISOR and resume.round == 1


async def test_000_7_7_the_demo_inspector_clears_a_land_tables_fault() -> None:
    history: list[Fact] = [table_opened(), *round_through(1, Phase.COMPLETED)]
    history += when(history, command(ReportMalfunction, "service", equipment="lamp", detail="x"))
    client, dealer = lifting(history)
    await dealer._fault_fixed()
    [clear] = client.sent
    assert isinstance(clear, ClearFault) and clear.actor == INSPECTOR
