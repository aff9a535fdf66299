"""Dual control of an invalidation (000 §8.4; ``TableConfig.dual_control``) against a real
nats-server and the floor's services as processes: on a dual-control cca table a supervisor's
invalidation of a round already paid is only proposed (no RoundInvalidated, nothing for
settlement); a second supervisor approves it, then the RoundInvalidated and settlement's
compensating SettlementVoided (000 §8.5) are stored, and replay matches and finds nothing."""

from __future__ import annotations

import msgspec
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.replay.invariants import check_log
from sicbo.replay.report import MATCH, round_report
from sicbo_contracts.base import Role
from sicbo_contracts.lifecycle import (
    ApproveInvalidation,
    InvalidateRound,
    InvalidationReason,
    RoundInvalidated,
)
from sicbo_contracts.replies import Rejected
from sicbo_contracts.settlement import SettlementVoided
from sicbo_contracts.subjects import Aggregate, round_filter
from sicbo_contracts.wagers import Wager
from tests.floor import actor
from tests.integration.conftest import SUPERVISOR, Floor, new_id
from tests.integration.test_settlement import ok, open_table, play, wait_completed, wait_for

SUPERVISOR_2 = actor(Role.SUPERVISOR, "supervisor-2")
FRAUD = InvalidationReason.FRAUD


async def test_dual_control_an_invalidation_after_the_result_waits_for_a_second_supervisor(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "cca-1992", dual_control=True)
    slips = [
        ("ann", [Wager(bet="big", stake=200)]),
        ("eve", [Wager(bet="triple:6", stake=500)]),
    ]
    await play(floor, nc, table_id, 1, slips, (6, 6, 6))
    await wait_completed(store, table_id, 1)  # settled and paid: eve's triple won
    lc_1 = round_filter(table_id, Aggregate.LIFECYCLE, 1)
    first = {"table": table_id, "actor": SUPERVISOR}
    detail = "marked dice found at seat 2"
    await ok(
        floor,
        nc,
        InvalidateRound(
            command_id=new_id(), round=1, reason=FRAUD, detail=detail, forfeits=["eve"], **first
        ),
    )
    proposal = await wait_for(store, lc_1, "invalidation-proposed-v1")
    # only proposed: no RoundInvalidated; the proposer does not approve it
    assert not [e for e in await store.read(lc_1) if e.subject.endswith("round-invalidated-v1")]
    own = ApproveInvalidation(command_id=new_id(), round=1, reason=FRAUD, forfeits=["eve"], **first)
    refused = await floor.send(nc, own)
    assert isinstance(refused, Rejected) and "another supervisor" in refused.reason
    second = {"table": table_id, "actor": SUPERVISOR_2}
    approve = ApproveInvalidation(
        command_id=new_id(), round=1, reason=FRAUD, forfeits=["eve"], **second
    )
    await ok(floor, nc, approve)
    stored = await wait_for(store, lc_1, "round-invalidated-v1")
    invalidated = msgspec.json.decode(stored.data, type=RoundInvalidated)
    assert stored.seq > proposal.seq
    assert (invalidated.actor.id, invalidated.proposed_by) == (SUPERVISOR_2.id, SUPERVISOR.id)
    assert (invalidated.detail, invalidated.forfeits) == (detail, ["eve"])
    # settlement compensates the approval, once; it never acted on the proposal
    settle_1 = round_filter(table_id, Aggregate.SETTLE, 1)
    await wait_for(store, settle_1, "settle-voided-v1")
    voids = [e for e in await store.read(settle_1) if e.subject.endswith("settle-voided-v1")]
    [void] = [msgspec.json.decode(e.data, type=SettlementVoided) for e in voids]
    assert void.cancel_seq == stored.seq and voids[0].seq > stored.seq
    assert sorted((a.player, a.after.outcome, a.after.returned) for a in void.adjustments) == [
        ("ann", "void", 200),  # 000 §8.5: refunded
        ("eve", "forfeit", 0),  # 000 §8.4.2: forfeited for the fraud
    ]
    log = await store.read(f"sicbo.evt.{table_id}.>")
    report = round_report(log, table_id, 1)
    assert report.status == MATCH and report.problems == [], report.problems
    assert report.voided_by == stored.seq
    assert check_log(log, table_id).get(table_id, []) == []
