"""Players' accounts against a real nats-server, the accounts service as two processes: the
operator's cashier opens an account, deposits and withdraws; a retried command id is a
duplicate; a withdrawal over the free balance is refused naming the field; racing withdrawals
never spend the same funds twice; bad input gets a specific error. Nothing refused appends."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest
from nats.aio.client import Client as NATS

from sicbo.eventstore.errors import AppendConflict
from sicbo.eventstore.records import Expect
from sicbo.eventstore.store import EventStore
from sicbo.provisioning import ProvisionReport
from sicbo.replay.accounts import check_accounts
from sicbo.shell.codec import encode
from sicbo.shell.headers import COMMAND_ID
from sicbo_contracts.accounts import (
    AccountCommand,
    DepositFunds,
    FundsDeposited,
    OpenAccount,
    WithdrawFunds,
)
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.replies import Accepted, Rejected, Reply
from sicbo_contracts.subjects import (
    ACCOUNT_SERVICE,
    ACCOUNT_STREAM,
    account_event,
    account_filter,
    command,
)
from tests.integration.conftest import Floor, new_id

CASHIER = Actor(id="cashier-1", role=Role.OPERATOR)
_reply = msgspec.json.Decoder(Reply)


@pytest.fixture
def accounts(nc: NATS, provisioned: ProvisionReport) -> EventStore:
    return EventStore(nc, ACCOUNT_STREAM)


@pytest.fixture
def player() -> str:
    return f"p-{uuid.uuid4().hex[:12]}"


async def send(floor: Floor, nc: NATS, cmd: AccountCommand) -> Reply:
    return await floor.send(nc, cmd)


async def ask(nc: NATS, player: str, payload: bytes, sender: str = "operator") -> Reply:
    msg = await nc.request(command(player, ACCOUNT_SERVICE, sender), payload, timeout=10)
    return _reply.decode(msg.data)


def open_(player: str, currency: str = "EUR") -> OpenAccount:
    return OpenAccount(command_id=new_id(), player=player, actor=CASHIER, currency=currency)


def deposit(player: str, amount: int, command_id: str | None = None) -> DepositFunds:
    return DepositFunds(
        command_id=command_id or new_id(),
        player=player,
        actor=CASHIER,
        amount=amount,
        currency="EUR",
    )


def withdraw(player: str, amount: int) -> WithdrawFunds:
    return WithdrawFunds(
        command_id=new_id(), player=player, actor=CASHIER, amount=amount, currency="EUR"
    )


async def funded(floor: Floor, nc: NATS, player: str, amount: int) -> None:
    for cmd in (open_(player), deposit(player, amount)):
        assert isinstance(await send(floor, nc, cmd), Accepted), cmd


async def test_the_cashier_opens_deposits_and_a_retried_command_is_a_duplicate(
    floor: Floor, nc: NATS, accounts: EventStore, player: str
) -> None:
    opened = await send(floor, nc, open_(player))
    assert isinstance(opened, Accepted) and opened.events == ["account.opened.v1"]
    first = deposit(player, 1_000)
    stored = await send(floor, nc, first)
    assert isinstance(stored, Accepted) and not stored.duplicate
    again = await send(floor, nc, first)
    assert isinstance(again, Accepted) and again.duplicate and again.seq == stored.seq
    reused = await send(floor, nc, deposit(player, 5, command_id=first.command_id))
    assert isinstance(reused, Rejected) and reused.field == "$.command_id", reused
    events = await accounts.read(account_filter(player))
    assert [e.subject.rsplit(".", 1)[1] for e in events] == [
        "account-opened-v1",
        "account-funds-deposited-v1",
    ]
    deposited = msgspec.json.decode(events[1].data, type=FundsDeposited)
    assert (deposited.amount, deposited.balance, deposited.actor) == (1_000, 1_000, CASHIER)
    assert events[1].headers[COMMAND_ID] == first.command_id


async def test_a_withdrawal_over_the_free_balance_is_refused_and_appends_nothing(
    floor: Floor, nc: NATS, accounts: EventStore, player: str
) -> None:
    await funded(floor, nc, player, 300)
    before = await accounts.last_sequence(account_filter(player))
    reply = await send(floor, nc, withdraw(player, 301))
    assert isinstance(reply, Rejected), reply
    assert (reply.code, reply.field) == ("refused", "$.amount")
    assert "over the free balance of 300 EUR" in reply.reason
    assert await accounts.last_sequence(account_filter(player)) == before
    assert isinstance(await send(floor, nc, withdraw(player, 300)), Accepted)


async def until_decided(floor: Floor, nc: NATS, cmd: WithdrawFunds) -> Reply:
    """As a client does: a "conflict" is sent again with the same command id."""
    while True:
        reply = await send(floor, nc, cmd)
        if not (isinstance(reply, Rejected) and reply.code == "conflict"):
            return reply


async def test_racing_withdrawals_never_spend_the_same_funds_twice(
    floor: Floor, nc: NATS, accounts: EventStore, player: str
) -> None:
    """Funds for 5 of 24 withdrawals, sent at once to two replicas: the append expects the
    account's last sequence, so each withdrawal is decided on the balance the one before left."""
    await funded(floor, nc, player, 500)
    replies = await asyncio.gather(
        *(until_decided(floor, nc, withdraw(player, 100)) for _ in range(24))
    )
    accepted = [r for r in replies if isinstance(r, Accepted)]
    refused = [r for r in replies if isinstance(r, Rejected)]
    assert len(accepted) == 5 and not [r for r in accepted if r.duplicate]
    assert {(r.code, r.field) for r in refused} == {("refused", "$.amount")}
    stored = await accounts.read(account_filter(player))
    withdrawals = [e for e in stored if e.subject.endswith("account-funds-withdrawn-v1")]
    assert len(withdrawals) == 5
    assert check_accounts(stored, command_header=COMMAND_ID) == []  # every balance as folded
    assert json.loads(stored[-1].data)["balance"] == 0


async def test_a_stale_expectation_on_an_account_is_refused_by_the_server(
    floor: Floor, nc: NATS, accounts: EventStore, player: str
) -> None:
    """What the service's appends rely on, on the accounts' stream itself: an append expecting
    an account's sequence before its last entry is refused."""
    await funded(floor, nc, player, 100)
    opened_at = (await accounts.read(account_filter(player)))[0].seq
    late = FundsDeposited(
        player=player, actor=CASHIER, at=datetime.now(UTC), currency="EUR", amount=1, balance=101
    )
    with pytest.raises(AppendConflict):
        await accounts.append(
            account_event(player, late),
            encode(late),
            expect=Expect(account_filter(player), opened_at),
        )


def body(player: str, **fields: Any) -> bytes:
    head = {"type": "account.deposit.v1", "command_id": new_id(), "player": player}
    return json.dumps({**head, "actor": {"id": "cashier-1", "role": "operator"}, **fields}).encode()


DEPOSIT = {"amount": 100, "currency": "EUR"}
BAD = [
    pytest.param(lambda p: b"not json", "invalid", "malformed JSON", None, id="not-json"),
    pytest.param(
        lambda p: body(p, **DEPOSIT).replace(b'"EUR"', b'"E\xff\xfe"'),
        "invalid",
        "not UTF-8",
        None,
        id="not-utf8",
    ),
    pytest.param(
        lambda p: body(p, amount=-100, currency="EUR"), "invalid", ">= 1", "$.amount", id="negative"
    ),
    pytest.param(
        lambda p: body(p, amount=0, currency="EUR"), "invalid", ">= 1", "$.amount", id="zero"
    ),
    pytest.param(
        lambda p: body(p, amount=2.5, currency="EUR"),
        "invalid",
        "Expected `int`, got `float`",
        "$.amount",
        id="fraction",
    ),
    pytest.param(
        lambda p: body(p, amount="100", currency="EUR"),
        "invalid",
        "Expected `int`, got `str`",
        "$.amount",
        id="string-amount",
    ),
    pytest.param(
        lambda p: body(p, amount=100, currency="euro"), "invalid", "", "$.currency", id="not-iso"
    ),
    pytest.param(
        lambda p: body(p, amount=100, currency="USD"),
        "refused",
        "is in EUR, not USD",
        "$.currency",
        id="other-currency",
    ),
    pytest.param(
        lambda p: body(p, table="T1", **DEPOSIT),
        "invalid",
        "unknown field `table`",
        "$.table",
        id="table",
    ),
    pytest.param(
        lambda p: body("someone-else", **DEPOSIT),
        "invalid",
        "sent on player",
        "$.player",
        id="other",
    ),
]


@pytest.mark.parametrize(("payload", "code", "words", "field"), BAD)
async def test_bad_input_gets_a_specific_error_and_appends_nothing(
    floor: Floor,
    nc: NATS,
    accounts: EventStore,
    player: str,
    payload: Any,
    code: str,
    words: str,
    field: str | None,
) -> None:
    await funded(floor, nc, player, 1_000)
    before = await accounts.last_sequence(account_filter(player))
    reply = await ask(nc, player, payload(player))
    assert isinstance(reply, Rejected), reply
    assert reply.code == code and words in reply.reason, reply
    assert reply.field == field, reply
    assert await accounts.last_sequence(account_filter(player)) == before


async def test_money_goes_only_into_an_open_account(
    floor: Floor, nc: NATS, accounts: EventStore, player: str
) -> None:
    reply = await ask(nc, player, body(player, **DEPOSIT))
    assert isinstance(reply, Rejected) and (reply.code, reply.field) == ("refused", "$.player")
    assert await accounts.last_sequence(account_filter(player)) == 0


@pytest.mark.parametrize("sender", ["dealer", "supervisor", "player", "settlement"])
async def test_only_the_operators_subject_moves_money(
    floor: Floor, nc: NATS, accounts: EventStore, player: str, sender: str
) -> None:
    """DESIGN.md Roles: authority comes from the credential; a cashier's command on another
    sender's subject is forbidden before any state is read."""
    await funded(floor, nc, player, 100)
    before = await accounts.last_sequence(account_filter(player))
    reply = await ask(nc, player, body(player, **DEPOSIT), sender=sender)
    assert isinstance(reply, Rejected) and (reply.code, reply.field) == (
        "forbidden",
        "$.actor.role",
    )
    assert await accounts.last_sequence(account_filter(player)) == before
