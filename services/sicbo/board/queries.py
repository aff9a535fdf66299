"""The board's queries, answered from the log: the statistics board and game recall of a table
(:func:`~sicbo_contracts.subjects.stats_query`, ``recall_query``; request/reply, queue group
``board``).

Each process keeps one :class:`TableReadModel` per table asked about in the shell's follower,
which before each answer reads what the table's log gained since. A new model (the first
query of a table, or one after the table played more rounds than recall shows since the last)
starts bounded to the rounds needed:

1. the latest round: the last ``round-started`` event on the table's lifecycle filter;
2. the lifecycle events of the last 64 rounds (one read of the table's lifecycle filter from
   the ``round-started`` of the oldest), reaching further back (x4) while they hold fewer than
   50 results and older rounds exist: enough for the board;
3. then the follower reads every event of the table from the ``round-started`` of the oldest
   round recall needs (the last 10 rounds with an outcome, and the void rounds whose wagers
   were carried into them). The model forgets the rounds no answer needs (``trim``).

Reads are consistent prefixes of the log in stream order, so an event is never seen without
those before it; an event read twice is held once (by its stream sequence).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from typing import TypeVar

import msgspec
from nats.aio.msg import Msg

from sicbo.board.readmodel import TableReadModel
from sicbo.eventstore.errors import StoreError
from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.game.errors import GameError
from sicbo.infra.replies import answer
from sicbo.shell.codec import encode, invalid_input
from sicbo.shell.follower import Follower, Start
from sicbo_contracts.base import DECODE_ERRORS
from sicbo_contracts.board import (
    RECALL_DEPTH,
    Recall,
    RecallQuery,
    StatsBoard,
    StatsQuery,
)
from sicbo_contracts.lifecycle import RoundStarted
from sicbo_contracts.replies import Rejected
from sicbo_contracts.subjects import (
    Aggregate,
    aggregate_filter,
    events_of_type,
    parse_event_subject,
    table_filter,
    table_of,
)

log = logging.getLogger(__name__)
A = TypeVar("A", StatsBoard, Recall)

#: Rounds of lifecycle events read first when loading a table (then x4 while too few).
FIRST_READ = 64
_TABLE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")  # sicbo_contracts.base.TableId


def _started_filter(table: str, round_no: int | None = None) -> str:
    return events_of_type(RoundStarted, Aggregate.LIFECYCLE, table=table, round_no=round_no)


def _add(model: TableReadModel, stored: StoredEvent, _: object) -> TableReadModel:
    model.extend((stored,))
    return model


class BoardQueries:
    """Answers the statistics board and game recall of any table."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self._models: Follower[TableReadModel] = Follower(
            store,
            "board",
            table_filter,
            TableReadModel,
            _add,
            start=self._start,
            trim=TableReadModel.trim,
        )
        self._stats = msgspec.json.Decoder(StatsQuery)
        self._recall = msgspec.json.Decoder(RecallQuery)

    # -- the NATS callbacks -----------------------------------------------------------------

    async def on_stats(self, msg: Msg) -> None:
        await answer(msg, encode(await self.stats(table_of(msg.subject) or "", msg.data)))

    async def on_recall(self, msg: Msg) -> None:
        await answer(msg, encode(await self.recall(table_of(msg.subject) or "", msg.data)))

    # -- answers ----------------------------------------------------------------------------

    async def stats(self, table: str, raw: bytes) -> StatsBoard | Rejected:
        try:
            query = self._stats.decode(raw or b"{}")
        except DECODE_ERRORS as err:
            return invalid_input(err, what="stats query")
        return await self._answer(table, lambda model: model.stats(query.limit))

    async def recall(self, table: str, raw: bytes) -> Recall | Rejected:
        try:
            query = self._recall.decode(raw or b"{}")
        except DECODE_ERRORS as err:
            return invalid_input(err, what="recall query")
        return await self._answer(table, lambda model: model.recall(query.limit))

    async def _answer(self, table: str, answer: Callable[[TableReadModel], A]) -> A | Rejected:
        if not _TABLE.match(table):
            why = f"not a table id: {table!r}"
            return Rejected(command_id=None, code="invalid", reason=why, reason_key="http.table-id")
        try:
            async with self._models.lock(table):
                return answer(await self._caught_up(table))
        except (StoreError, TimeoutError) as err:
            log.exception("board of %s unavailable", table)
            return Rejected(
                command_id=None,
                code="unavailable",
                reason=f"event store unavailable ({err})",
                reason_key="http.log-slow",
            )
        except GameError as err:  # a paytable this version cannot read
            log.exception("board of %s cannot be folded", table)
            why = str(err)
            return Rejected(
                command_id=None, code="unavailable", reason=why, reason_key="http.internal"
            )

    # -- keeping the read model caught up ---------------------------------------------------

    async def _latest(self, table: str) -> int:
        """The table's latest round (0: none yet)."""
        seq = await self._store.last_sequence(_started_filter(table))
        if seq == 0:
            return 0
        known = self._models.peek(table)
        if known is not None and known.state.holds(seq):
            return known.state.latest_round()
        event = await self._store.get(seq, table=table)
        parsed = parse_event_subject(event.subject) if event is not None else None
        if parsed is None:
            raise StoreError(f"round-started event {seq} of {table} vanished")
        return parsed.round

    async def _caught_up(self, table: str) -> TableReadModel:
        latest = await self._latest(table)
        if latest == 0:  # no round played (or no such table): nothing to show, nothing kept
            return TableReadModel(table)
        known = self._models.peek(table)
        if known is not None and latest - known.state.latest_round() > RECALL_DEPTH:
            self._models.forget(table)  # far behind: start bounded again, not from its mark
        model = (await self._models.get(table)).state
        if model.missing():  # what the log gained needs older rounds: start again
            self._models.forget(table)
            model = (await self._models.get(table)).state
        return model

    async def _first_started(self, table: str, lowest: int, latest: int) -> tuple[int, int]:
        """The first round from ``lowest`` that was started, and the sequence of its start.
        Rounds are numbered without gaps, so that is ``lowest`` itself, unless a start far
        ahead was forged into the log (round 1000 after 80: the lifecycle goes on from it and
        replay verify reports it); then the first round after the gap, one look-up a round."""
        for round_no in range(lowest, latest + 1):
            start = await self._store.last_sequence(_started_filter(table, round_no))
            if start:
                return round_no, start
        raise StoreError(f"round {latest} of {table} has no round-started event")

    async def _start(self, table: str) -> Start[TableReadModel]:
        """A new model of ``table``, bounded to the rounds the answers need: the lifecycle
        events of the last 64 rounds (x4 while they hold too few results), then the follower
        reads every event from the ``round-started`` of the oldest round recall needs."""
        latest = await self._latest(table)
        span = FIRST_READ
        while True:
            lowest, start = await self._first_started(table, max(1, latest - span + 1), latest)
            lifecycle = await self._store.read(
                aggregate_filter(table, Aggregate.LIFECYCLE), after_seq=start - 1
            )
            model = TableReadModel(table, lowest=lowest, full_from=lowest)
            model.extend(lifecycle)
            if lowest == 1 or not model.missing():
                break
            span *= 4
        full_from = model.recall_from() or model.latest_round()
        start_seq = model.started_seq(full_from)
        if start_seq is None:  # cannot happen: the round's lifecycle was just read
            raise StoreError(f"round {full_from} of {table} has no round-started event")
        model.full_from = full_from
        model.mark = 0  # caught up only once the table's events are read too
        log.info("board loads %s: rounds %s.., full from %s", table, model.lowest, full_from)
        return Start(model, start_seq - 1)
