"""Replay verify with the read spread over the workers: each worker process reads its own
tables from NATS and verifies them, instead of the parent reading the whole log and forking
(issue 16 item 2; docs/benchmarks.md "Replay verify: the read in the workers").

The parent asks the server only which subjects the log holds and how many messages each
(``STREAM.INFO`` with a subjects filter, paged), groups them by table, and shares the tables
over the workers by event count as :func:`~.verify.verify_parallel` does. A worker reads each
of its tables with the table's own filter (:func:`~sicbo_contracts.subjects.table_filter`,
Direct Get batches from its partition's stream) and runs :func:`~.verify.verify` on it: the
same events, in the same order, as the table's group of the whole log, so the same result.

That holds only where every message of the log is on a subject its table's filter matches:
:func:`plan` returns None otherwise (a message on ``sicbo.evt.T`` alone, or on a subject of no
table: what a forger might store), and for a log of one table, so the caller reads the whole
log as before and every such message is reported exactly as it always was. A table's read is
a prefix of its log as of that read; tables are verified independently, so reading them at
slightly different moments is reading the log a moment earlier or later, table by table.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from multiprocessing.pool import AsyncResult
from multiprocessing.synchronize import Semaphore
from typing import Generic, TypeVar

import msgspec
import nats
from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeoutError

from sicbo.eventstore.layout import open_floor_log
from sicbo.eventstore.partitioned import FloorLog
from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_auth import connect_options
from sicbo.replay.gcpause import without_gc
from sicbo.replay.money import TableMoney, table_money
from sicbo.replay.owners import read_event
from sicbo.replay.verify import Verification, merge, verify
from sicbo_contracts.subjects import subject_matches, table_filter, table_of, without_partition

__all__ = ["Spread", "can_spread", "plan", "run_connected", "verify_log_spread", "verify_spread"]

T = TypeVar("T")
R = TypeVar("R")
log = logging.getLogger(__name__)

#: The JetStream API the floor's log is opened on (:func:`~sicbo.eventstore.layout.open_floor_log`).
_API = "$JS.API"


@dataclass
class Spread(Generic[T]):
    """What the workers found: the verification, the events read, the slowest worker's read,
    the tables' side of the money join where asked for (:func:`~.money.table_money` of
    each worker's tables, merged: what the whole log's read gives), and what the parent
    did meanwhile (``beside``)."""

    result: Verification
    events: int
    read_seconds: float
    money: TableMoney | None = None
    beside: T | None = None


async def _quiet(err: Exception) -> None:
    """A replay's connection: what goes wrong is raised to the caller (the CLI says it in one
    line), not also logged with a traceback by nats-py's default handler."""
    log.debug("replay's connection: %r", err)


async def connect(nats_url: str) -> NATS:
    """Replay's one way to connect (the workers, the plan, the accounts' and tables' reads)."""
    return await nats.connect(
        nats_url,
        connect_timeout=5,
        max_reconnect_attempts=1,
        error_cb=_quiet,
        **connect_options(nats_url),
    )


def run_connected(nats_url: str, work: Callable[[NATS], Awaitable[R]]) -> R:
    """``work`` on a connection of its own (:func:`connect`), closed after, in an event loop of
    its own: call it where no event loop runs in the calling thread."""

    async def connected() -> R:
        nc = await connect(nats_url)
        try:
            return await work(nc)
        finally:
            await nc.close()

    return asyncio.run(connected())


async def _subjects(nc: NATS, stream: str, api: str, timeout: float) -> dict[str, int] | None:
    """Every subject ``stream`` holds, with its message count; None when the server does not
    list them all (then the caller reads the whole log)."""
    found: dict[str, int] = {}
    for _ in range(1_000):
        body = json.dumps({"subjects_filter": ">", "offset": len(found)}).encode()
        try:
            msg = await nc.request(f"{api}.STREAM.INFO.{stream}", body, timeout)
            reply = json.loads(msg.data)
        except (NoRespondersError, NatsTimeoutError, ValueError):
            return None  # not allowed, or no answer: the whole log's read says what is wrong
        if not isinstance(reply, dict) or "error" in reply:
            return None
        state = reply.get("state") or {}
        page: Mapping[str, int] = state.get("subjects") or {}
        found.update(page)
        total = int(state.get("num_subjects", 0))
        if len(found) >= total:
            listed = sum(found.values())
            return found if listed == int(state.get("messages", -1)) else None
        if not page:
            return None
    return None


async def plan(nc: NATS, *, timeout: float = 30) -> dict[str, int] | None:
    """The log's tables with their event counts, where every message is on its table's
    filter; None where one is not, or a subject list cannot be had whole."""
    store = await open_floor_log(nc, timeout=timeout)
    streams: tuple[EventStore, ...] = store.streams if isinstance(store, FloorLog) else (store,)
    tables: dict[str, int] = {}
    for part in streams:
        subjects = await _subjects(nc, part.stream, _API, timeout)
        if subjects is None:
            return None
        for stored, count in subjects.items():
            subject = without_partition(stored)
            name = table_of(subject)
            if name is None or not subject_matches(subject, table_filter(name)):
                return None  # read the whole log: it is reported as it always was
            tables[name] = tables.get(name, 0) + count
    return tables


async def _read_tables(nats_url: str, tables: list[str]) -> list[list[StoredEvent]]:
    nc = await connect(nats_url)
    try:
        store = await open_floor_log(nc, timeout=30)
        # verify reads no headers (only the accounts' checks do, in the parent)
        return [await store.read(table_filter(name), bulk=True, headers=False) for name in tables]
    finally:
        await nc.close()


#: A worker's part: its verification, events read, read time, and the tables' side of the
#: money join packed (msgpack: a tenth of pickle's time for a table's many payments).
_Part = tuple[Verification, int, float, bytes | None]
_pack_money = msgspec.msgpack.Encoder().encode
_unpack_money = msgspec.msgpack.Decoder(TableMoney).decode


#: Released by each worker once its tables are read (set before the pool forks: inherited).
_tables_read: Semaphore | None = None


def _read_and_verify(job: tuple[str, list[str], datetime | None, bool]) -> _Part:
    nats_url, tables, since, with_money = job
    start = time.perf_counter()
    try:
        logs = asyncio.run(_read_tables(nats_url, tables))
    finally:
        if _tables_read is not None:
            _tables_read.release()
    read = time.perf_counter() - start
    results, money = [], TableMoney() if with_money else None
    for log in logs:
        decoded = [read_event(e.data) for e in log]  # once, for verify and the money join
        results.append(verify(log, since=since, decoded=decoded))
        if money is not None:
            money.merge(table_money(log, decoded))
    packed = _pack_money(money) if money is not None else None
    return merge(results), sum(len(log) for log in logs), read, packed


def _shares(tables: Mapping[str, int], jobs: int) -> list[list[str]]:
    """The tables over ``jobs`` workers, the largest first to the least loaded."""
    shares: list[list[str]] = [[] for _ in range(min(jobs, len(tables)))]
    loads = [0] * len(shares)
    for name in sorted(tables, key=lambda name: -tables[name]):
        lightest = loads.index(min(loads))
        shares[lightest].append(name)
        loads[lightest] += tables[name]
    return shares


@without_gc
def verify_spread(
    nats_url: str,
    tables: Mapping[str, int],
    *,
    jobs: int,
    since: datetime | None = None,
    with_money: bool = False,
    beside: Callable[[], T] | None = None,
) -> Spread[T]:
    """Verify ``tables`` (from :func:`plan`) in ``jobs`` forked workers, each reading its own.

    ``with_money``: the tables' side of the money join too. ``beside``: run in this process
    once every worker has read its tables, while they verify them (the accounts' read and
    checks: the money join takes the tables as read before the accounts, so that a round
    settled and credited meanwhile is never half seen), its result in ``beside``. Call it
    where no event loop runs in the calling thread (a forked child starts its own)."""
    global _tables_read
    jobs_of = [(nats_url, share, since, with_money) for share in _shares(tables, jobs)]
    context = multiprocessing.get_context("fork")
    _tables_read = context.Semaphore(0)
    try:
        with context.Pool(len(jobs_of)) as pool:
            working = pool.map_async(_read_and_verify, jobs_of)
            _await_reads(_tables_read, len(jobs_of), working)
            done_beside = beside() if beside is not None else None
            parts = working.get()
    finally:
        _tables_read = None
    money = None
    if with_money:
        money = TableMoney()
        for *_, packed in parts:
            if packed is not None:
                money.merge(_unpack_money(packed))
    return Spread(
        merge(result for result, *_ in parts),
        sum(events for _, events, *_ in parts),
        max((read for _, _, read, _ in parts), default=0.0),
        money,
        done_beside,
    )


def _await_reads(read: Semaphore, count: int, working: AsyncResult[list[_Part]]) -> None:
    """Until ``count`` workers have read their tables, or the work ended (a worker failed:
    ``working.get()`` raises it)."""
    done = 0
    while done < count and not working.ready():
        if read.acquire(timeout=0.01):
            done += 1


def verify_log_spread(
    nats_url: str,
    *,
    jobs: int,
    since: datetime | None = None,
    with_money: bool = False,
    beside: Callable[[], T] | None = None,
) -> Spread[T] | None:
    """The whole log verified by ``jobs`` workers each reading its own tables; None where
    :func:`plan` says it does not apply, or one worker or one table (read the log whole:
    then ``beside`` has not run). Call it where no event loop runs in the calling thread."""
    tables = run_connected(nats_url, plan)
    if not can_spread(jobs, tables):
        return None
    assert tables is not None
    return verify_spread(
        nats_url, tables, jobs=jobs, since=since, with_money=with_money, beside=beside
    )


def can_spread(jobs: int, tables: Mapping[str, int] | None) -> bool:
    """Whether :func:`verify_spread` applies: workers wanted, forking possible, 2+ tables."""
    return (
        tables is not None
        and jobs > 1
        and len(tables) > 1
        and "fork" in multiprocessing.get_all_start_methods()
    )
