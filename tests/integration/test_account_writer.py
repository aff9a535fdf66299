"""The account writer's kept fold (sicbo.accounts.writer): it decides on the account as it last
folded it, with no read, and the append's expectation catches every change made elsewhere
since; a decision that appends nothing is taken only on a fold caught up first. Two writers
stand for the two services (wager intake and settlement), the cashier for the operator."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from nats.aio.client import Client as NATS

from sicbo.accounts.entries import Slip, debit_stake
from sicbo.accounts.squaring import refund_excess
from sicbo.accounts.state import AccountState
from sicbo.accounts.writer import AccountWriter
from sicbo.decider import Refused
from sicbo.eventstore.store import EventStore
from sicbo_contracts.accounts import DepositFunds, StakeDebited, StakeRefunded
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.subjects import account_filter
from tests.integration.conftest import Floor, new_id
from tests.integration.test_settlement import ok
from tests.integration.test_wallet import CASHIER, accounts, balance, entries, funded

__all__ = ["accounts"]  # the fixture, imported for the tests below

INTAKE = Actor(id="wagers", role=Role.SERVICE)


def debit(table: str, slip_id: str, amount: int) -> Any:
    slip: Slip = {"table": table, "round": 1, "slip_id": slip_id, "key": f"debit:{slip_id}"}
    return lambda a: debit_stake(a, slip, amount, "EUR", INTAKE, datetime.now(UTC))


async def test_a_debit_decided_on_a_fold_another_writer_moved_is_decided_again(
    floor: Floor, nc: NATS, accounts: EventStore, table_id: str
) -> None:
    player = await funded(floor, nc, 1_000)
    mine, other = AccountWriter(nc), AccountWriter(nc)
    assert isinstance(await mine.write(player, debit(table_id, "a", 600)), StakeDebited)
    # Another writer spends from the account the first one keeps folded (balance 400 there).
    assert isinstance(await other.write(player, debit(table_id, "b", 300)), StakeDebited)
    # 300 fits the kept fold (400) but not the account (100): the append conflicts, the fold
    # catches up, and the debit is refused on the balance as it is.
    with pytest.raises(Refused, match="over the free balance of 100 EUR") as refused:
        await mine.write(player, debit(table_id, "c", 300))
    assert refused.value.field == "$.amount"
    es = await entries(accounts, player)
    assert [e.slip_id for e in es if isinstance(e, StakeDebited)] == ["a", "b"]
    assert await balance(accounts, player) == 100
    state, last = await mine.read(player)
    assert state.balance == 100
    assert last == (await accounts.read(account_filter(player)))[-1].seq


async def test_a_refusal_on_the_kept_fold_is_decided_again_on_the_account_caught_up(
    floor: Floor, nc: NATS, accounts: EventStore, table_id: str
) -> None:
    player = await funded(floor, nc, 500)
    writer = AccountWriter(nc)
    assert isinstance(await writer.write(player, debit(table_id, "a", 400)), StakeDebited)
    # The cashier deposits meanwhile: the kept fold still says 100.
    await ok(
        floor,
        nc,
        DepositFunds(command_id=new_id(), player=player, actor=CASHIER, amount=900, currency="EUR"),
    )
    assert isinstance(await writer.write(player, debit(table_id, "b", 800)), StakeDebited)
    assert await balance(accounts, player) == 200


async def test_nothing_due_on_the_kept_fold_is_checked_on_the_account_caught_up(
    floor: Floor, nc: NATS, accounts: EventStore, table_id: str
) -> None:
    """The reconciler's refund of a debit another process made after this writer last read
    the account: on the kept fold there is no debit, so nothing would be due."""
    player = await funded(floor, nc, 1_000)
    reconciler, intake = AccountWriter(nc), AccountWriter(nc)
    await reconciler.read(player)
    assert isinstance(await intake.write(player, debit(table_id, "lost", 250)), StakeDebited)

    def square(account: AccountState) -> Any:
        return refund_excess(
            account,
            table_id,
            "lost",
            0,
            tag="r1",
            reason="the slip was not stored",
            actor=INTAKE,
            at=datetime.now(UTC),
        )

    assert isinstance(await reconciler.write(player, square), StakeRefunded)
    assert await reconciler.write(player, square) is None  # square now: nothing more
    assert await balance(accounts, player) == 1_000
