"""The demo dealer's pause after a result (DemoTable.result_seconds): the player page holds the
result until the next round opens betting, so the pause is what lets a person see it; a person
taking the table over, or the floor stopping, cuts it short."""

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import pytest

from sicbo.demo.dealer import SimulatedDealer
from sicbo.demo.tables import DEMO_TABLES


def paused_dealer(result_seconds: float, control: SimpleNamespace) -> SimulatedDealer:
    unused = cast(Any, None)
    return SimulatedDealer(
        unused,
        cast(Any, SimpleNamespace(table="t", result_seconds=result_seconds)),
        lambda line: None,
        control=cast(Any, control),
        players=unused,
        rng=unused,
        betting_seconds=0.0,
        no_result_every=1,
        notice=None,
        inspector_seconds=0.0,
    )


async def slept(monkeypatch: pytest.MonkeyPatch, dealer: SimulatedDealer) -> float:
    """The seconds the dealer's pause slept (asyncio.sleep counted, not waited for)."""
    total = 0.0

    async def sleep(seconds: float) -> None:
        nonlocal total
        total += seconds

    monkeypatch.setattr(asyncio, "sleep", sleep)
    await dealer._let_the_result_be_seen()
    return total


async def test_the_dealer_waits_the_tables_pause_after_a_result(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    control = SimpleNamespace(stopped=False, held_by=None)
    assert await slept(monkeypatch, paused_dealer(8.0, control)) == pytest.approx(8.0)
    assert await slept(monkeypatch, paused_dealer(0.0, control)) == 0.0


@pytest.mark.parametrize(
    "control", [{"stopped": True, "held_by": None}, {"stopped": False, "held_by": "ana"}]
)
async def test_a_take_over_or_a_stop_cuts_the_pause_short(
    monkeypatch: pytest.MonkeyPatch, control: dict[str, object]
) -> None:
    dealer = paused_dealer(8.0, SimpleNamespace(**control))
    assert await slept(monkeypatch, dealer) == 0.0


def test_the_demo_online_table_gives_a_person_time_to_bet_and_to_see_the_result() -> None:
    """Issue 15: at least 15 s to pick a chip, tap spots and confirm; a pause after the result."""
    online = [t for t in DEMO_TABLES if t.config.betting_seconds is not None]
    assert online and all((t.config.betting_seconds or 0) >= 15 for t in online)
    assert all(t.result_seconds >= 5 for t in online)
