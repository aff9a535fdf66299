"""``sicbo replay verify`` re-folds every player's account and ``sicbo replay account``
prints a statement, on a throwaway floor (its own nats-server): the accounts service as a
process takes the cashier's commands; the game's entries are appended as wager intake and
settlement will append them (the next slice), expecting the account's last sequence. Then a
forged credit, and a second credit of one return, make verify exit non-zero."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
import nats
import pytest
from nats.aio.client import Client as NATS

from sicbo.accounts.entries import credit_return, debit_stake
from sicbo.accounts.state import AccountState, evolve, fold
from sicbo.eventstore.records import Expect
from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo.provisioning import provision
from sicbo.shell.codec import encode
from sicbo_contracts.accounts import AccountEvent, DepositFunds, OpenAccount, ReturnCredited
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.replies import Accepted, Reply
from sicbo_contracts.routing import command_subject
from sicbo_contracts.subjects import ACCOUNT_STREAM, account_filter, account_subject_of
from tests.integration.conftest import new_id

CASHIER = Actor(id="cashier-1", role=Role.OPERATOR)
INTAKE = Actor(id="wagers", role=Role.SERVICE)
PLAYER = "alice"
_reply = msgspec.json.Decoder(Reply)
_event = msgspec.json.Decoder(AccountEvent)


@dataclass
class AccountsFloor:
    url: str
    nc: NATS
    store: EventStore


@pytest.fixture(scope="module")
async def af(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[AccountsFloor]:
    tmp = tmp_path_factory.mktemp("accounts-replay")
    with LocalNatsServer(tmp / "nats") as server:
        nc = await nats.connect(server.url)
        proc = ServiceProcess("accounts", server.url, log_path=tmp / "accounts.log")
        try:
            (await provision(nc)).raise_for_conflicts()
            proc.start()
            await proc.wait_ready()
            yield AccountsFloor(server.url, nc, EventStore(nc, ACCOUNT_STREAM))
        finally:
            proc.stop()
            await nc.close()


def sicbo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sicbo.cli.main", *args], capture_output=True, text=True, timeout=120
    )


async def cashier(af: AccountsFloor, cmd: Any) -> None:
    msg = await af.nc.request(command_subject(cmd), msgspec.json.encode(cmd), timeout=10)
    assert isinstance(_reply.decode(msg.data), Accepted), msg.data


async def account(af: AccountsFloor) -> tuple[AccountState, int]:
    stored = await af.store.read(account_filter(PLAYER))
    return fold(PLAYER, [_event.decode(e.data) for e in stored]), stored[-1].seq


async def append(af: AccountsFloor, event: Any, expected: int) -> None:
    await af.store.append(
        account_subject_of(event),
        encode(event),
        expect=Expect(account_filter(PLAYER), expected),
        msg_id=f"{PLAYER}/{getattr(event, 'key', new_id())}",
    )


def slip(slip_id: str, kind: str) -> Any:
    return {"table": "T1", "round": 7, "slip_id": slip_id, "key": f"{kind}:T1:{slip_id}"}


async def test_verify_and_the_statement_then_a_forged_and_a_second_credit_fail(
    af: AccountsFloor,
) -> None:
    await cashier(
        af, OpenAccount(command_id=new_id(), player=PLAYER, actor=CASHIER, currency="EUR")
    )
    await cashier(
        af,
        DepositFunds(
            command_id=new_id(), player=PLAYER, actor=CASHIER, amount=1_000, currency="EUR"
        ),
    )
    now = datetime.now(UTC)
    state, last = await account(af)
    debit = debit_stake(state, slip("s-1", "debit"), 300, "EUR", INTAKE, now)
    await append(af, debit, last)
    state, last = evolve(state, debit), last + 1
    credit = credit_return(state, slip("s-1", "return"), 600, "EUR", INTAKE, now)
    await append(af, credit, last)

    passed = sicbo("replay", "verify", "--nats", af.url)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "log invariants: none broken" in passed.stdout
    shown = sicbo("replay", "account", PLAYER, "--json", "--nats", af.url)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    statement = json.loads(shown.stdout)
    assert (statement["currency"], statement["balance"]) == ("EUR", 1_300)
    assert [(line["before"], line["after"]) for line in statement["lines"]] == [
        (0, 0),
        (0, 1_000),
        (1_000, 700),
        (700, 1_300),
    ]
    assert statement["rounds"] == [
        {
            "table": "T1",
            "round": 7,
            "before": 1_000,
            "staked": 300,
            "refunded": 0,
            "returned": 600,
            "adjusted": 0,
            "after": 1_300,
        }
    ]
    printed = sicbo("replay", "account", PLAYER, "--nats", af.url)
    assert printed.returncode == 0 and "balance 1300 EUR" in printed.stdout, printed.stdout

    # The same return credited again, under its own key (a retry that slipped the msg-id
    # window), and a credit whose recorded balance the entries do not sum to.
    _, last = await account(af)
    twice = msgspec.structs.replace(credit, balance=1_900)
    await af.store.append(account_subject_of(twice), encode(twice))
    forged = ReturnCredited(
        **{**msgspec.structs.asdict(credit), "key": "return:T1:s-9", "amount": 5, "balance": 9_999}
    )
    await af.store.append(account_subject_of(forged), encode(forged))
    failed = sicbo("replay", "verify", "--nats", af.url)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "log invariants: 2 broken" in failed.stdout, failed.stdout
    assert f"{ACCOUNT_STREAM} seq {last + 1} account {PLAYER} T1 round 7" in failed.stdout
    assert "'return:T1:s-1' is applied twice" in failed.stdout
    assert "records a balance of 9999; the entries sum to 1905" in failed.stdout
    disputed = sicbo("replay", "account", PLAYER, "--json", "--nats", af.url)
    assert disputed.returncode == 1
    assert {v["check"] for v in json.loads(disputed.stdout)["violations"]} == {"account"}


async def test_a_player_without_an_account_is_told_so(af: AccountsFloor) -> None:
    missing = sicbo("replay", "account", "nobody", "--nats", af.url)
    assert missing.returncode == 2 and "has no account" in missing.stderr
    bad = sicbo("replay", "account", "a.b", "--nats", af.url)
    assert bad.returncode == 2 and "cannot be a subject token" in bad.stderr
