"""One trace follows a command: the service's span and the appended event carry its trace id."""

from __future__ import annotations

import asyncio
import json

from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo_contracts.lifecycle import OpenTable, TableConfig
from sicbo_contracts.replies import Accepted
from tests.integration.conftest import LIMITS, OPERATOR, Floor, new_id

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
