"""The bet history query (004 "Rekod Pertaruhan"): request/reply on
:func:`~sicbo_contracts.subjects.history_query`, answered from the log by any wager intake
replica.

Request: a :class:`~sicbo_contracts.wagers.BetHistoryQuery` (``{"player": id, "limit": n}``).
Reply: a :class:`~sicbo_contracts.wagers.BetHistory` (the player's slips with their
settlements, newest first) or a ``Rejected`` (``invalid`` for a bad query, ``unavailable`` when
the log cannot be read). Each replica keeps a history per table in the shell's follower.
"""

import logging
from typing import Any

import msgspec
from nats.aio.msg import Msg

from sicbo.eventstore.errors import StoreError
from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.infra.replies import answer
from sicbo.shell.codec import invalid_input
from sicbo.shell.follower import Follower
from sicbo.wagers.history import History, HistoryEvent
from sicbo_contracts.base import DECODE_ERRORS
from sicbo_contracts.replies import Rejected
from sicbo_contracts.subjects import Aggregate, table_filter, table_of
from sicbo_contracts.wagers import BetHistoryQuery

log = logging.getLogger(__name__)

_READ = frozenset({Aggregate.BETS, Aggregate.SETTLE})


def _apply(history: History, stored: StoredEvent, event: Any) -> History:
    history.apply(stored.seq, event)
    return history


class HistoryQueries:
    """Answers history queries from per-table read models caught up from the log."""

    def __init__(self, store: EventStore) -> None:
        self._query = msgspec.json.Decoder(BetHistoryQuery)
        # One filter for the table's whole log: one consistent prefix, in log order, so a
        # settlement is never read without the slip it settles.
        self._histories: Follower[History] = Follower(
            store,
            "bet history",
            table_filter,
            History,
            _apply,
            decoder=msgspec.json.Decoder(HistoryEvent),
            wants=lambda subject: subject.aggregate in _READ,
        )

    async def on_request(self, msg: Msg) -> None:
        table = table_of(msg.subject) or ""
        await answer(msg, msgspec.json.encode(await self.answer(table, msg.data)))

    async def answer(self, table: str, raw: bytes) -> object:
        try:
            query = self._query.decode(raw)
        except DECODE_ERRORS as err:
            return invalid_input(err, what="history query")
        try:
            history = (await self._histories.get(table)).state
        except (StoreError, TimeoutError) as err:
            log.exception("bet history of %s unavailable", table)
            return Rejected(
                command_id=None,
                code="unavailable",
                reason=f"event store unavailable ({err})",
                reason_key="http.log-slow",
            )
        return history.of_player(query.player, query.limit)
