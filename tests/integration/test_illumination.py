"""Illumination and equipment faults against a real nats-server: the illumination service (in the
session's floor) and layout controllers, each a separate process.

- a healthy controller: the layout is lit once per (round, result), whatever the replicas;
- every fault of the controller (silent, a dark lamp, an extra lamp, slow beyond the deadline)
  is recorded as an IlluminationFault; a slow answer within the deadline is not a fault;
- 000 §7.6-7.7: the wagers settle by the dice anyway, and the land table stops until an
  inspector clears the fault;
- 004 "Ralat Pengendalian": the online round is suspended; not fixed in time, the supervisor
  cancels it and settlement refunds every wager by a SettlementVoided; replay says MATCH.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest
from nats.aio.client import Client as NATS

from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.illumination.illuminator import Illuminator
from sicbo.illumination.lamps import winning_spots
from sicbo.illumination.processes import LayoutControllerProcess
from sicbo.replay.report import MATCH, round_report
from sicbo.shell.codec import encode
from sicbo_contracts.base import Dice
from sicbo_contracts.dice import ResultConfirmed
from sicbo_contracts.illumination import IlluminationEvent, IlluminationFault, LayoutIlluminated
from sicbo_contracts.lifecycle import (
    CancelRound,
    ClearFault,
    OpenTable,
    RoundStarted,
    StartRound,
    TableConfig,
    TableOpened,
    TableSuspended,
)
from sicbo_contracts.replies import Rejected
from sicbo_contracts.settlement import SettlementVoided, WagerOutcome
from sicbo_contracts.subjects import Aggregate, aggregate_filter, round_filter, subject_of
from sicbo_contracts.wagers import IssuePromoToken, Medium, Wager
from tests.integration.conftest import (
    DEALER,
    INSPECTOR,
    LIMITS,
    OPERATOR,
    SUPERVISOR,
    Floor,
    new_id,
)
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    correct,
    ok,
    open_round,
    place,
    settlement_of,
    wait_completed,
    wait_for,
)

#: Big wins on it, and no triple: ``dark:big`` leaves a winning area dark, ``extra:any-triple``
#: lights one that did not win.
DICE: Dice = (4, 5, 6)
#: Every winning area of DICE: what a layout that never reported left unconfirmed.
ALL = winning_spots("cca-1992@v1", DICE)
_verdict = msgspec.json.Decoder(IlluminationEvent)
_suspended = msgspec.json.Decoder(TableSuspended)


@contextlib.asynccontextmanager
async def controller(
    floor: Floor, table: str, tmp_path: Path, fault: str = "none", every: int = 1
) -> AsyncIterator[LayoutControllerProcess]:
    """The table's layout controller as its own process, stopped by its PID afterwards."""
    name = fault.replace(":", "-").replace(".", "_")
    proc = LayoutControllerProcess(
        table,
        floor.nats_url,
        fault=fault,
        fault_every=every,
        log_path=tmp_path / f"layout-{table}-{name}.log",
    ).start()
    try:
        await proc.wait_ready()
        yield proc
    finally:
        proc.stop()


async def open_lit_table(
    floor: Floor, nc: NATS, table: str, profile: str = "cca-1992", grace: int = 120
) -> None:
    countdown = 600 if profile == "online-live" else None  # the dealer closes betting first
    config = TableConfig(
        profile=profile,
        limits=LIMITS,
        betting_seconds=countdown,
        fault_grace_seconds=grace,
        layout_controller=True,
    )
    await ok(floor, nc, OpenTable(command_id=new_id(), table=table, actor=OPERATOR, config=config))


async def play_round(floor: Floor, nc: NATS, table: str, n: int, dice: Dice = DICE) -> None:
    await open_round(floor, nc, table, n)
    await place(floor, nc, table, n, "ann", [Wager(bet="big", stake=200)])
    token = new_id("token")  # 000 §1.1: the operator issues bob one free wager
    issue = IssuePromoToken(
        command_id=new_id(), table=table, actor=OPERATOR, token=token, player="bob", amount=100
    )
    await ok(floor, nc, issue)
    free = Wager(bet="small", stake=100, medium=Medium.PROMO, token=token)
    await place(floor, nc, table, n, "bob", [Wager(bet="total:15", stake=100), free])
    await close_and_uncover(floor, nc, table, n)
    await confirm(floor, nc, table, n, dice)


async def verdicts(store: EventStore, table: str, n: int) -> list[tuple[StoredEvent, object]]:
    return [(e, _verdict.decode(e.data)) for e in await store.read(lamp_filter(table, n))]


def lamp_filter(table: str, n: int) -> str:
    return round_filter(table, Aggregate.LAMP, n)


async def verdict_of(store: EventStore, table: str, n: int, seconds: float = 20) -> object:
    stored = await wait_for(store, lamp_filter(table, n), "-v1", seconds=seconds)
    return _verdict.decode(stored.data)


async def suspension_of(store: EventStore, table: str) -> tuple[StoredEvent, TableSuspended]:
    stored = await wait_for(
        store, aggregate_filter(table, Aggregate.LIFECYCLE), "table-suspended-v1", seconds=20
    )
    return stored, _suspended.decode(stored.data)


async def result_seq(store: EventStore, table: str, n: int, suffix: str) -> StoredEvent:
    return await wait_for(store, round_filter(table, Aggregate.LIFECYCLE, n), suffix)


# ---- a healthy layout -------------------------------------------------------------------------


async def test_a_correct_controller_lights_each_result_exactly_once(
    floor: Floor, nc: NATS, store: EventStore, table_id: str, tmp_path: Path
) -> None:
    async with controller(floor, table_id, tmp_path):
        await open_lit_table(floor, nc, table_id)
        rolls: list[Dice] = [(1, 2, 3), (4, 5, 6), (3, 3, 3)]
        for n, dice in enumerate(rolls, start=1):
            await play_round(floor, nc, table_id, n, dice)
            await wait_completed(store, table_id, n)
            assert isinstance(await verdict_of(store, table_id, n), LayoutIlluminated)
        await correct(floor, nc, table_id, 3, (3, 3, 4))  # a correction is lit too
        corrected = await result_seq(store, table_id, 3, "result-corrected-v1")
        for _ in range(200):
            if len(await verdicts(store, table_id, 3)) == 2:
                break
            await asyncio.sleep(0.05)
        # Other illuminators racing on the same results find the verdicts and add nothing.
        racers = [Illuminator(store, nc, lambda: datetime.now(UTC)) for _ in range(3)]
        for n in (1, 2, 3):
            confirmed = await result_seq(store, table_id, n, "result-confirmed-v1")
            got = await asyncio.gather(
                *(r.on_event(confirmed.subject, confirmed.seq, confirmed.data) for r in racers)
            )
            assert all(isinstance(v, LayoutIlluminated) for v in got)
        await asyncio.sleep(0.5)
    for n, dice in enumerate(rolls, start=1):
        confirmed = await result_seq(store, table_id, n, "result-confirmed-v1")
        stored = await verdicts(store, table_id, n)
        sources = [(v.source_seq, tuple(v.dice)) for _, v in stored]  # type: ignore[attr-defined]
        if n < 3:
            assert sources == [(confirmed.seq, tuple(sorted(dice)))]
        else:
            assert sources == [(confirmed.seq, (3, 3, 3)), (corrected.seq, (3, 3, 4))]
        for e, v in stored:
            assert isinstance(v, LayoutIlluminated)
            assert v.spots == winning_spots("cca-1992@v1", v.dice)
            assert e.headers["Nats-Msg-Id"] == f"lamp-{table_id}-{n}-{v.source_seq}"
            assert v.actor.id == "illumination"
    lifecycle = await store.read(aggregate_filter(table_id, Aggregate.LIFECYCLE))
    assert not any(e.subject.endswith("table-suspended-v1") for e in lifecycle)


# ---- every fault of the controller ------------------------------------------------------------


@pytest.mark.parametrize(
    ("fault", "missing", "extra", "timed_out"),
    [
        ("silent", ALL, [], True),
        ("dark:big", ["big"], [], False),
        ("extra:any-triple", [], ["any-triple"], False),
        ("slow:4", ALL, [], True),
        ("slow:0.3", None, None, None),  # within the 2 s deadline: lit, no fault
    ],
    ids=["silent", "dark", "extra", "slow-beyond", "slow-within"],
)
async def test_every_fault_of_the_controller(
    floor: Floor,
    nc: NATS,
    store: EventStore,
    table_id: str,
    tmp_path: Path,
    fault: str,
    missing: list[str] | None,
    extra: list[str] | None,
    timed_out: bool | None,
) -> None:
    async with controller(floor, table_id, tmp_path, fault):
        await open_lit_table(floor, nc, table_id)
        await play_round(floor, nc, table_id, 1)
        verdict = await verdict_of(store, table_id, 1)
    confirmed = await result_seq(store, table_id, 1, "result-confirmed-v1")
    if missing is None:
        assert isinstance(verdict, LayoutIlluminated)
        return
    assert isinstance(verdict, IlluminationFault), verdict
    assert verdict.expected == winning_spots("cca-1992@v1", DICE)
    assert (verdict.missing, verdict.extra, verdict.timed_out) == (missing, extra, timed_out)
    assert verdict.source_seq == confirmed.seq and verdict.detail
    # 000 §7.7: the lifecycle was told; the table is suspended for the inspector.
    stored, suspended = await suspension_of(store, table_id)
    assert (suspended.equipment, suspended.round, suspended.policy) == (
        "layout-lamps",
        1,
        "suspend-table",
    )
    assert suspended.actor.id == "illumination" and suspended.actor.role.value == "service"
    assert stored.headers["Sicbo-Command-Id"] == f"lamp-{table_id}-1-{confirmed.seq}"


# ---- 000 §7.6-7.7: land table ----------------------------------------------------------------


async def test_a_fault_stops_the_land_table_until_an_inspector_clears_it_000_7_7(
    floor: Floor, nc: NATS, store: EventStore, table_id: str, tmp_path: Path
) -> None:
    async with controller(floor, table_id, tmp_path, "dark:big"):
        await open_lit_table(floor, nc, table_id)
        await play_round(floor, nc, table_id, 1)
        fault = await verdict_of(store, table_id, 1)
        assert isinstance(fault, IlluminationFault) and fault.missing == ["big"]
        await suspension_of(store, table_id)
        # 000 §7.6: settled by the dice all the same (big paid), and the round completed.
        await wait_completed(store, table_id, 1)
        paid = await settlement_of(store, table_id, 1)
        assert len(paid.summaries) == 1 and paid.summaries[0].dice == DICE
        assert [(r.bet, r.outcome, r.returned) for r in paid.results] == [
            ("big", WagerOutcome.WIN, 400),
            ("total:15", WagerOutcome.WIN, 100 + 18 * 100),
            ("small", WagerOutcome.LOSE, 0),
        ]
        # 000 §7.7: no further play until the fault is rectified, by an inspector only.
        start = StartRound(command_id=new_id(), table=table_id, actor=DEALER, round=2, tumbles=3)
        refused = await floor.send(nc, start)
        assert isinstance(refused, Rejected) and refused.code == "refused"
        assert "suspended" in refused.reason and "000 §7.7" in refused.reason
        by_dealer = await floor.send(
            nc, ClearFault(command_id=new_id(), table=table_id, actor=DEALER, detail="fixed")
        )
        assert isinstance(by_dealer, Rejected) and by_dealer.code == "forbidden"
        await ok(
            floor,
            nc,
            ClearFault(
                command_id=new_id(), table=table_id, actor=INSPECTOR, detail="lamp replaced"
            ),
        )
        await ok(floor, nc, start)  # the same command, now accepted: play resumes


# ---- 004 "Ralat Pengendalian": online table --------------------------------------------------


async def test_an_online_round_not_fixed_in_time_is_cancelled_and_refunded_004(
    floor: Floor, nc: NATS, store: EventStore, table_id: str, tmp_path: Path
) -> None:
    grace = 3
    async with controller(floor, table_id, tmp_path, "dark:big"):
        await open_lit_table(floor, nc, table_id, "online-live", grace=grace)
        await play_round(floor, nc, table_id, 1)
        await wait_completed(store, table_id, 1)  # settled by the dice at once (000 §7.6)
        _, suspended = await suspension_of(store, table_id)
        assert (suspended.policy, suspended.round) == ("suspend-round", 1)
        cancel = CancelRound(
            command_id=new_id(), table=table_id, actor=SUPERVISOR, round=1, reason="lamps dead"
        )
        # "If the problem can be solved quickly, the round resumes": not cancelled yet.
        early = await floor.send(nc, cancel)
        assert isinstance(early, Rejected) and f"allows {grace} s" in early.reason
        wait = (suspended.at.timestamp() + grace) - datetime.now(UTC).timestamp()
        await asyncio.sleep(max(0.0, wait) + 0.2)
        await ok(floor, nc, msgspec.structs.replace(cancel, command_id=new_id()))
        cancelled = await result_seq(store, table_id, 1, "round-cancelled-v1")
        voided = await wait_for(store, round_filter(table_id, Aggregate.SETTLE, 1), "voided-v1")
        assert voided.headers["Nats-Msg-Id"] == f"void-{table_id}-1"
        await asyncio.sleep(0.5)  # a redelivery would have voided again by now
        got = await settlement_of(store, table_id, 1)
        voids = [
            msgspec.json.decode(e.data, type=SettlementVoided)
            for e in got.stored
            if e.subject.endswith("settle-voided-v1")
        ]
        assert len(got.summaries) == 1 and len(voids) == 1
        [void] = voids
        assert void.cancel_seq == cancelled.seq and void.reason == "lamps dead"
        refunds = {(a.before.bet, a.after.outcome, a.after.returned) for a in void.adjustments}
        assert refunds == {
            ("big", WagerOutcome.VOID, 200),
            ("total:15", WagerOutcome.VOID, 100),
            ("small", WagerOutcome.VOID, 100),  # the token comes back (000 §1.1)
        }
        paid = sum(r.returned for r in got.results) + void.delta
        assert paid == got.summaries[0].staked == 400
        # Replay accounts for the void: MATCH, from the log alone, and by the CLI.
        report = round_report(await store.read(f"sicbo.evt.{table_id}.>"), table_id, 1)
        assert report.status == MATCH, report.problems
        assert report.voided_by == cancelled.seq and report.returned == 400
        assert report.pending_corrections == []
        argv = [sys.executable, "-m", "sicbo.cli.main", "replay", "round", table_id, "1"]
        cli = await asyncio.to_thread(
            subprocess.run,
            [*argv, "--json", "--nats", floor.nats_url],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert cli.returncode == 0, cli.stderr
        assert json.loads(cli.stdout)["status"] == MATCH
        # The inspector fixes the lamps; the table plays on.
        await ok(
            floor,
            nc,
            ClearFault(command_id=new_id(), table=table_id, actor=INSPECTOR, detail="fixed"),
        )
        await ok(
            floor,
            nc,
            StartRound(command_id=new_id(), table=table_id, actor=DEALER, round=2, tumbles=3),
        )


async def test_a_table_without_a_layout_controller_is_not_lit_002_2004_art_3_2(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """``TableConfig.layout_controller`` off (the default) where the rules make the lamps
    optional (002/2004 art. 3(2) 可): no lamps to check, no fault. Where they say the layout
    shall be lit (000 §2.3) such a table does not open."""
    land = TableConfig(profile="cca-1992", limits=LIMITS)
    refused = await floor.send(
        nc, OpenTable(command_id=new_id(), table=table_id, actor=OPERATOR, config=land)
    )
    assert isinstance(refused, Rejected) and "config.layout_controller" in refused.reason
    assert "000 §2.3" in refused.reason
    config = TableConfig(profile="macau-2004", limits=LIMITS)
    await ok(
        floor, nc, OpenTable(command_id=new_id(), table=table_id, actor=OPERATOR, config=config)
    )
    await play_round(floor, nc, table_id, 1)
    await wait_completed(store, table_id, 1)
    await asyncio.sleep(1.0)
    assert await verdicts(store, table_id, 1) == []
    await ok(
        floor,
        nc,
        StartRound(command_id=new_id(), table=table_id, actor=DEALER, round=2, tumbles=3),
    )


async def test_a_result_whose_round_is_over_is_not_lit_any_more(
    nc: NATS, store: EventStore, floor: Floor, table_id: str
) -> None:
    """Caught up after an outage, the service does not light an old result over a later round
    (nor report a fault for it). The log is written directly, in one atomic batch."""
    at = datetime.now(UTC)
    who = {"table": table_id, "actor": DEALER, "at": at}
    config = TableConfig(profile="cca-1992", limits=LIMITS, layout_controller=True)
    events = [
        TableOpened(**who, config=config, paytable="cca-1992@v1"),
        RoundStarted(**who, round=1, tumbles=3, paytable="cca-1992@v1"),
        ResultConfirmed(**who, round=1, dice=DICE, total=15, entered_by="dealer-1"),
        RoundStarted(**who, round=2, tumbles=3, paytable="cca-1992@v1"),
    ]
    appended = await store.append_batch(
        [(subject_of(e, Aggregate.LIFECYCLE), encode(e)) for e in events]
    )
    confirmed = await store.get(appended[2].seq)
    assert confirmed is not None
    illuminator = Illuminator(store, nc, lambda: datetime.now(UTC))
    assert await illuminator.on_event(confirmed.subject, confirmed.seq, confirmed.data) is None
    await asyncio.sleep(1.0)  # the floor's illumination service saw it too
    assert await verdicts(store, table_id, 1) == []
    lifecycle = await store.read(aggregate_filter(table_id, Aggregate.LIFECYCLE))
    assert len(lifecycle) == 4
