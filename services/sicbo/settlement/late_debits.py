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
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from sicbo.eventstore.store import EventStore
from sicbo.settlement.money import RoundMoney
from sicbo_contracts.accounts import StakeDebited
from sicbo_contracts.lifecycle import BettingClosed, RoundCancelled
from sicbo_contracts.subjects import Aggregate, event, parse_account_subject, token

log = logging.getLogger(__name__)

#: A round's money is closed once one of these is stored (betting closed, or the round
#: cancelled, perhaps while betting was open).
CLOSED_BY = (BettingClosed, RoundCancelled)
_DEBITED = token(StakeDebited)


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


class LateDebits:
    def __init__(self, store: EventStore, money: RoundMoney) -> None:
        self._store = store
        self._money = money

    async def on_debit(self, subject: str) -> int:
        """Square the debit's round again if its money is closed; refunds appended."""
        found = round_of_debit(subject)
        if found is None:
            return 0
        table, round_no = found
        if not await money_closed(self._stored, table, round_no):
            return 0  # the reconciler at the round's close reads it
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
