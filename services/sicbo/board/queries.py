"""The board's queries, answered from the log: ``sicbo.qry.<table>.stats`` and
``sicbo.qry.<table>.recall`` (request/reply, queue group ``board``).

Each process keeps one :class:`TableReadModel` per table asked about, and before answering
catches it up with what the log gained since (one Direct Get read of the table's events after
the model's mark). The first query of a table, or one after the table played more rounds than
recall shows since the last, loads the model bounded to the rounds needed:

1. the latest round: the last ``round-started`` event on the table's lifecycle filter;
2. the lifecycle events of the last 64 rounds (one read of ``sicbo.evt.<table>.lc.>`` from the
   ``round-started`` of the oldest), reaching further back (x4) while they hold fewer than 50
   results and older rounds exist: enough for the board;
3. every event of the table from the ``round-started`` of the oldest round recall needs (the
   last 10 rounds with an outcome, and the void rounds whose wagers were carried into them).

Reads are consistent prefixes of the log in stream order, so an event is never seen without
those before it; an event read twice is held once (by its stream sequence).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from typing import TypeVar

import msgspec
from nats.aio.msg import Msg

from sicbo.board.readmodel import TableReadModel
from sicbo.eventstore.errors import StoreError
from sicbo.eventstore.store import EventStore
from sicbo.game.errors import GameError
from sicbo.shell.codec import encode, invalid_input, tag_of
from sicbo_contracts.board import (
    RECALL_DEPTH,
    Recall,
    RecallQuery,
    StatsBoard,
    StatsQuery,
)
from sicbo_contracts.lifecycle import RoundStarted
from sicbo_contracts.replies import Rejected
from sicbo_contracts.subjects import Aggregate, aggregate_filter, parse_event_subject

log = logging.getLogger(__name__)
A = TypeVar("A", StatsBoard, Recall)

#: Rounds of lifecycle events read first when loading a table (then x4 while too few).
FIRST_READ = 64
_TABLE = re.compile(r"^[A-Za-z0-9_-]{1,32}$")  # sicbo_contracts.base.TableId
_STARTED = tag_of(RoundStarted).replace(".", "-")


def _started_filter(table: str, round_token: str = "*") -> str:
    return f"sicbo.evt.{table}.{Aggregate.LIFECYCLE.value}.{round_token}.{_STARTED}"


class BoardQueries:
    """Answers the statistics board and game recall of any table."""

    def __init__(self, store: EventStore) -> None:
        self._store = store
        self._models: dict[str, TableReadModel] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._stats = msgspec.json.Decoder(StatsQuery)
        self._recall = msgspec.json.Decoder(RecallQuery)

    # -- the NATS callbacks -----------------------------------------------------------------

    async def on_stats(self, msg: Msg) -> None:
        await msg.respond(encode(await self.stats(msg.subject.split(".")[2], msg.data)))

    async def on_recall(self, msg: Msg) -> None:
        await msg.respond(encode(await self.recall(msg.subject.split(".")[2], msg.data)))

    # -- answers ----------------------------------------------------------------------------

    async def stats(self, table: str, raw: bytes) -> StatsBoard | Rejected:
        try:
            query = self._stats.decode(raw or b"{}")
        except msgspec.DecodeError as err:
            return invalid_input(err, what="stats query")
        return await self._answer(table, lambda model: model.stats(query.limit))

    async def recall(self, table: str, raw: bytes) -> Recall | Rejected:
        try:
            query = self._recall.decode(raw or b"{}")
        except msgspec.DecodeError as err:
            return invalid_input(err, what="recall query")
        return await self._answer(table, lambda model: model.recall(query.limit))

    async def _answer(self, table: str, answer: Callable[[TableReadModel], A]) -> A | Rejected:
        if not _TABLE.match(table):
            return Rejected(command_id=None, code="invalid", reason=f"not a table id: {table!r}")
        try:
            async with self._locks.setdefault(table, asyncio.Lock()):
                model = await self._caught_up(table)
                return answer(model)
        except (StoreError, TimeoutError) as err:
            log.exception("board of %s unavailable", table)
            return Rejected(
                command_id=None, code="unavailable", reason=f"event store unavailable ({err})"
            )
        except GameError as err:  # a paytable this version cannot read
            log.exception("board of %s cannot be folded", table)
            return Rejected(command_id=None, code="unavailable", reason=str(err))

    # -- keeping the read model caught up ---------------------------------------------------

    async def _latest(self, table: str, model: TableReadModel | None) -> int:
        """The table's latest round (0: none yet)."""
        seq = await self._store.last_sequence(_started_filter(table))
        if seq == 0:
            return 0
        if model is not None and model.holds(seq):
            return model.latest_round()
        event = await self._store.get(seq)
        if event is None:
            raise StoreError(f"round-started event {seq} of {table} vanished")
        return parse_event_subject(event.subject)[2]

    async def _caught_up(self, table: str) -> TableReadModel:
        model = self._models.get(table)
        latest = await self._latest(table, model)
        if latest == 0:  # no round played (or no such table): nothing to show, nothing kept
            return TableReadModel(table)
        if model is None or latest - model.latest_round() > RECALL_DEPTH:
            model = await self._load(table, latest)
        else:
            model.extend(await self._store.read(f"sicbo.evt.{table}.>", after_seq=model.mark))
            if model.missing():
                model = await self._load(table, latest)
        model.trim()
        self._models[table] = model
        return model

    async def _load(self, table: str, latest: int) -> TableReadModel:
        """A model of ``table`` read from the log, bounded to the rounds the answers need."""
        span = FIRST_READ
        while True:
            lowest = max(1, latest - span + 1)
            start = await self._store.last_sequence(_started_filter(table, str(lowest)))
            if start == 0:
                raise StoreError(f"round {lowest} of {table} has no round-started event")
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
        model.extend(await self._store.read(f"sicbo.evt.{table}.>", after_seq=start_seq - 1))
        log.info(
            "board loaded %s: rounds %s..%s, full from %s, as of %s",
            table,
            model.lowest,
            model.latest_round(),
            full_from,
            model.mark,
        )
        return model
