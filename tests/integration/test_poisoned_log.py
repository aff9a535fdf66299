"""No entry wedges a table (issue 25 items 2-3): foreign entries written into every stream by
its most privileged writer (this server has no accounts: the operator's tooling), between
and inside rounds, then three rounds played with wagers and money, on a throwaway floor of
its own (the services as processes).

Every round settles, every winner is paid exactly once, the feed goes on, the balance folds
to what the rounds paid, and ``sicbo replay verify`` exits 1 naming each foreign entry.
Before, one ``rejected.v1`` on settlement's subject left its round unsettled for good (the
next round refused, 002 art. 4), and a result without ``source_seq`` on the feed stopped it.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import msgspec
import pytest
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.shell.codec import encode
from sicbo_contracts.accounts import AccountEvent, ReturnCredited
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.lifecycle import RoundCompleted, RoundStarted
from sicbo_contracts.replies import Rejected
from sicbo_contracts.results import RoundResult
from sicbo_contracts.settlement import RoundSettled
from sicbo_contracts.subjects import (
    ACCOUNT_STREAM,
    EVENT_STREAM,
    RESULTS_STREAM,
    Aggregate,
    account_filter,
    account_subject_of,
    event,
    results,
)
from sicbo_contracts.wagers import SlipPlaced, Wager
from tests.floor import MONEY_SERVICES, Floor, throwaway_floor
from tests.integration.test_demo_launched_players import fund
from tests.integration.test_replay_money import verify
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    open_round,
    open_table,
    place,
    wait_completed,
)

CASHIER = Actor(id="cashier-1", role=Role.OPERATOR)
SERVICES = {**MONEY_SERVICES, "results": 1}
PROFILE = "macau-2003"
_entry = msgspec.json.Decoder(AccountEvent)
_result = msgspec.json.Decoder(RoundResult)


@pytest.fixture(scope="module")
async def throwaway(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[tuple[Floor, NATS]]:
    async with throwaway_floor(tmp_path_factory.mktemp("poisoned-log"), SERVICES) as floor:
        yield floor


def rejected() -> bytes:
    return encode(Rejected(command_id="x", code="refused", reason="a reply stored as an entry"))


class Poisoner:
    """Writes each kind of foreign entry and remembers where it landed."""

    def __init__(self, nc: NATS) -> None:
        self.log, self.feed = EventStore(nc, EVENT_STREAM), EventStore(nc, RESULTS_STREAM)
        self.accounts = EventStore(nc, ACCOUNT_STREAM)
        self.on_log: list[int] = []

    async def log_entry(self, subject: str, data: bytes) -> None:
        self.on_log.append((await self.log.append(subject, data)).seq)

    async def before_round(self, table: str, other: str, n: int) -> None:
        at = datetime.now(UTC)
        await self.log_entry(event(table, Aggregate.LIFECYCLE, n, RoundStarted), b"\xff\xfe{")
        # Another table's event on this table's subject (the round a forger would restart).
        started = RoundStarted(
            table=other,
            actor=Actor(id="d", role=Role.DEALER),
            at=at,
            round=n,
            tumbles=3,
            paytable=f"{PROFILE}@v1",
        )
        await self.log_entry(event(table, Aggregate.LIFECYCLE, n, RoundStarted), encode(started))

    async def inside_round(self, table: str, n: int) -> None:
        at = datetime.now(UTC)
        # A round.completed.v1 body on a bets subject (it left the round unsettled), and a
        # rejected.v1 on settlement's own subject (it wedged the table).
        done = RoundCompleted(table=table, actor=Actor(id="s", role=Role.SERVICE), at=at, round=n)
        await self.log_entry(event(table, Aggregate.BETS, n, SlipPlaced), encode(done))
        await self.log_entry(event(table, Aggregate.SETTLE, n, RoundSettled), rejected())

    async def on_the_feed(self, table: str) -> None:
        await self.feed.append(results(table), rejected())  # no source_seq
        await self.feed.append(results(table), b"not json at all")

    async def in_the_account(self, player: str, table: str) -> int:
        """An undecodable entry, then a credit no settlement owes; its seq."""
        last = _entry.decode((await self.accounts.read(account_filter(player)))[-1].data)
        await self.accounts.append(account_subject_of_player(player), b"\x00\x01")
        credit = ReturnCredited(
            player=player,
            actor=Actor(id="settlement", role=Role.SERVICE),
            at=datetime.now(UTC),
            key=f"return:{table}:1:forged:0",
            table=table,
            round=1,
            slip_id="forged",
            amount=500,
            currency="EUR",
            balance=last.balance + 500,
        )
        return (await self.accounts.append(account_subject_of(credit), encode(credit))).seq


def account_subject_of_player(player: str) -> str:
    return account_filter(player).removesuffix(">") + "account-funds-deposited-v1"


async def test_three_rounds_on_a_poisoned_floor_settle_pay_and_publish(
    throwaway: tuple[Floor, NATS],
) -> None:
    floor, nc = throwaway
    player, table, other = f"p-{uuid.uuid4().hex[:8]}", f"t{uuid.uuid4().hex[:8]}", "elsewhere"
    poison = Poisoner(nc)
    await fund(floor, nc, player, 10_000)
    await open_table(floor, nc, table, PROFILE, currency="EUR")
    forged_credit = await poison.in_the_account(player, table)
    log = EventStore(nc, EVENT_STREAM)
    dice = [(6, 5, 4), (1, 2, 3), (6, 6, 2)]  # big wins, small wins, big wins
    for n, rolled in enumerate(dice, start=1):
        await poison.before_round(table, other, n)
        await open_round(floor, nc, table, n)
        await place(floor, nc, table, n, player, [Wager(bet="big", stake=200)])
        await poison.inside_round(table, n)
        await close_and_uncover(floor, nc, table, n)
        await confirm(floor, nc, table, n, rolled)
        await wait_completed(log, table, n)  # settled and completed: the next round may start
        await poison.on_the_feed(table)

    # Every winner paid once: big won rounds 1 and 3 (stake 200 back with 200), lost round 2.
    entries = [
        e
        for s in await poison.accounts.read(account_filter(player))
        if (e := _try(_entry, s.data)) is not None
    ]
    returns = [e for e in entries if isinstance(e, ReturnCredited) and e.slip_id != "forged"]
    assert sorted((e.round, e.amount) for e in returns) == [(1, 400), (3, 400)]
    assert entries[-1].balance == 10_000 + 500 - 3 * 200 + 2 * 400  # the forged 500 folded too

    # The feed goes on after each foreign message: a result of every round.
    published = [
        r
        for s in await poison.feed.read(results(table))
        if (r := _try(_result, s.data)) is not None
    ]
    assert sorted({r.round for r in published}) == [1, 2, 3]

    verified = verify(floor.nats_url)
    out = verified.stdout + verified.stderr
    assert verified.returncode == 1, out
    assert "verified 3 rounds" in out, out
    assert "not settled yet" not in out, out
    named = {int(s) for s in re.findall(rf"VIOLATION seq (\d+) {table} ", out)}
    assert named == set(poison.on_log), out  # each foreign entry, and no genuine one
    assert f"VIOLATION {ACCOUNT_STREAM} seq {forged_credit - 1} account {player}" in out, out
    assert f"'return:{table}:1:forged:0': no settlement in the log owes it" in out, out

    # Skipped quietly: no traceback, nothing retried, each entry named at most once a process.
    for procs in floor.processes.values():
        for proc in procs:
            assert proc.log_path is not None
            text = proc.log_path.read_text()
            assert "Traceback" not in text, (proc.service, text[-3000:])
            skips = re.findall(r"skips entry (\d+) on (\S+)", text)
            assert len(skips) == len(set(skips)), (proc.service, skips)


def _try(decoder: msgspec.json.Decoder, data: bytes):  # type: ignore[type-arg, no-untyped-def]
    try:
        return decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
