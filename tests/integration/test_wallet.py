"""Money moves with the game, exactly once (issue 14 item 3), against a real nats-server with
the services as processes: wager intake debits a slip's stakes from the player's account before
storing it, settlement pays the returns into it; a refused slip leaves no net debit; racing
slips never spend the same funds; a debit whose slip was never stored is refunded when betting
closes; a void is refunded once, a correction moves the difference; a second pay is a
duplicate that appends nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import random
import uuid
from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest
from nats.aio.client import Client as NATS

from sicbo.accounts.entries import Slip, debit_stake
from sicbo.accounts.writer import AccountWriter
from sicbo.demo.client import FloorClient
from sicbo.demo.players import SimulatedPlayers
from sicbo.demo.tables import DEMO_FUNDS, DEMO_TABLES
from sicbo.demo.wallets import open_demo_accounts
from sicbo.eventstore.store import EventStore
from sicbo.provisioning import ProvisionReport
from sicbo.settlement.money import RoundMoney
from sicbo.shell.commands import CommandHandler
from sicbo.wagers.service import SPEC
from sicbo.wagers.stakes import move_of
from sicbo.wagers.wallet import StakeWallet
from sicbo_contracts.accounts import (
    AccountEvent,
    BalanceAdjusted,
    DepositFunds,
    OpenAccount,
    ReturnCredited,
    StakeDebited,
    StakeRefunded,
    WithdrawFunds,
)
from sicbo_contracts.base import Actor, Event, Role
from sicbo_contracts.lifecycle import CloseBetting
from sicbo_contracts.replies import Accepted, Rejected
from sicbo_contracts.settlement import WagerOutcome, WagersSettled
from sicbo_contracts.subjects import ACCOUNT_STREAM, Aggregate, account_filter, round_filter
from sicbo_contracts.wagers import PlaceSlip, Wager, WagerEvent, WithdrawSlip
from tests.integration.conftest import DEALER, Floor, new_id
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    correct,
    no_result,
    ok,
    open_round,
    open_table,
    wait_completed,
)

CASHIER = Actor(id="cashier-1", role=Role.OPERATOR)
SETTLER = Actor(id="settlement", role=Role.SERVICE)
_entry = msgspec.json.Decoder(AccountEvent)
_results = msgspec.json.Decoder(WagersSettled)
_bets: msgspec.json.Decoder[WagerEvent] = msgspec.json.Decoder(WagerEvent)


@pytest.fixture
def accounts(nc: NATS, provisioned: ProvisionReport) -> EventStore:
    return EventStore(nc, ACCOUNT_STREAM)


async def funded(floor: Floor, nc: NATS, amount: int, currency: str = "EUR") -> str:
    player = f"p-{uuid.uuid4().hex[:10]}"
    await ok(
        floor, nc, OpenAccount(command_id=new_id(), player=player, actor=CASHIER, currency=currency)
    )
    await ok(
        floor,
        nc,
        DepositFunds(
            command_id=new_id(), player=player, actor=CASHIER, amount=amount, currency=currency
        ),
    )
    return player


async def entries(accounts: EventStore, player: str) -> list[Any]:
    return [_entry.decode(s.data) for s in await accounts.read(account_filter(player))]


async def balance(accounts: EventStore, player: str) -> int:
    return int((await entries(accounts, player))[-1].balance)


def slip_of(table: str, n: int, player: str, *stakes: int) -> PlaceSlip:
    return PlaceSlip(
        command_id=new_id("slip"),
        table=table,
        round=n,
        player=player,
        actor=Actor(id=player, role=Role.PLAYER),
        wagers=[Wager(bet="big", stake=s) for s in stakes],
    )


def net_debit(es: list[Any]) -> int:
    return sum(e.amount for e in es if isinstance(e, StakeDebited)) - sum(
        e.amount for e in es if isinstance(e, StakeRefunded)
    )


async def test_stakes_are_debited_and_each_return_credited_once(
    floor: Floor, nc: NATS, store: EventStore, accounts: EventStore, table_id: str
) -> None:
    player = await funded(floor, nc, 1_000)
    await open_table(floor, nc, table_id, "cca-1992", currency="EUR")
    await open_round(floor, nc, table_id, 1)
    won = await ok(floor, nc, slip_of(table_id, 1, player, 200, 100))
    assert await balance(accounts, player) == 700
    # Over the balance: refused naming the wagers, nothing appended to either log.
    before_acct = await entries(accounts, player)
    before_bets = await store.read(round_filter(table_id, Aggregate.BETS, 1))
    over = await floor.send(nc, slip_of(table_id, 1, player, 800))
    assert isinstance(over, Rejected) and over.field == "$.wagers", over
    assert "balance of 700" in over.reason
    assert await entries(accounts, player) == before_acct
    assert await store.read(round_filter(table_id, Aggregate.BETS, 1)) == before_bets
    # A withdrawn slip is refunded.
    gone = slip_of(table_id, 1, player, 300)
    await ok(floor, nc, gone)
    assert await balance(accounts, player) == 400
    await ok(
        floor,
        nc,
        WithdrawSlip(
            command_id=new_id(),
            table=table_id,
            round=1,
            player=player,
            slip_id=gone.command_id,
            actor=gone.actor,
        ),
    )
    assert await balance(accounts, player) == 700
    await close_and_uncover(floor, nc, table_id, 1)
    await confirm(floor, nc, table_id, 1, (6, 4, 5))  # big wins: 1 to 1
    await wait_completed(store, table_id, 1)
    es = await entries(accounts, player)
    credits = [e for e in es if isinstance(e, ReturnCredited)]
    assert sorted((c.slip_id, c.amount) for c in credits) == [
        (won.command_id, 200),
        (won.command_id, 400),
    ]
    assert await balance(accounts, player) == 1_000 - 300 + 600
    # 004 "winnings will be paid to the player": once. A redelivered pay appends nothing.
    again = RoundMoney(store, nc, SETTLER, lambda: datetime.now(UTC))
    assert await again.pay(table_id, 1) == 0
    assert await entries(accounts, player) == es
    assert len({e.key for e in es if hasattr(e, "key")}) == sum(hasattr(e, "key") for e in es)


async def test_a_withdrawal_cannot_take_the_stakes_of_an_open_round(
    floor: Floor, nc: NATS, store: EventStore, accounts: EventStore, table_id: str
) -> None:
    player = await funded(floor, nc, 1_000)
    await open_table(floor, nc, table_id, "cca-1992", currency="EUR")
    await open_round(floor, nc, table_id, 1)
    await ok(floor, nc, slip_of(table_id, 1, player, 600))

    def withdraw(amount: int) -> WithdrawFunds:
        return WithdrawFunds(
            command_id=new_id(), player=player, actor=CASHIER, amount=amount, currency="EUR"
        )

    # The stake left the balance when the slip was taken: only the other 400 are free.
    before = await entries(accounts, player)
    over = await floor.send(nc, withdraw(401))
    assert isinstance(over, Rejected) and over.field == "$.amount", over
    assert await entries(accounts, player) == before
    await ok(floor, nc, withdraw(400))
    assert await balance(accounts, player) == 0
    # The round still pays what the stake won: big wins 1 to 1.
    await close_and_uncover(floor, nc, table_id, 1)
    await confirm(floor, nc, table_id, 1, (6, 4, 5))
    await wait_completed(store, table_id, 1)
    assert await balance(accounts, player) == 1_200


async def test_a_table_of_another_currency_is_refused_naming_the_player(
    floor: Floor, nc: NATS, accounts: EventStore, table_id: str
) -> None:
    player = await funded(floor, nc, 1_000)
    await open_table(floor, nc, table_id, "cca-1992", currency="USD")
    await open_round(floor, nc, table_id, 1)
    refused = await floor.send(nc, slip_of(table_id, 1, player, 200))
    assert isinstance(refused, Rejected) and refused.field == "$.player", refused
    assert "USD" in refused.reason and "EUR" in refused.reason
    assert await balance(accounts, player) == 1_000


async def test_a_player_without_an_account_is_refused_at_a_table_with_a_currency(
    floor: Floor, nc: NATS, store: EventStore, accounts: EventStore, table_id: str
) -> None:
    """Online the money is the account's: a slip of a player who has none is refused, naming
    the player and the currency, and neither log gets anything."""
    player = f"p-{uuid.uuid4().hex[:10]}"
    await open_table(floor, nc, table_id, "cca-1992", currency="EUR")
    await open_round(floor, nc, table_id, 1)
    bets_before = await store.read(round_filter(table_id, Aggregate.BETS, 1))
    refused = await floor.send(nc, slip_of(table_id, 1, player, 200))
    assert isinstance(refused, Rejected) and refused.field == "$.player", refused
    assert refused.reason.startswith(f"no account in EUR for player {player!r}"), refused
    assert await entries(accounts, player) == []
    assert await store.read(round_filter(table_id, Aggregate.BETS, 1)) == bets_before


async def test_at_a_table_that_states_no_currency_a_player_with_an_account_bets_chips(
    floor: Floor, nc: NATS, accounts: EventStore, table_id: str
) -> None:
    """A land table's chips: its slips touch no account, whoever places them."""
    player = await funded(floor, nc, 1_000)
    before = await entries(accounts, player)
    await open_table(floor, nc, table_id, "cca-1992")
    await open_round(floor, nc, table_id, 1)
    accepted = await floor.send(nc, slip_of(table_id, 1, player, 200))
    assert not isinstance(accepted, Rejected), accepted
    assert await entries(accounts, player) == before
    assert await balance(accounts, player) == 1_000


async def test_racing_slips_on_two_tables_never_spend_more_than_the_funds(
    floor: Floor, nc: NATS, accounts: EventStore, table_id: str
) -> None:
    player = await funded(floor, nc, 1_000)
    tables = [table_id, f"{table_id}b"]
    for t in tables:
        await open_table(floor, nc, t, "cca-1992", currency="EUR")
        await open_round(floor, nc, t, 1)
    slips = [slip_of(tables[i % 2], 1, player, 150) for i in range(16)]
    replies = await asyncio.gather(*(floor.send(nc, s) for s in slips))
    accepted = [r for r in replies if isinstance(r, Accepted)]
    refused = Counter(r.field for r in replies if isinstance(r, Rejected))
    assert len(accepted) == 6, replies  # 6 x 150 = 900 of 1000; a 7th is over the balance
    assert refused == {"$.wagers": 10}, replies
    es = await entries(accounts, player)
    assert net_debit(es) == 150 * len(accepted) == 1_000 - await balance(accounts, player)
    debited = {e.slip_id for e in es if isinstance(e, StakeDebited)}
    refunded = {e.slip_id for e in es if isinstance(e, StakeRefunded)}
    assert debited - refunded == {r.command_id for r in accepted}


async def test_a_debit_without_its_slip_is_refunded_when_betting_closes(
    floor: Floor, nc: NATS, store: EventStore, accounts: EventStore, table_id: str
) -> None:
    """A crash between the debit and the slip: the debit is stored, the slip never is."""
    player = await funded(floor, nc, 1_000)
    await open_table(floor, nc, table_id, "cca-1992", currency="EUR")
    await open_round(floor, nc, table_id, 1)
    key = f"debit:{table_id}:1:lost-slip:v1"
    slip: Slip = {"table": table_id, "round": 1, "slip_id": "lost-slip", "key": key}
    writer = AccountWriter(nc)
    intake = Actor(id="wagers", role=Role.SERVICE)
    await writer.write(
        player, lambda a: debit_stake(a, slip, 250, "EUR", intake, datetime.now(UTC))
    )
    assert await balance(accounts, player) == 750
    await close_and_uncover(floor, nc, table_id, 1)
    await confirm(floor, nc, table_id, 1, (6, 4, 5))
    await wait_completed(store, table_id, 1)
    es = await entries(accounts, player)
    refunds = [e for e in es if isinstance(e, StakeRefunded)]
    assert [(r.debit_key, r.key, r.amount) for r in refunds] == [(key, f"refund:{key}", 250)]
    assert await balance(accounts, player) == 1_000
    assert not any(isinstance(e, ReturnCredited) for e in es)


async def test_a_void_round_refunds_each_stake_once(
    floor: Floor, nc: NATS, store: EventStore, accounts: EventStore, table_id: str
) -> None:
    player = await funded(floor, nc, 1_000)
    await open_table(floor, nc, table_id, "cca-1992", currency="EUR")
    await open_round(floor, nc, table_id, 1)
    await ok(floor, nc, slip_of(table_id, 1, player, 200))
    await close_and_uncover(floor, nc, table_id, 1)
    await no_result(floor, nc, table_id, 1)  # 000 §7.5: all wagers void
    await wait_completed(store, table_id, 1)
    results = [
        r
        for s in await store.read(round_filter(table_id, Aggregate.SETTLE, 1))
        if s.subject.endswith("wagers-settled-v1")
        for r in _results.decode(s.data).wagers
    ]
    assert [r.outcome for r in results] == [WagerOutcome.VOID]
    es = await entries(accounts, player)
    assert [(type(e).__name__, e.amount) for e in es if isinstance(e, StakeRefunded)] == [
        ("StakeRefunded", 200)
    ]
    assert await balance(accounts, player) == 1_000
    assert await RoundMoney(store, nc, SETTLER, lambda: datetime.now(UTC)).pay(table_id, 1) == 0


async def test_a_correction_moves_only_the_difference(
    floor: Floor, nc: NATS, store: EventStore, accounts: EventStore, table_id: str
) -> None:
    player = await funded(floor, nc, 1_000)
    await open_table(floor, nc, table_id, "cca-1992", currency="EUR")
    await open_round(floor, nc, table_id, 1)
    await ok(
        floor,
        nc,
        PlaceSlip(
            command_id=new_id("slip"),
            table=table_id,
            round=1,
            player=player,
            actor=Actor(id=player, role=Role.PLAYER),
            wagers=[Wager(bet="single:5", stake=100), Wager(bet="total:15", stake=100)],
        ),
    )
    await close_and_uncover(floor, nc, table_id, 1)
    await confirm(floor, nc, table_id, 1, (5, 5, 4))  # single:5 on two dice: 2 to 1
    await wait_completed(store, table_id, 1)
    assert await balance(accounts, player) == 1_000 - 200 + 300
    await correct(floor, nc, table_id, 1, (6, 5, 4))  # single:5 1 to 1, total:15 18 to 1
    for _ in range(200):
        adjustments = [e for e in await entries(accounts, player) if isinstance(e, BalanceAdjusted)]
        if len(adjustments) == 2:
            break
        await asyncio.sleep(0.05)
    assert sorted(a.delta for a in adjustments) == [-100, 1_900]
    assert all(a.owed == 0 for a in adjustments)
    assert await balance(accounts, player) == 1_000 - 200 + 300 - 100 + 1_900


async def test_a_slip_refused_after_its_debit_leaves_no_net_debit(
    floor: Floor, nc: NATS, store: EventStore, accounts: EventStore, table_id: str
) -> None:
    """The dealer calls "no more bets" between the decision and the append: the slip is
    debited, its append refused by the server, decided again on the closed round and refused;
    the debit is refunded at once (000 §3.9: no wager after "no more bets")."""
    player = await funded(floor, nc, 1_000)
    await open_table(floor, nc, table_id, "cca-1992", currency="EUR")
    await open_round(floor, nc, table_id, 1)
    calls: list[int] = []

    async def dealer_calls_no_more_bets(events: Sequence[Event]) -> None:
        calls.append(len(events))
        if len(calls) == 1:
            await ok(
                floor, nc, CloseBetting(command_id=new_id(), table=table_id, actor=DEALER, round=1)
            )

    handler: CommandHandler[Any] = CommandHandler(
        SPEC,
        store,
        lambda: datetime.now(UTC),
        before_append=dealer_calls_no_more_bets,
        escrow=StakeWallet(AccountWriter(nc)),
    )
    late = slip_of(table_id, 1, player, 300)
    reply = await handler.handle(msgspec.json.encode(late), table_id, "player")
    assert isinstance(reply, Rejected) and "betting is closed" in reply.reason, reply
    es = await entries(accounts, player)
    debits = [e for e in es if isinstance(e, StakeDebited)]
    refunds = [e for e in es if isinstance(e, StakeRefunded)]
    assert [(d.slip_id, d.amount) for d in debits] == [(late.command_id, 300)]
    assert [(r.debit_key, r.amount) for r in refunds] == [(debits[0].key, 300)]
    assert net_debit(es) == 0 and await balance(accounts, player) == 1_000


async def test_the_demo_online_players_bet_from_accounts_with_demo_funds(
    floor: Floor, nc: NATS, store: EventStore, accounts: EventStore, table_id: str
) -> None:
    """``make run``'s online table (issue 14 item 5): its simulated players' accounts are
    opened and funded once (fixed command ids: a restarted floor deposits nothing more), and
    every chip they stake is debited from them."""
    client = FloorClient(nc)
    assert await open_demo_accounts(client) == []
    assert await open_demo_accounts(client) == []
    online = next(t for t in DEMO_TABLES if t.config.currency is not None)
    await open_table(floor, nc, table_id, "online-live", currency=online.config.currency)
    await open_round(floor, nc, table_id, 1)
    demo = dataclasses.replace(online, table=table_id)
    await SimulatedPlayers(client, demo, random.Random(7)).place_slips(1, "online-live@v1")
    staked: Counter[str] = Counter()
    for s in await store.read(round_filter(table_id, Aggregate.BETS, 1)):
        move = move_of(_bets.decode(s.data))
        if move is not None:
            staked[move.player] += move.after
    assert staked and set(staked) <= set(online.players)
    for player in online.players:
        assert await balance(accounts, player) == DEMO_FUNDS - staked[player]
