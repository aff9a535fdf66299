"""The board service: the statistics board (004) and game recall (AGCO 13.1) of every table,
request/reply on ``sicbo.qry.<table>.stats`` and ``sicbo.qry.<table>.recall`` (queue group
``board``, any number of replicas).

Design: the queries are answered by reading the table's log, with a small per-table read
model caught up incrementally (:mod:`sicbo.board.queries`), not from a read model kept in the
``sicbo-readmodels`` KV bucket by a durable consumer. Why:

- Recall shows every wager of ten rounds: a KV value is bounded (1 MB by default) and a busy
  round has thousands of wagers, so it would need a key per round and per part, written by a
  consumer that must be provisioned, acknowledged, kept in order and recovered after a crash:
  a second copy of the log to keep right. The log already answers both questions directly,
  and the answer is always as fresh as the log (no consumer lag to explain to a player).
- The work is bounded: a table is loaded from the lifecycle filter (the last rounds' lifecycle
  events) and the histories of the rounds recall needs, never the whole log; afterwards each
  query reads only what the table gained since the previous one, and folds again only the
  rounds that changed. A restarted process simply loads again; replicas share nothing.
- Folds are the ones settlement and replay use (:class:`~sicbo.settlement.facts.TableLog`
  facts, :func:`~sicbo.replay.history.read_tables`), so the board can never disagree with
  the settlement about what a round's outcome was.

It declares nothing and appends nothing. Queries are served concurrently (the shell's follower
keeps each table), as commands are by the shell's listener.
"""

from __future__ import annotations

from faststream import FastStream

from sicbo.board.queries import BoardQueries
from sicbo.shell.bootstrap import Runtime, service_app
from sicbo.shell.listener import QueryHandler
from sicbo_contracts.subjects import RECALL_QUERY, STATS_QUERY, queries_of

SERVICE = "board"


def app(nats_url: str) -> FastStream:
    def queries(runtime: Runtime) -> dict[str, QueryHandler]:
        board = BoardQueries(runtime.store)
        return {queries_of(STATS_QUERY): board.on_stats, queries_of(RECALL_QUERY): board.on_recall}

    return service_app(SERVICE, nats_url, queries=queries)
