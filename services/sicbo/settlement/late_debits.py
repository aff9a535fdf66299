"""Debits appended after their round's money was squared (issue 14 item 3: the reconciler's
gap, docs/architecture.md "Player accounts").

The reconciler (:meth:`sicbo.settlement.money.RoundMoney.reconcile`) squares a round's debits
with its stored slips at "no more bets" and again before the round is paid. A wager service
that decided a slip while betting was open, stalled, and debited after those reads (then
crashed before storing the slip or refunding the debit) leaves a debit neither read: settlement
reads every debit once more, on the durable consumer ``settlement-debits`` of
``SICBO_ACCOUNTS`` (acked only once done, so a SIGKILL redelivers it), and squares the round
again when its money is already closed:

- closed (``BettingClosed`` or ``RoundCancelled`` of the round is stored: no slip of it can be
  stored any more): reconcile the round. Its refunds are keyed ``refund:<debit key>``, so a
  debit the reconciler already refunded, or refunded twice by racing replicas, appends nothing;
- open: nothing now. The round's closing event is stored after this read, hence after the debit,
  and the reconciler that runs on it reads the round's debits after that: it sees this one.

The closing events are looked up on the stream leader (:meth:`EventStore.last_sequence`), never
on a replica that might not hold them yet.

One lookup answers for many debits (:class:`RoundChecks`): a lookup started after a debit was
delivered (so after it was stored) that finds the round open proves what the reconciler at the
close will see, for every debit delivered before the lookup started. The consumer's batch runs
its debits concurrently, so one lookup a round a batch, not two lookups a debit (each debit
used to pay two leader requests, which cost the wallet's intake a third of its rate).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from sicbo.eventstore.store import EventStore
from sicbo.infra.bounded import Recent
from sicbo.settlement.money import RoundMoney
from sicbo_contracts.accounts import StakeDebited
from sicbo_contracts.lifecycle import BettingClosed, RoundCancelled
from sicbo_contracts.subjects import Aggregate, event, parse_account_subject, token

log = logging.getLogger(__name__)

#: A round's money is closed once one of these is stored (betting closed, or the round
#: cancelled, perhaps while betting was open).
CLOSED_BY = (BettingClosed, RoundCancelled)
_DEBITED = token(StakeDebited)
#: Rounds remembered (checks, closed rounds, locks): the oldest beyond are forgotten (and a
#: forgotten one is looked up again).
_KEPT = 10_000


def round_of_debit(subject: str) -> tuple[str, int] | None:
    """The table and round a debit's subject names; None for any other account subject (and
    for a debit stored before contracts 1.2.0, without its round)."""
    parsed = parse_account_subject(subject)
    if parsed is None or parsed.token != _DEBITED or parsed.table is None or parsed.round is None:
        return None
    return parsed.table, parsed.round


async def money_closed(
    is_stored: Callable[[str], Awaitable[bool]], table: str, round_no: int
) -> bool:
    """Whether the round's money is closed, asking ``is_stored`` of each closing subject."""
    for closing in CLOSED_BY:
        if await is_stored(event(table, Aggregate.LIFECYCLE, round_no, closing)):
            return True
    return False


@dataclass
class _Check:
    covers: int  #: the highest debit sequence delivered before the lookup started
    answer: asyncio.Task[bool]


class RoundChecks:
    """Whether a round's money is closed, for a debit of a given sequence: a lookup is shared
    by every debit delivered before it started; a closed round stays closed."""

    def __init__(self, is_stored: Callable[[str], Awaitable[bool]]) -> None:
        self._is_stored = is_stored
        self._delivered = 0
        self._checks: Recent[tuple[str, int], _Check] = Recent(_KEPT)
        self._closed: Recent[tuple[str, int], None] = Recent(_KEPT)  # a set of closed rounds

    async def closed(self, table: str, round_no: int, seq: int) -> bool:
        key = (table, round_no)
        self._delivered = max(self._delivered, seq)
        await asyncio.sleep(0)  # the rest of the batch is delivered too, before a lookup starts
        if key in self._closed:
            return True
        check = self._checks.get(key)
        if check is None or check.covers < seq:
            lookup = money_closed(self._is_stored, table, round_no)
            check = _Check(self._delivered, asyncio.ensure_future(lookup))
            self._checks.put(key, check)
        try:
            answer = await asyncio.shield(check.answer)
        except Exception:
            if self._checks.get(key) is check:
                self._checks.pop(key)  # a failed lookup is asked again by the redelivery
            raise
        if answer:
            self._closed.put(key, None)
            self._checks.pop(key)
        return answer


class LateDebits:
    def __init__(self, store: EventStore, money: RoundMoney) -> None:
        self._store = store
        self._money = money
        self._rounds = RoundChecks(self._stored)
        # A lock held is never forgotten (another reconcile of its round would not wait).
        self._locks: Recent[tuple[str, int], asyncio.Lock] = Recent(
            _KEPT, in_use=asyncio.Lock.locked
        )

    async def on_debit(self, subject: str, seq: int) -> int:
        """Square the debit's round again if its money is closed; refunds appended."""
        found = round_of_debit(subject)
        if found is None:
            return 0
        table, round_no = found
        if not await self._rounds.closed(table, round_no, seq):
            return 0  # the reconciler at the round's close reads it
        # One reconcile at a time a round, and none for a debit an earlier one read already
        # (a backlog of a closed round's debits: one reconcile, not one a debit).
        async with self._lock(table, round_no):
            if seq <= self._money.squared_upto.get((table, round_no), 0):
                return 0
            return await self._reconcile(table, round_no)

    def _lock(self, table: str, round_no: int) -> asyncio.Lock:
        key = (table, round_no)
        lock = self._locks.get(key) or asyncio.Lock()
        self._locks.put(key, lock)  # the most recent
        return lock

    async def _reconcile(self, table: str, round_no: int) -> int:
        refunds = await self._money.reconcile(table, round_no)
        if refunds:
            log.warning(
                "round %s of %s: %s debits appended after its close refunded",
                round_no,
                table,
                refunds,
            )
        return refunds

    async def _stored(self, subject: str) -> bool:
        return await self._store.last_sequence(subject) > 0
