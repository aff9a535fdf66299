"""An option of 002/2004 adopted through the lifecycle service under art. 8, on a real
nats-server: the application with a named value, the approval with the regulator's reference,
and the next round played under it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo_contracts.lifecycle import ApprovePaytable, ProposePaytable, StartRound
from sicbo_contracts.replies import Accepted, Rejected
from tests.integration.conftest import DEALER, OPERATOR, SUPERVISOR, Floor, new_id
from tests.integration.test_round_services import lc_events, open_table

ELECTRIC = "macau-2004@v1?activation=electric&total-5-16=24"


async def test_an_approved_option_is_played_by_the_next_round_002_2004_art_8(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "macau-2004")
    today = datetime.now(UTC).astimezone(ZoneInfo("Asia/Macau")).date()  # the table's day
    propose = ProposePaytable(
        command_id=new_id(),
        table=table_id,
        actor=OPERATOR,
        choices={"activation": "electric", "total-5-16": 24},  # art. 2(1), art. 6(6)
        applied_on=today - timedelta(days=10),  # at least three working days ago
    )
    assert isinstance(await floor.send(nc, propose), Accepted)

    def approval(reference: str) -> ApprovePaytable:
        return ApprovePaytable(
            command_id=new_id(),
            table=table_id,
            actor=SUPERVISOR,
            paytable=ELECTRIC,
            adoption_date=today,
            acknowledged_no_house_edge=["even", "odd"],
            regulator_reference=reference,
        )

    refused = await floor.send(nc, approval(""))
    assert isinstance(refused, Rejected) and refused.code == "refused"
    assert "regulator_reference" in refused.reason and "002/2004 art. 8" in refused.reason
    assert isinstance(await floor.send(nc, approval("DICJ/2024/0417")), Accepted)
    start = StartRound(command_id=new_id(), table=table_id, actor=DEALER, round=1, tumbles=3)
    assert isinstance(await floor.send(nc, start), Accepted)

    events = await lc_events(store, table_id)
    by_type = {e["type"]: e for e in events}
    assert by_type["paytable.proposed.v1"]["choices"] == {
        "activation": "electric",
        "total-5-16": 24,
    }
    assert by_type["paytable.approved.v1"]["regulator_reference"] == "DICJ/2024/0417"
    assert by_type["round.started.v1"]["paytable"] == ELECTRIC
