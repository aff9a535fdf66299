"""The crash-gap reconciler reads the round's debits only (contracts 1.2.0): a game entry is
filed under its table's round (``sicbo.acct.<player>.<type>.<table>.<round>``), and the
reconciler at "no more bets" reads ``round_entries(StakeDebited, table, round)`` across every
account. Two tables' debits left without their slips: each is refunded when its own round
closes, never at another's."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import msgspec
from nats.aio.client import Client as NATS

from sicbo.accounts.entries import Slip, debit_stake
from sicbo.accounts.writer import AccountWriter
from sicbo.eventstore.store import EventStore
from sicbo_contracts.accounts import StakeDebited, StakeRefunded
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.subjects import account_filter, round_entries
from tests.integration.conftest import Floor
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    open_round,
    open_table,
    wait_completed,
)
from tests.integration.test_wallet import accounts, balance, funded

__all__ = ["accounts"]  # the fixture, for the test below

INTAKE = Actor(id="wagers", role=Role.SERVICE)
_refund = msgspec.json.Decoder(StakeRefunded)


async def lose_a_debit(nc: NATS, player: str, table: str, amount: int) -> str:
    """A debit whose slip is never stored (a crash between the two)."""
    key = f"debit:{table}:1:lost:v1"
    slip: Slip = {"table": table, "round": 1, "slip_id": "lost", "key": key}
    await AccountWriter(nc).write(
        player, lambda a: debit_stake(a, slip, amount, "EUR", INTAKE, datetime.now(UTC))
    )
    return key


async def test_each_tables_lost_debit_is_refunded_when_its_own_round_closes(
    floor: Floor, nc: NATS, store: EventStore, accounts: EventStore
) -> None:
    player = await funded(floor, nc, 1_000)
    one, two = (f"t{uuid.uuid4().hex[:10]}" for _ in range(2))
    for table in (one, two):
        await open_table(floor, nc, table, "cca-1992", currency="EUR")
        await open_round(floor, nc, table, 1)
    first = await lose_a_debit(nc, player, one, 200)
    second = await lose_a_debit(nc, player, two, 300)
    assert await balance(accounts, player) == 500
    [debit] = await accounts.read(round_entries(StakeDebited, one, 1))  # one round, one debit
    assert debit.subject.endswith(f".account-stake-debited-v1.{one}.1")

    async def refunded() -> dict[str, int]:
        found: dict[str, int] = {}
        for s in await accounts.read(account_filter(player)):
            if ".account-stake-refunded-v1." in s.subject:
                refund = _refund.decode(s.data)
                found[refund.debit_key] = refund.amount
        return found

    await close_and_uncover(floor, nc, one, 1)
    await confirm(floor, nc, one, 1, (6, 4, 5))
    await wait_completed(store, one, 1)
    assert await refunded() == {first: 200}  # the other table's debit is not this round's
    await close_and_uncover(floor, nc, two, 1)
    await confirm(floor, nc, two, 1, (6, 4, 5))
    await wait_completed(store, two, 1)
    assert await refunded() == {first: 200, second: 300}
    assert await balance(accounts, player) == 1_000
