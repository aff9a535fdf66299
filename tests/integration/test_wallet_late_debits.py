"""A debit appended after its round's money was squared is refunded once (issue 14 item 3;
:mod:`sicbo.settlement.late_debits`), against a real nats-server with the services as
processes: a wager service that decided a slip while betting was open, stalled, debited after
the round settled and crashed before storing the slip or refunding it. The debits are written
as wager intake writes them; settlement is SIGKILLed before the first and started again (the
durable consumer ``settlement-debits`` delivers it to the new process)."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from nats.aio.client import Client as NATS

from sicbo.accounts.entries import Slip, debit_stake
from sicbo.accounts.writer import AccountWriter
from sicbo.eventstore.store import EventStore
from sicbo.infra.processes import ServiceProcess
from sicbo.wagers.wallet import INTAKE
from sicbo_contracts.accounts import StakeDebited, StakeRefunded
from sicbo_contracts.subjects import ACCOUNT_STREAM, EVENT_STREAM
from tests.floor import throwaway_floor
from tests.integration.conftest import Floor
from tests.integration.test_replay_money import verify
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    ok,
    open_round,
    open_table,
    wait_completed,
)
from tests.integration.test_wallet import balance, entries, funded, slip_of

#: Seconds a refund may take to appear (a liveness bound, not a threshold measured).
WAIT = 60.0


async def late_debit(nc: NATS, player: str, table: str, round_no: int, slip_id: str) -> int:
    """A debit of 250 as intake writes it, for a slip never stored; its stream sequence."""
    key = f"debit:{table}:{round_no}:{slip_id}:v1"
    slip: Slip = {"table": table, "round": round_no, "slip_id": slip_id, "key": key}
    written = await AccountWriter(nc).write(
        player, lambda a: debit_stake(a, slip, 250, "EUR", INTAKE, datetime.now(UTC))
    )
    assert isinstance(written, StakeDebited)
    accounts = EventStore(nc, ACCOUNT_STREAM)
    return max(s.seq for s in await accounts.read(f"sicbo.acct.{player}.>"))


async def refunds_of(accounts: EventStore, player: str) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for e in await entries(accounts, player):
        if isinstance(e, StakeRefunded):
            found.setdefault(e.debit_key, []).append(e.amount)
    return found


async def until_refunded(accounts: EventStore, player: str, debit_key: str) -> None:
    deadline = time.monotonic() + WAIT
    while debit_key not in await refunds_of(accounts, player):
        if time.monotonic() > deadline:
            pytest.fail(f"{debit_key} not refunded within {WAIT} s")
        await asyncio.sleep(0.05)


async def until_consumed(nc: NATS, seq: int) -> None:
    """Until settlement has acked every debit up to stream sequence ``seq``."""
    js, deadline = nc.jetstream(), time.monotonic() + WAIT
    while True:
        info = await js.consumer_info(ACCOUNT_STREAM, "settlement-debits")
        if info.ack_floor.stream_seq >= seq:
            return
        if time.monotonic() > deadline:
            pytest.fail(f"settlement-debits did not ack sequence {seq} within {WAIT} s")
        await asyncio.sleep(0.05)


async def test_a_debit_after_its_round_settled_is_refunded_exactly_once(tmp_path: Path) -> None:
    async with throwaway_floor(tmp_path) as (floor, nc):
        await squares_late_debits(floor, nc, tmp_path)


async def squares_late_debits(floor: Floor, nc: NATS, tmp: Path) -> None:
    store, accounts = EventStore(nc, EVENT_STREAM), EventStore(nc, ACCOUNT_STREAM)
    table = "late-1"
    player = await funded(floor, nc, 1_000)
    await open_table(floor, nc, table, "cca-1992", currency="EUR")
    await open_round(floor, nc, table, 1)
    await ok(floor, nc, slip_of(table, 1, player, 100))  # big on 6-4-5: wins 1 to 1
    await close_and_uncover(floor, nc, table, 1)
    await confirm(floor, nc, table, 1, (6, 4, 5))
    await wait_completed(store, table, 1)
    assert await balance(accounts, player) == 1_100

    # Settlement SIGKILLed; the stalled intake's debit lands on the settled round meanwhile.
    settlement = floor.processes["settlement"]
    settlement[-1].kill()
    first = f"debit:{table}:1:stalled-1:v1"
    await late_debit(nc, player, table, 1, "stalled-1")
    assert await balance(accounts, player) == 850
    again = ServiceProcess("settlement", floor.nats_url, log_path=tmp / "settlement-2.log")
    settlement.append(again.start())
    await again.wait_ready(timeout=60)
    await until_refunded(accounts, player, first)
    assert await balance(accounts, player) == 1_100

    # A second late debit squares the round again: the first is not refunded a second time.
    second = f"debit:{table}:1:stalled-2:v1"
    await late_debit(nc, player, table, 1, "stalled-2")
    await until_refunded(accounts, player, second)
    assert await refunds_of(accounts, player) == {first: [250], second: [250]}
    assert await balance(accounts, player) == 1_100

    # A debit of a round still betting is left to the reconciler at its close (its slip could
    # still be stored): consumed, not refunded; refunded once when betting closes.
    await open_round(floor, nc, table, 2)
    open_key = f"debit:{table}:2:stalled-3:v1"
    await until_consumed(nc, await late_debit(nc, player, table, 2, "stalled-3"))
    assert open_key not in await refunds_of(accounts, player)
    await close_and_uncover(floor, nc, table, 2)
    await confirm(floor, nc, table, 2, (1, 2, 3))
    await wait_completed(store, table, 2)
    await until_refunded(accounts, player, open_key)
    refunds = await refunds_of(accounts, player)
    assert refunds == {first: [250], second: [250], open_key: [250]}
    assert await balance(accounts, player) == 1_100

    verified = verify(floor.nats_url)
    assert verified.returncode == 0, verified.stdout + verified.stderr
