"""Settlement's part of the players' money (issue 14 items 3): the reconciler at "no more bets"
and the round's payments once settled.

- :meth:`RoundMoney.reconcile`, when betting closes (``BettingClosed``, before the round can
  settle): every debit of the round whose slip was never stored (a crash between the debit and
  the slip) or that runs ahead of the slip as stored is refunded, once
  (:func:`sicbo.accounts.squaring.refund_excess`). After "no more bets" no slip of the round
  can be stored any more (the lifecycle's expectation), so what is not stored now never will be.
- :meth:`RoundMoney.pay`, once the round's settlement is stored: every payment of
  :mod:`.payments`, each once by its key, before the round is completed.

Both are idempotent: a redelivery or a second replica decides on the account as read and finds
the keys already entered (nothing appended). A job that fails is redelivered (NotDone).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from functools import partial

import msgspec
from nats.aio.client import Client as NATS

from sicbo.accounts.squaring import debited, refund_excess
from sicbo.accounts.state import AccountState
from sicbo.accounts.writer import AccountWriter
from sicbo.eventstore.store import EventStore
from sicbo.infra.bounded import Recent
from sicbo.settlement.payments import Paying, Payment, entry_for, payments_of
from sicbo.shell.quarantine import admitted
from sicbo.wagers.stakes import move_of
from sicbo_contracts.accounts import StakeDebited, StakeRefunded
from sicbo_contracts.base import Actor
from sicbo_contracts.settlement import SettlementAdjusted, SettlementVoided, WagersSettled
from sicbo_contracts.subjects import (
    ACCOUNT_STREAM,
    Aggregate,
    round_entries,
    round_filter,
    tokens,
)
from sicbo_contracts.wagers import WagerEvent

log = logging.getLogger(__name__)
#: The name its skipped entries are named by (sicbo.shell.quarantine).
_READER = "settlement (money)"

_debits = msgspec.json.Decoder(StakeDebited)
_slips: msgspec.json.Decoder[WagerEvent] = msgspec.json.Decoder(WagerEvent)
_paying: msgspec.json.Decoder[Paying] = msgspec.json.Decoder(
    WagersSettled | SettlementAdjusted | SettlementVoided
)
_PAYING_TYPES = tokens(WagersSettled, SettlementAdjusted, SettlementVoided)


#: Rounds whose squared debits are remembered (a forgotten one is read again).
_SQUARED_KEPT = 10_000


class RoundMoney:
    def __init__(
        self, store: EventStore, nc: NATS, actor: Actor, clock: Callable[[], datetime]
    ) -> None:
        self._store = store
        self._accounts = EventStore(nc, ACCOUNT_STREAM)
        self._writer = AccountWriter(nc)
        self._actor = actor
        self._clock = clock
        #: (table, round) -> the last debit sequence a reconcile of the round has read: every
        #: debit of the round up to it is squared (kept for the recent rounds only).
        self.squared_upto: Recent[tuple[str, int], int] = Recent(_SQUARED_KEPT)

    async def reconcile(self, table: str, round_no: int) -> int:
        """Refund the round's debits that no stored slip holds; how many refunds appended."""
        # Only this round's debits, of every account: their subjects name the table's round.
        read = await self._accounts.read(round_entries(StakeDebited, table, round_no))
        if read:
            # A read holds every debit of the round up to the last it returned (a replica
            # holds a prefix of the stream): each of those is squared by this call.
            key = (table, round_no)
            self.squared_upto.put(key, max(read[-1].seq, self.squared_upto.get(key, 0)))
        debits = [
            d
            for d in (admitted(_READER, s, _debits) for s in read)
            if d is not None and d.table == table and d.round == round_no
        ]
        if not debits:
            return 0
        standing = await self._standing(table, {round_no} | {d.round for d in debits})
        refunds = 0
        for player, slip_id in sorted({(d.player, d.slip_id) for d in debits}):
            stored = standing.get((player, slip_id), 0)
            at = self._clock()
            square = partial(
                _square,
                table=table,
                slip_id=slip_id,
                stored=stored,
                tag=f"r{round_no}",
                actor=self._actor,
                at=at,
            )
            while await self._writer.write(player, square):
                refunds += 1
        if refunds:
            log.info(
                "round %s of %s: %s debits without their slip refunded", round_no, table, refunds
            )
        return refunds

    async def _standing(self, table: str, rounds: set[int]) -> dict[tuple[str, str], int]:
        """(player, slip) -> its chips stake as the last stored event of it says."""
        stored = []
        for r in rounds:
            stored.extend(await self._store.read(round_filter(table, Aggregate.BETS, r)))
        standing: dict[tuple[str, str], int] = {}
        for s in sorted(stored, key=lambda e: e.seq):
            slip = admitted(_READER, s, _slips)  # a foreign entry: skipped, named once
            move = move_of(slip) if slip is not None else None
            if move is not None:
                standing[(move.player, move.slip_id)] = move.after
        return standing

    async def pay(self, table: str, round_no: int) -> int:
        """Pay the round's settlement into the accounts; how many entries appended."""
        await self.reconcile(table, round_no)
        paying = [
            admitted(_READER, s, _paying)
            for s in await self._store.read(round_filter(table, Aggregate.SETTLE, round_no))
            if s.subject.rsplit(".", 1)[-1] in _PAYING_TYPES
        ]
        payments = [payment for p in paying if p is not None for payment in payments_of(p)]
        paid = 0
        for payment in await self._debited(table, payments):
            at = self._clock()
            decide = partial(
                entry_for, table=table, round_no=round_no, pay=payment, actor=self._actor, at=at
            )
            written = await self._writer.write(payment.player, decide)
            paid += written is not None
        return paid

    async def _debited(self, table: str, payments: list[Payment]) -> list[Payment]:
        """The payments of slips debited from an account, reading each player's account once
        (a round of chips at the table reads one account per player, not one per wager). A
        slip's debit precedes the slip, so none can appear after this read."""
        accounts = {p: (await self._writer.read(p))[0] for p in {p.player for p in payments}}
        return [
            p
            for p in payments
            if accounts[p.player].open and debited(accounts[p.player], table, p.slip_id)
        ]


def _square(
    account: AccountState,
    *,
    table: str,
    slip_id: str,
    stored: int,
    tag: str,
    actor: Actor,
    at: datetime,
) -> StakeRefunded | None:
    if not account.open:
        return None
    return refund_excess(
        account,
        table,
        slip_id,
        stored,
        tag=tag,
        reason="the slip was not stored by no more bets: its stakes returned",
        actor=actor,
        at=at,
    )
