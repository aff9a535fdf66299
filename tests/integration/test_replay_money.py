"""``sicbo replay verify`` proves the money (issue 14 item 4), on a throwaway floor (its own
nats-server, the services as processes): a round played from a player's account verifies;
then a forged second credit of a settled wager, and a debit left without its slip or refund,
make verify exit non-zero naming each."""

from __future__ import annotations

import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import nats
import pytest
from nats.aio.client import Client as NATS

from sicbo.accounts.entries import Slip, debit_stake
from sicbo.accounts.writer import AccountWriter
from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo.provisioning import provision
from sicbo.shell.codec import encode
from sicbo_contracts.accounts import AccountEvent, DepositFunds, OpenAccount, ReturnCredited
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.settlement import WagersSettled
from sicbo_contracts.subjects import (
    ACCOUNT_STREAM,
    EVENT_STREAM,
    Aggregate,
    account_filter,
    account_subject_of,
    round_filter,
)
from sicbo_contracts.wagers import Wager
from tests.floor import Floor, start_services, throwaway_floor
from tests.integration.conftest import new_id
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    ok,
    open_round,
    open_table,
    place,
    wait_completed,
)

CASHIER = Actor(id="cashier-1", role=Role.OPERATOR)
SERVICE = Actor(id="settlement", role=Role.SERVICE)
_entry = msgspec.json.Decoder(AccountEvent)
_settled = msgspec.json.Decoder(WagersSettled)


@pytest.fixture(scope="module")
async def throwaway(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[Floor, NATS]]:
    async with throwaway_floor(tmp_path_factory.mktemp("money-replay")) as floor:
        yield floor


def verify(url: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sicbo.cli.main", "replay", "verify", "--nats", url],
        capture_output=True,
        text=True,
        timeout=120,
    )


async def test_verify_proves_the_money_and_fails_on_a_forged_second_credit(
    throwaway: tuple[Floor, NATS],
) -> None:
    floor, nc = throwaway
    player, table = f"p-{uuid.uuid4().hex[:8]}", f"t{uuid.uuid4().hex[:8]}"
    await ok(
        floor, nc, OpenAccount(command_id=new_id(), player=player, actor=CASHIER, currency="EUR")
    )
    await ok(
        floor,
        nc,
        DepositFunds(
            command_id=new_id(), player=player, actor=CASHIER, amount=1_000, currency="EUR"
        ),
    )
    await open_table(floor, nc, table, "cca-1992", currency="EUR")
    await open_round(floor, nc, table, 1)
    slip_id = await place(floor, nc, table, 1, player, [Wager(bet="big", stake=200)])
    await close_and_uncover(floor, nc, table, 1)
    await confirm(floor, nc, table, 1, (6, 4, 5))
    store = EventStore(nc, EVENT_STREAM)
    await wait_completed(store, table, 1)
    accounts = EventStore(nc, ACCOUNT_STREAM)
    entries = [_entry.decode(s.data) for s in await accounts.read(account_filter(player))]
    assert [type(e).__name__ for e in entries][-2:] == ["StakeDebited", "ReturnCredited"]
    assert entries[-1].balance == 1_200

    passed = verify(floor.nats_url)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "log invariants: none broken" in passed.stdout

    # A second credit of the settled wager under a key of its own (it slipped every guard),
    # with a balance the entries do sum to: only the join with the table's log catches it.
    credit = entries[-1]
    assert isinstance(credit, ReturnCredited)
    forged = msgspec.structs.replace(
        credit, key=f"return:{table}:1:{slip_id}:7", balance=credit.balance + credit.amount
    )
    await accounts.append(account_subject_of(forged), encode(forged))
    # And a debit of the closed round with no slip and no refund: settlement is SIGKILLed first
    # (it would refund the debit, sicbo.settlement.late_debits), so the log keeps it unsquared.
    floor.processes["settlement"][-1].kill()
    lost: Slip = {"table": table, "round": 1, "slip_id": "lost", "key": f"debit:{table}:1:lost:v1"}
    await AccountWriter(nc).write(
        player, lambda a: debit_stake(a, lost, 50, "EUR", SERVICE, datetime.now(UTC))
    )
    failed = verify(floor.nats_url)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    assert "log invariants: 2 broken" in failed.stdout, failed.stdout
    assert f"'return:{table}:1:{slip_id}:7': no settlement in the log owes it" in failed.stdout
    assert f"debit 'debit:{table}:1:lost:v1' has no stored slip and 50" in failed.stdout


async def test_a_settler_killed_while_paying_pays_every_wager_once(tmp_path: Path) -> None:
    """SIGKILL the only settlement process as the round's result is confirmed (where it stands
    in settling and paying 20 players' accounts is not pinned); a new process finishes (the
    message redelivered):
    every settled wager credited exactly once, and replay verify finds the balances = their
    entries and every payment owed and made (exit 0)."""
    with LocalNatsServer(tmp_path / "nats") as server:
        nc = await nats.connect(server.url)
        services = {"lifecycle": 1, "dice": 1, "wagers": 1, "accounts": 1, "settlement": 1}
        (await provision(nc)).raise_for_conflicts()
        processes = start_services(server.url, services, tmp_path, tmp_path)
        try:
            for procs in processes.values():
                for proc in procs:
                    await proc.wait_ready()
            floor = Floor(server.url, processes, tmp_path)
            players = [f"k-{n}" for n in range(20)]
            for player in players:
                await ok(
                    floor,
                    nc,
                    OpenAccount(command_id=new_id(), player=player, actor=CASHIER, currency="EUR"),
                )
                await ok(
                    floor,
                    nc,
                    DepositFunds(
                        command_id=new_id(),
                        player=player,
                        actor=CASHIER,
                        amount=10_000,
                        currency="EUR",
                    ),
                )
            table = "kill1"
            await open_table(floor, nc, table, "cca-1992", currency="EUR")
            await open_round(floor, nc, table, 1)
            bets = ["big", "small", "total:11", "single:3", "double:3"]
            for player in players:
                await place(floor, nc, table, 1, player, [Wager(bet=b, stake=100) for b in bets])
            await close_and_uncover(floor, nc, table, 1)
            await confirm(floor, nc, table, 1, (3, 3, 5))
            processes["settlement"][0].kill()  # as it settles and pays
            second = ServiceProcess("settlement", server.url, log_path=tmp_path / "s2.log")
            processes["settlement"].append(second.start())
            await second.wait_ready()
            store = EventStore(nc, EVENT_STREAM)
            await wait_completed(store, table, 1, seconds=60)
            returned: dict[str, list[int]] = {p: [] for p in players}
            for stored in await store.read(round_filter(table, Aggregate.SETTLE, 1)):
                if stored.subject.endswith("wagers-settled-v1"):
                    for r in _settled.decode(stored.data).wagers:
                        if r.returned:
                            returned[r.player].append(r.returned)
            accounts = EventStore(nc, ACCOUNT_STREAM)
            for player in players:
                es = [_entry.decode(s.data) for s in await accounts.read(account_filter(player))]
                credits = [e for e in es if isinstance(e, ReturnCredited)]
                assert len({c.key for c in credits}) == len(credits), credits  # each once
                assert sorted(c.amount for c in credits) == sorted(returned[player]) != []
                assert es[-1].balance == 10_000 - 500 + sum(returned[player])
            passed = verify(floor.nats_url)
            assert passed.returncode == 0, passed.stdout + passed.stderr
        finally:
            for procs in processes.values():
                for proc in procs:
                    proc.stop()
            await nc.close()
