"""Corrections of an earlier round (GLI-19 §4.18.4) in manual mode (GLI-19 §C.6.8(o)), with and
without dual control, against a real nats-server and the floor's services as processes.

A supervisor corrects round 1 after rounds 2 and 3 were played (round 1 completed and paid
long before): settlement adjusts round 1 once, the public results feed publishes the
correction of round 1 after round 3's result, the log records the manual mode around it.
A round the settler's state has forgotten is read again and adjusted once. With
``TableConfig.dual_control`` nothing changes until a second supervisor approves.
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

import httpx
import nats
import pytest
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo.provisioning import provision
from sicbo.settlement import decider as settlement_decider
from sicbo.settlement.settler import Settler
from sicbo_contracts.base import Dice, Role
from sicbo_contracts.dice import (
    ApproveCorrection,
    CorrectResult,
    EnterManualMode,
    LeaveManualMode,
)
from sicbo_contracts.replies import Rejected
from sicbo_contracts.results import ResultStatus
from sicbo_contracts.settlement import SettlementAdjusted
from sicbo_contracts.subjects import EVENT_STREAM, Aggregate, round_filter, table_level
from sicbo_contracts.wagers import Wager
from tests.floor import actor, browser
from tests.integration.conftest import SUPERVISOR, Floor, new_id
from tests.integration.test_gateway import accepted, opened, sign_in
from tests.integration.test_results_feed import assert_once_each, sources, wait_published
from tests.integration.test_settlement import (
    assert_settled_once,
    correct,
    ok,
    open_table,
    play,
    settlement_of,
    wait_completed,
    wait_for,
)

SUPERVISOR_2 = actor(Role.SUPERVISOR, "supervisor-2")
#: ann and bob on round 1: settled by 5-5-4, then corrected to 6-5-4.
SLIPS = [
    ("ann", [Wager(bet="single:5", stake=100), Wager(bet="total:15", stake=100)]),
    ("bob", [Wager(bet="single:6", stake=100)]),
]
#: single:5 paid 2 to 1 on two dice, now 1 to 1; total:15 now wins 18 to 1; single:6 wins.
DELTAS = {("ann", "single:5"): -100, ("ann", "total:15"): 1900, ("bob", "single:6"): 200}


async def three_rounds(floor: Floor, nc: NATS, store: EventStore, table: str) -> None:
    """Round 1 (SLIPS, 5-5-4) then rounds 2 and 3, each completed (paid)."""
    await play(floor, nc, table, 1, SLIPS, (5, 5, 4))
    await wait_completed(store, table, 1)
    for n, dice in ((2, (1, 2, 3)), (3, (6, 6, 6))):
        await play(floor, nc, table, n, [("ann", [Wager(bet="big", stake=100)])], dice)
        await wait_completed(store, table, n)


def deltas(adjusted: SettlementAdjusted) -> dict[tuple[str, str], int]:
    return {(a.player, a.before.bet): a.delta for a in adjusted.adjustments}


async def test_a_correction_of_round_1_after_round_3_is_adjusted_once_and_published(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "cca-1992")
    await three_rounds(floor, nc, store, table_id)
    await correct(floor, nc, table_id, 1, (6, 5, 4))  # manual mode in, correct, out
    corrected = await wait_for(
        store, round_filter(table_id, Aggregate.LIFECYCLE, 1), "result-corrected-v1"
    )
    racers = [Settler(store, nc, lambda: datetime.now(UTC)) for _ in range(3)]
    await asyncio.gather(*(r.on_event(corrected.subject, corrected.seq) for r in racers))
    await wait_for(store, round_filter(table_id, Aggregate.SETTLE, 1), "settle-adjusted-v1")
    got = await settlement_of(store, table_id, 1)
    assert_settled_once(got)
    (adjusted,) = got.adjustments
    assert (adjusted.before, adjusted.after, adjusted.correction_seq) == (
        (4, 5, 5),
        (4, 5, 6),
        corrected.seq,
    )
    assert deltas(adjusted) == DELTAS and adjusted.delta == 2000
    for later in (2, 3):  # the rounds played since are not touched
        assert (await settlement_of(store, table_id, later)).adjustments == []

    # GLI-19 §C.6.8(o): the correction lies inside a manual mode recorded on the table's log.
    modes = [e.subject.rsplit(".", 1)[1] for e in await store.read(table_level(table_id))]
    modes = [m for m in modes if "manual-mode" in m]
    assert modes == ["dice-manual-mode-entered-v1", "dice-manual-mode-left-v1"]
    entered, left = [
        e for e in await store.read(table_level(table_id)) if "manual-mode" in e.subject
    ]
    assert entered.seq < corrected.seq < left.seq

    # The public feed: round 1's correction after round 3's result, once (GLI-19 §C.6.4(d)).
    expected = await sources(store, table_id)
    got_feed = await wait_published(nc, table_id, len(expected))
    assert_once_each(got_feed, expected)
    last = got_feed[-1][1]
    assert (last.round, last.status, last.corrects, last.dice) == (
        1,
        ResultStatus.CORRECTION,
        (4, 5, 5),
        (4, 5, 6),
    )
    assert [(r.round, r.status) for _, r in got_feed[:-1]] == [
        (n, ResultStatus.RESULT) for n in (1, 2, 3)
    ]
    assert "total:15" in last.winning_bets


async def test_dual_control_a_correction_takes_effect_only_once_another_supervisor_approves(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "cca-1992", dual_control=True)
    await three_rounds(floor, nc, store, table_id)
    common = {"table": table_id, "actor": SUPERVISOR}
    await ok(floor, nc, EnterManualMode(command_id=new_id(), reason="camera", **common))
    await ok(
        floor,
        nc,
        CorrectResult(command_id=new_id(), round=1, dice=(6, 5, 4), reason="camera", **common),
    )
    proposal = await wait_for(
        store, round_filter(table_id, Aggregate.LIFECYCLE, 1), "correction-proposed-v1"
    )
    # the proposer cannot approve, nor leave manual mode while it waits
    same = ApproveCorrection(command_id=new_id(), round=1, dice=(4, 5, 6), **common)
    refused = await floor.send(nc, same)
    assert isinstance(refused, Rejected) and "another supervisor" in refused.reason
    leave = await floor.send(nc, LeaveManualMode(command_id=new_id(), **common))
    assert isinstance(leave, Rejected) and "waits for a second supervisor" in leave.reason
    second = {"table": table_id, "actor": SUPERVISOR_2}
    await ok(floor, nc, ApproveCorrection(command_id=new_id(), round=1, dice=(4, 5, 6), **second))
    await ok(floor, nc, LeaveManualMode(command_id=new_id(), **second))
    corrected = await wait_for(
        store, round_filter(table_id, Aggregate.LIFECYCLE, 1), "result-corrected-v1"
    )
    assert corrected.seq > proposal.seq
    await wait_for(store, round_filter(table_id, Aggregate.SETTLE, 1), "settle-adjusted-v1")
    got = await settlement_of(store, table_id, 1)
    (adjusted,) = got.adjustments  # the approval, not the proposal, is adjusted
    assert adjusted.correction_seq == corrected.seq and deltas(adjusted) == DELTAS
    # the feed publishes the correction once, never the proposal
    expected = await sources(store, table_id)
    published = await wait_published(nc, table_id, len(expected))
    assert_once_each(published, expected)
    assert [r.status for _, r in published].count(ResultStatus.CORRECTION) == 1


async def test_a_round_the_settlers_state_forgot_is_read_again_and_adjusted_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the settler in this process settles (no settlement service): it keeps one round
    before the newest (KEEP_ROUNDS=1), so round 1 is forgotten once round 3 is played; the
    correction of round 1 is adjusted from round 1's own events, once."""
    monkeypatch.setattr(settlement_decider, "KEEP_ROUNDS", 1)
    with LocalNatsServer(tmp_path / "nats") as server:
        nc = await nats.connect(server.url)
        procs: list[ServiceProcess] = []
        try:
            (await provision(nc)).raise_for_conflicts()
            for service in ("lifecycle", "dice", "wagers"):
                proc = ServiceProcess(service, server.url, log_path=tmp_path / f"{service}.log")
                procs.append(proc.start())
            for proc in procs:
                await proc.wait_ready()
            floor = Floor(server.url, {}, tmp_path)
            store = EventStore(nc, EVENT_STREAM)
            settler = Settler(store, nc, lambda: datetime.now(UTC))
            table = "forgot1"
            await open_table(floor, nc, table, "cca-1992")

            async def settled(n: int, slips: list[tuple[str, list[Wager]]], dice: Dice) -> None:
                await play(floor, nc, table, n, slips, dice)
                result = await wait_for(
                    store, round_filter(table, Aggregate.LIFECYCLE, n), "result-confirmed-v1"
                )
                await settler.on_event(result.subject, result.seq)  # settles and completes
                await wait_completed(store, table, n)

            await settled(1, SLIPS, (5, 5, 4))
            await settled(2, [("ann", [Wager(bet="big", stake=100)])], (1, 2, 3))
            await settled(3, [("ann", [Wager(bet="big", stake=100)])], (6, 6, 6))
            await correct(floor, nc, table, 1, (6, 5, 4))
            corrected = await wait_for(
                store, round_filter(table, Aggregate.LIFECYCLE, 1), "result-corrected-v1"
            )
            await settler.on_event(corrected.subject, corrected.seq)
            again = Settler(store, nc, lambda: datetime.now(UTC))  # a redelivery elsewhere
            await again.on_event(corrected.subject, corrected.seq)
            await settler.on_event(corrected.subject, corrected.seq)
            got = await settlement_of(store, table, 1)
            assert_settled_once(got)
            (adjusted,) = got.adjustments
            assert adjusted.correction_seq == corrected.seq and deltas(adjusted) == DELTAS
        finally:
            for proc in procs:
                proc.stop()
            await nc.close()


async def test_manual_mode_is_shown_to_the_tables_players_and_recorded_gli_19_c_6_8_o(
    web: httpx.AsyncClient, gateway: str, floor: Floor, nc: NATS, store: EventStore
) -> None:
    """The supervisor signed in at the gateway enters manual mode: the log records it under
    their id (the gateway stamps it), a player's view of the table shows it until it is left."""
    table = await opened(floor, nc)
    await sign_in(web, "sofia", "3333")
    async with browser(gateway) as player:
        assert (await player.post("/api/player", json={"player": "pat"})).status_code == 200
        assert (await player.get(f"/api/tables/{table}")).json()["manual_mode"] is None
        await accepted(web, table, {"type": "dice.enter-manual-mode.v1", "reason": "reader"})
        shown = (await player.get(f"/api/tables/{table}")).json()["manual_mode"]
        assert (shown["by"], shown["reason"]) == ("sofia", "reader")
        logged = await store.read(table_level(table))
        (entered,) = [json.loads(e.data) for e in logged if "manual-mode-entered" in e.subject]
        assert entered["actor"] == {"id": "sofia", "role": "supervisor"}
        assert shown["since"] == entered["at"]
        await accepted(web, table, {"type": "dice.leave-manual-mode.v1"})
        assert (await player.get(f"/api/tables/{table}")).json()["manual_mode"] is None
