"""Replay verify with each worker reading its own tables (:mod:`sicbo.replay.spread`) gives
what the whole log's read gives, on a real server, unpartitioned and over 2 partitions: the
same rounds, wagers, mismatches, violations, pending and unsettled rounds, unreadable
settlements, and the same events in the same order for the accounts' join. A message on a
subject of no table's filter sends verify back to the whole log's read (where it is reported
as always)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgspec
import nats
import pytest

from sicbo.accounts.entries import credit_return, debit_stake
from sicbo.accounts.state import evolve, initial_state
from sicbo.eventstore.layout import open_floor_log
from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.provisioning import provision
from sicbo.replay import spread as spread_module
from sicbo.replay.findings import Finding
from sicbo.replay.floor import verify_floor
from sicbo.replay.money import Owed, table_money
from sicbo.replay.spread import verify_log_spread
from sicbo.replay.verify import Verification, verify_parallel
from sicbo.settlement.settler import SETTLEMENT_ACTOR as SETTLER
from sicbo.shell.codec import encode
from sicbo.shell.headers import COMMAND_ID
from sicbo_contracts.accounts import FundsDeposited
from sicbo_contracts.lifecycle import TableOpened
from sicbo_contracts.subjects import ACCOUNT_STREAM, account_subject_of
from tests.support.accounts import CASHIER, CURRENCY, INTAKE, account_opened
from tests.support.common import EARLIER
from tests.support.stream import Stored
from tests.unit.replay.test_verify import busy_table


def _renamed(events: list[Stored], table: str) -> list[Stored]:
    return [
        Stored(
            e.seq,
            e.subject.replace(".T1.", f".{table}.", 1),
            e.data.replace(b'"table":"T1"', f'"table":"{table}"'.encode(), 1),
            e.time,
        )
        for e in events
    ]


def _in_euros(events: list[Stored]) -> list[Stored]:
    """The table opened in EUR: its players' accounts are paid (the money join reads it)."""
    opened = msgspec.json.Decoder(TableOpened)

    def priced(e: Stored) -> Stored:
        if not e.subject.endswith(".table-opened-v1"):
            return e
        event = opened.decode(e.data)
        config = msgspec.structs.replace(event.config, currency="EUR")
        return Stored(
            e.seq, e.subject, encode(msgspec.structs.replace(event, config=config)), e.time
        )

    return [priced(e) for e in events]


def _floor_log() -> list[Stored]:
    """Three tables of different sizes, interleaved; the first keeps its own sequences (it
    verifies) and plays in EUR, the others are renumbered by the stream (their settlements
    then mismatch and their slips break invariants: findings to compare too)."""
    first = _in_euros(busy_table("cca-1992", rounds=6).stored())
    second = _renamed(busy_table("online-live", rounds=3).stored(), "T2")
    third = _renamed(busy_table("macau-2004", rounds=1).stored(), "T3")
    return (
        first
        + [e for pair in zip(second, third, strict=False) for e in pair]
        + second[len(third) :]
    )


def _key(f: Finding) -> tuple[Any, ...]:
    return (f.table, f.seq, f.check, f.message)


def _summary(v: Verification) -> tuple[Any, ...]:
    return (
        v.rounds,
        v.wagers,
        v.ok,
        sorted((a.table, a.round, tuple(a.problems), a.wagers) for a in v.mismatches),
        sorted(v.pending),
        sorted(v.unsettled),
        sorted(v.undecodable),
        sorted(_key(f) for f in v.violations),
    )


async def _store(url: str, partitions: int, events: list[Stored]) -> None:
    nc = await nats.connect(url)
    try:
        (await provision(nc, partitions=partitions)).raise_for_conflicts()
        store = await open_floor_log(nc)
        for e in events:
            await store.append(e.subject, e.data)
    finally:
        await nc.close()


async def _whole(url: str) -> tuple[Verification, list[Any]]:
    nc = await nats.connect(url)
    try:
        stored = await (await open_floor_log(nc)).read_all()
    finally:
        await nc.close()
    return verify_parallel(stored, jobs=2), stored


@pytest.mark.parametrize("partitions", [1, 2])
async def test_workers_reading_their_own_tables_verify_as_the_whole_read(
    tmp_path: Path, partitions: int
) -> None:
    with LocalNatsServer(tmp_path / "nats") as server:
        await _store(server.url, partitions, _floor_log())
        whole, stored = await _whole(server.url)
        spread = await asyncio.to_thread(verify_log_spread, server.url, jobs=2, with_money=True)
        assert spread is not None
        assert whole.rounds == 10 and not whole.ok  # T1 verifies, T2 and T3 do not
        assert ("T1", 1) not in [(a.table, a.round) for a in whole.mismatches]
        assert _summary(spread.result) == _summary(whole)
        assert spread.events == len(stored)
        # The tables' side of the accounts' join, summed up by the workers, as the whole log's.
        assert spread.money == table_money(stored) and spread.money.owed
        alone = await asyncio.to_thread(verify_log_spread, server.url, jobs=1)
        assert alone is None  # one worker: the whole log's read


async def test_a_message_on_no_tables_filter_sends_verify_to_the_whole_read(
    tmp_path: Path,
) -> None:
    with LocalNatsServer(tmp_path / "nats") as server:
        events = _floor_log()
        await _store(server.url, 1, events)
        assert await asyncio.to_thread(verify_log_spread, server.url, jobs=2) is not None
        nc = await nats.connect(server.url)
        try:
            # On the table's name alone: table_of names T2, its filter sicbo.evt.T2.> misses it.
            await (await open_floor_log(nc)).append("sicbo.evt.T2", b"{}")
        finally:
            await nc.close()
        assert await asyncio.to_thread(verify_log_spread, server.url, jobs=2) is None
        whole, _ = await _whole(server.url)
        assert any(f.table == "T2" and f.check == "subject" for f in whole.violations)


def _of(owed: dict[str, Owed], player: str) -> list[tuple[str, Owed]]:
    return [(k, d) for k, d in owed.items() if d.player == player]


def _account_entries(owed: dict[str, Owed]) -> list[Any]:
    """An account with entries the join judges: one payment credited as owed, one of another
    amount, one no settlement owes, and a debit of T1's closed round 1 with no slip."""
    player = next(p for p in {d.player for d in owed.values()} if _of(owed, p)[1:])
    (key, due), (other_key, other) = _of(owed, player)[:2]
    events: list[Any] = [account_opened(player)]
    state = evolve(initial_state(player), events[0])

    def add(event: Any) -> None:
        nonlocal state
        events.append(event)
        state = evolve(state, event)

    add(
        FundsDeposited(
            player=player, actor=CASHIER, at=EARLIER, currency=CURRENCY, amount=500, balance=500
        )
    )
    for slip_key, amount in ((key, due.amount), (other_key, other.amount + 1)):
        entry_slip = {"table": "T1", "round": 1, "slip_id": "s", "key": slip_key}
        add(credit_return(state, entry_slip, amount, CURRENCY, SETTLER, EARLIER))  # type: ignore[arg-type]
    forged = {"table": "T1", "round": 1, "slip_id": "s", "key": "return:T1:1:nowhere:0"}
    add(credit_return(state, forged, 7, CURRENCY, SETTLER, EARLIER))  # type: ignore[arg-type]
    lost = {"table": "T1", "round": 1, "slip_id": "lost", "key": "debit:T1:1:lost:v1"}
    add(debit_stake(state, lost, 50, CURRENCY, INTAKE, EARLIER))  # type: ignore[arg-type]
    return events


async def test_the_floors_verify_joins_the_accounts_alike_spread_over_workers_or_read_whole(
    tmp_path: Path,
) -> None:
    """`sicbo replay verify`'s money join (sicbo.replay.floor): the workers sum up their own
    tables' side and the parent checks the accounts meanwhile; the findings are the whole
    read's, entry for entry."""
    with LocalNatsServer(tmp_path / "nats") as server:
        events = _floor_log()
        await _store(server.url, 1, events)
        _, stored = await _whole(server.url)
        owed = {k: v for k, v in table_money(stored).owed.items() if v.table == "T1"}
        nc = await nats.connect(server.url)
        try:
            accounts = EventStore(nc, ACCOUNT_STREAM)
            entries = _account_entries(owed)
            for n, entry in enumerate(entries):  # the cashier's with their commands, but one
                cmd = {} if isinstance(entry, FundsDeposited) else {COMMAND_ID: f"c-{n}"}
                await accounts.append(account_subject_of(entry), encode(entry), headers=cmd)
        finally:
            await nc.close()
        assert await asyncio.to_thread(verify_log_spread, server.url, jobs=2) is not None
        spread = await asyncio.to_thread(verify_floor, server.url, jobs=2)
        whole = await asyncio.to_thread(verify_floor, server.url, jobs=1)
        money = sorted(_key(f) for f in spread.result.violations if f.account)
        assert money == sorted(_key(f) for f in whole.result.violations if f.account)
        assert _summary(spread.result) == _summary(whole.result)
        messages = " | ".join(m for *_, m in money)
        assert "no settlement in the log owes it" in messages
        assert "'return:T1:1:nowhere:0'" in messages
        assert f"pays {_of(owed, entries[0].player)[1][1].amount + 1}; the settlement" in messages
        assert "debit 'debit:T1:1:lost:v1' has no stored slip and 50" in messages
        # Read with the cashier's entries' headers only: the deposit's missing command is
        # found, the opening's command is read (no finding for it).
        assert "a cashier's entry without the command it was decided from" in messages
        assert len(money) == 4, money


async def test_the_accounts_are_read_after_every_worker_has_read_its_tables(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The money join takes the tables as read before the accounts (a round settled and
    credited between the reads is then seen whole or not at all): ``beside`` (the accounts'
    read) runs only once every worker has read its tables. What it appends to a table, with
    the workers slow to begin their reads, is in no worker's read."""
    read_tables = spread_module._read_tables

    async def slow(nats_url: str, tables: list[str]) -> list[Any]:
        await asyncio.sleep(0.5)  # the forked workers inherit it
        return await read_tables(nats_url, tables)

    monkeypatch.setattr(spread_module, "_read_tables", slow)
    with LocalNatsServer(tmp_path / "nats") as server:
        events = _floor_log()
        await _store(server.url, 1, events)
        late = events[-1]

        def append_meanwhile() -> int:
            async def append() -> int:
                nc = await nats.connect(server.url)
                try:
                    stored = await (await open_floor_log(nc)).append(late.subject, late.data)
                    return stored.seq
                finally:
                    await nc.close()

            return asyncio.run(append())

        spread = await asyncio.to_thread(
            verify_log_spread, server.url, jobs=2, beside=append_meanwhile
        )
        assert spread is not None and spread.beside == len(events) + 1  # appended, then
        assert spread.events == len(events)  # ...and in no worker's read
