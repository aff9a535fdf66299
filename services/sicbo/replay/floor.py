"""Replay verify of the whole floor, as ``sicbo replay verify`` runs it and ``make bench`` times
it: the tables' log (every round re-settled, every invariant of the log) and the players'
accounts (each re-folded, and joined with the tables: each debit its slip or its refund, each
settled wager its return).

Where the tables can be spread (:mod:`.spread`), each worker reads and verifies its own tables
and sums up their side of the money join (:func:`~.money.table_money`); meanwhile this process
reads the accounts and checks them (:func:`check_all_accounts`), so no table event is sent
back from a worker and the accounts' work overlaps the tables'. Elsewhere (one table, one job,
a log :func:`~.spread.plan` will not spread) the log is read whole here, as before.

A credit that no settlement in the first read owes is judged again on a read of the tables
made after the accounts' (:func:`~.money.check_money_live`): a round settled and credited
while the floor played is not called forged.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime

from nats.aio.client import Client as NATS

from sicbo.eventstore.layout import open_floor_log
from sicbo.eventstore.records import HeadersWanted, StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.replay.accounts import check_accounts, headers_checked, read_entries
from sicbo.replay.findings import Finding
from sicbo.replay.gcpause import without_gc
from sicbo.replay.money import AccountMoney, TableMoney, account_money, check_money_live
from sicbo.replay.spread import run_connected, verify_log_spread
from sicbo.replay.verify import Verification, verify_parallel
from sicbo.shell.headers import COMMAND_ID
from sicbo_contracts.subjects import ACCOUNT_STREAM, ACCOUNTS_ALL, EVENTS_ALL, table_filter

__all__ = ["FloorVerification", "check_all_accounts", "read_accounts", "read_log", "verify_floor"]


@dataclass
class FloorVerification:
    result: Verification
    events: int  # the tables' events verified
    read_seconds: float  # until the tables' log was read (the slowest worker's read)
    seconds: float  # the whole verification, accounts included


@dataclass
class AccountsChecked:
    """The accounts re-folded (:func:`~.accounts.check_accounts`) and their side of the join."""

    findings: list[Finding]
    money: AccountMoney


def check_all_accounts(entries: list[StoredEvent]) -> AccountsChecked:
    """Every account checked and summed up for the join, each entry decoded once."""
    decoded = read_entries(entries)
    return AccountsChecked(
        check_accounts(entries, command_header=COMMAND_ID, decoded=decoded),
        account_money(entries, decoded),
    )


def read_log(nats_url: str, subject_filter: str = EVENTS_ALL) -> list[StoredEvent]:
    """The tables' log (or a filter of it), each table from its partition's stream."""

    async def read(nc: NATS) -> list[StoredEvent]:
        store = await open_floor_log(nc, timeout=30)
        return await store.read_all(filter_subject=subject_filter)

    return run_connected(nats_url, read)


def read_accounts(
    nats_url: str,
    subject_filter: str = ACCOUNTS_ALL,
    *,
    bulk: bool = True,
    headers: HeadersWanted = True,
) -> list[StoredEvent]:
    """The accounts' log (or a filter of it); ``bulk``: a whole log's read
    (:meth:`EventStore.read`), not one account's, with ``headers`` as it says."""

    async def read(nc: NATS) -> list[StoredEvent]:
        store = EventStore(nc, ACCOUNT_STREAM, timeout=30)
        return await store.read(subject_filter, bulk=bulk, headers=headers)

    return run_connected(nats_url, read)


@without_gc  # the collector would walk every event read, in this process too
def verify_floor(
    nats_url: str, *, jobs: int, table: str | None = None, since: datetime | None = None
) -> FloorVerification:
    """Verify the floor's log (``table``'s alone: no accounts) with ``jobs`` processes; the
    violations of the accounts are the log's, stored at or after ``since``. Raises what the
    reads raise (OSError, nats' errors, :class:`~sicbo.eventstore.errors.StoreError`). Call
    it where no event loop runs in the calling thread."""
    started = time.perf_counter()
    with_accounts = table is None

    def accounts() -> AccountsChecked:
        # The checks read the cashier's entries' headers only (a game entry's were a third
        # of the accounts' read).
        return check_all_accounts(read_accounts(nats_url, headers=headers_checked))

    spread = (
        verify_log_spread(nats_url, jobs=jobs, since=since, with_money=True, beside=accounts)
        if with_accounts and jobs > 1
        else None
    )
    checked: AccountsChecked | None
    money: TableMoney | list[StoredEvent]  # the tables' side of the join, or their events
    if spread is not None and spread.money is not None:  # each worker read its own tables
        result, events, money = spread.result, spread.events, spread.money
        read_at, checked = started + spread.read_seconds, spread.beside
    else:
        stored = read_log(nats_url, table_filter(table) if table else EVENTS_ALL)
        read_at = time.perf_counter()
        result = verify_parallel(stored, jobs=jobs, table=table, since=since)
        events, money = len(stored), stored
        checked = accounts() if with_accounts else None
    if checked is not None:
        found = checked.findings + check_money_live(
            money,
            checked.money,
            lambda: read_log(nats_url),
            lambda: read_accounts(nats_url, headers=False),  # the join reads no headers
        )
        result.violations += [f for f in found if since is None or f.time >= since]
    return FloorVerification(result, events, read_at - started, time.perf_counter() - started)
