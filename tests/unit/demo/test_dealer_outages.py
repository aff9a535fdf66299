"""The demo dealer plays on through a moment the log is out of reach (a node failing over).

An online table's dealer watches for the countdown to close betting (004 "Cara Bermain"); a
read that failed while the stream's leader died used to end that table's play for good.
"""

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from sicbo.eventstore.errors import StoreError
from sicbo.lifecycle.state import Phase
from tests.unit.demo.dealers import dealer_over


@dataclass
class Reads:
    """The table's lifecycle as read: the first ``failures`` reads fail."""

    failures: int
    reads: int = 0

    async def lifecycle(self, table: str) -> Any:
        self.reads += 1
        if self.reads <= self.failures:
            raise StoreError("no Direct Get reply on $JS.API.DIRECT.GET.SICBO")
        return SimpleNamespace(round=SimpleNamespace(number=4, phase=Phase.BETTING_CLOSED))


async def test_004_a_failed_read_while_waiting_for_the_countdown_is_read_again() -> None:
    reads = Reads(failures=2)
    await dealer_over(reads, "t1")._wait_phase(4, Phase.BETTING_CLOSED, timeout=1.0)
    assert reads.reads == 3
