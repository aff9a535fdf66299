"""The bet history query (004 "Rekod Pertaruhan"): request/reply on
``sicbo.qry.<table>.bets.history``, answered from the log by any wager intake replica.

Request: a :class:`~sicbo_contracts.wagers.BetHistoryQuery` (``{"player": id, "limit": n}``).
Reply: a :class:`~sicbo_contracts.wagers.BetHistory` (the player's slips with their
settlements, newest first) or a ``Rejected`` (``invalid`` for a bad query, ``unavailable`` when
the log cannot be read). Each replica keeps a history per table and, before answering, reads
only what the log gained since (one Direct Get read of the table's events).
"""

import asyncio
import logging

import msgspec
from nats.aio.msg import Msg

from sicbo.eventstore.errors import StoreError
from sicbo.eventstore.store import EventStore
from sicbo.shell.codec import invalid_input
from sicbo.wagers.history import History, HistoryEvent
from sicbo_contracts.replies import Rejected
from sicbo_contracts.subjects import Aggregate
from sicbo_contracts.wagers import BetHistoryQuery

log = logging.getLogger(__name__)

#: Every table's history queries (one queue group across the replicas).
HISTORY_ALL = "sicbo.qry.*.bets.history"
_READ = frozenset({Aggregate.BETS.value, Aggregate.SETTLE.value})


def history_subject(table: str) -> str:
    """Where a table's bet history is asked for."""
    return f"sicbo.qry.{table}.bets.history"


class HistoryQueries:
    """Answers history queries from per-table read models caught up from the log."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self._tables: dict[str, History] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._query = msgspec.json.Decoder(BetHistoryQuery)
        self._event = msgspec.json.Decoder(HistoryEvent)

    async def on_request(self, msg: Msg) -> None:
        table = msg.subject.split(".")[2]
        await msg.respond(msgspec.json.encode(await self.answer(table, msg.data)))

    async def answer(self, table: str, raw: bytes) -> object:
        try:
            query = self._query.decode(raw)
        except msgspec.DecodeError as err:
            return invalid_input(err, what="history query")
        try:
            history = await self._caught_up(table)
        except (StoreError, TimeoutError) as err:
            log.exception("bet history of %s unavailable", table)
            return Rejected(
                command_id=None, code="unavailable", reason=f"event store unavailable ({err})"
            )
        return history.of_player(query.player, query.limit)

    async def _caught_up(self, table: str) -> History:
        async with self._locks.setdefault(table, asyncio.Lock()):
            history = self._tables.setdefault(table, History(table))
            # One filter for the table's whole log: one consistent prefix, in log order, so a
            # settlement is never read without the slip it settles.
            stored = await self._store.read(f"sicbo.evt.{table}.>", after_seq=history.last_seq)
            for event in stored:
                history.last_seq = event.seq
                if event.subject.split(".", 4)[3] not in _READ:
                    continue
                try:
                    decoded = self._event.decode(event.data)
                except msgspec.DecodeError:
                    log.warning("history skips undecodable event seq=%s", event.seq)
                    continue
                history.apply(event.seq, decoded)
            return history
