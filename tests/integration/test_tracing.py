"""One trace follows a command: the service's span and the appended event carry its trace id."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo_contracts.dice import ConfirmResult, EnterDice
from sicbo_contracts.lifecycle import OpenTable, TableConfig
from sicbo_contracts.replies import Accepted
from tests.integration.conftest import DEALER, LIMITS, OPERATOR, Floor, new_id
from tests.integration.test_settlement import (
    close_and_uncover,
    ok,
    open_round,
    open_table,
    wait_completed,
)

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"


async def test_trace_context_reaches_the_span_and_the_stored_event(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    cmd = OpenTable(
        command_id=new_id(),
        table=table_id,
        actor=OPERATOR,
        # 002/2003 art. 3(2): the layout is lit; no round here, so nothing asks its lamps
        config=TableConfig(profile="macau-2003", limits=LIMITS, layout_controller=True),
    )
    headers = {"traceparent": f"00-{TRACE_ID}-00f067aa0ba902b7-01"}
    assert isinstance(await floor.send(nc, cmd, headers=headers), Accepted)
    (stored,) = await store.read(f"sicbo.evt.{table_id}.>")
    assert stored.headers["traceparent"].split("-")[1] == TRACE_ID
    spans: list[dict] = []
    for _ in range(50):
        spans = [
            json.loads(line)
            for path in floor.trace_dir.glob("lifecycle-*.jsonl")
            for line in path.read_text().splitlines()
        ]
        if any(s["context"]["trace_id"] == "0x" + TRACE_ID for s in spans):
            break
        await asyncio.sleep(0.1)
    assert any(s["context"]["trace_id"] == "0x" + TRACE_ID for s in spans)


def _spans(floor: Floor, service: str) -> list[dict[str, Any]]:
    return [
        json.loads(line)
        for path in floor.trace_dir.glob(f"{service}-*.jsonl")
        for line in path.read_text().splitlines()
    ]


async def test_settlement_continues_the_trace_of_the_event_it_acts_on(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """The consumer's job runs in a span of the trace that appended its event (the dealer's
    ConfirmResult here); the lifecycle events settlement leaves get no span of their own."""
    await open_table(floor, nc, table_id)
    await open_round(floor, nc, table_id, 1)
    await close_and_uncover(floor, nc, table_id, 1)
    await ok(
        floor,
        nc,
        EnterDice(command_id=new_id(), table=table_id, actor=DEALER, round=1, dice=(1, 2, 3)),
    )
    confirm = ConfirmResult(command_id=new_id(), table=table_id, actor=DEALER, round=1)
    headers = {"traceparent": f"00-{TRACE_ID}-00f067aa0ba902b7-01"}
    assert isinstance(await floor.send(nc, confirm, headers=headers), Accepted)
    await wait_completed(store, table_id, 1)
    mine: list[dict[str, Any]] = []
    for _ in range(50):
        mine = [
            s
            for s in _spans(floor, "settlement")
            if f".{table_id}." in s["attributes"].get("messaging.destination.name", "")
        ]
        if any(s["context"]["trace_id"] == "0x" + TRACE_ID for s in mine):
            break
        await asyncio.sleep(0.1)
    by_event = {s["attributes"]["messaging.destination.name"].rsplit(".", 1)[-1]: s for s in mine}
    assert by_event["dice-result-confirmed-v1"]["context"]["trace_id"] == "0x" + TRACE_ID
    assert by_event["dice-result-confirmed-v1"]["kind"] == "SpanKind.CONSUMER"
    assert "round-betting-closed-v1" in by_event  # read ahead: settlement acts on it
    assert "round-started-v1" not in by_event and "round-completed-v1" not in by_event
