"""The feed's heartbeat: every table's last published result, every few seconds, so that
silence means something (docs/feed.md "Heartbeat").

Each interval the results service stores one :class:`~sicbo_contracts.results.FeedHeartbeat`
per table that has results, on ``sicbo.results.<table>.heartbeat`` in ``SICBO_RESULTS``:

- stored, so it takes the partners' path (the mirror ``RESULTS`` republishes it like a
  result): a heartbeat a partner receives proves the floor, the feed and the copy work;
- apart from ``sicbo.results.<table>``, whose last message the feed reads to know what it
  published (:func:`sicbo.results.feed.last_published`): a heartbeat never moves it;
- exact: it expects the table's results subject to end at the sequence it names
  (``Nats-Expected-Last-Subject-Sequence-Subject: sicbo.results.<table>``), so a result stored
  meanwhile makes it read again rather than name an older last result;
- short-lived: ``Nats-TTL`` of :data:`TTL_INTERVALS` intervals (the streams allow per-message
  TTL), so the stream keeps a table's last few heartbeats, not one per interval forever;
  ``max_msgs_per_subject`` would be per stream and cut the results' own history;
- once per interval whatever the replicas: its msg id names the table and the interval's
  number (wall-clock aligned), so replicas beating at once store it once.

The pure part takes the time as an argument; :class:`Heartbeats` is the loop around it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from nats.aio.client import Client as NATS

from sicbo.eventstore.errors import AppendConflict, StoreError
from sicbo.eventstore.records import Expect
from sicbo.eventstore.store import EventStore
from sicbo.results.feed import last_published
from sicbo.shell.codec import encode
from sicbo_contracts.results import FeedHeartbeat
from sicbo_contracts.subjects import RESULTS_STREAM, RESULTS_TABLES, heartbeat, results, table_of

log = logging.getLogger(__name__)

#: ``SICBO_RESULTS_HEARTBEAT_S``: whole seconds between a table's heartbeats.
INTERVAL_ENV = "SICBO_RESULTS_HEARTBEAT_S"
DEFAULT_INTERVAL_S = 5
#: A heartbeat lives this many intervals: the last ones stay readable by Direct Get.
TTL_INTERVALS = 3
#: Reads of a table's head per heartbeat (a result stored in between costs one).
ATTEMPTS = 3
TTL_HEADER = "Nats-TTL"
#: Tables whose heartbeats are made concurrently.
AT_ONCE = 16


def parse_interval(raw: str | None) -> int:
    """The heartbeat interval from its setting (unset or blank: the default)."""
    if raw is None or not raw.strip():
        return DEFAULT_INTERVAL_S
    text = raw.strip()
    if not text.isdigit() or int(text) < 1:
        raise ValueError(f"{INTERVAL_ENV} is a whole number of seconds >= 1, got {raw!r}")
    return int(text)


def beat_number(at: datetime, interval_s: int) -> int:
    """Which interval ``at`` falls in, counted from the epoch: the same on every replica."""
    return math.floor(at.timestamp()) // interval_s


def next_beat(at: datetime, interval_s: int) -> datetime:
    """When the interval after the one ``at`` falls in begins."""
    return datetime.fromtimestamp((beat_number(at, interval_s) + 1) * interval_s, UTC)


def ttl(interval_s: int) -> str:
    return f"{interval_s * TTL_INTERVALS}s"


def beat_msg_id(table: str, interval_s: int, number: int) -> str:
    """One id per table and interval, the same on every replica (with the same setting)."""
    return f"heartbeat-{table}-{interval_s}s-{number}"


def heartbeat_of(
    table: str, *, last_seq: int, last_source_seq: int, at: datetime, interval_s: int
) -> FeedHeartbeat:
    return FeedHeartbeat(
        table=table,
        last_seq=last_seq,
        last_source_seq=last_source_seq,
        at=at,
        interval_s=interval_s,
    )


class Heartbeats:
    """Stores each table's heartbeat once per interval (see the module's docstring)."""

    def __init__(
        self,
        nc: NATS,
        results_store: EventStore,
        clock: Callable[[], datetime],
        interval_s: int,
        *,
        stream: str = RESULTS_STREAM,
    ) -> None:
        self._nc = nc
        self._results = results_store
        self._clock = clock
        self.interval_s = interval_s
        self._stream = stream

    async def tables(self) -> list[str]:
        """Every table with a message on ``sicbo.results.<table>`` (STREAM.INFO, paged)."""
        found: list[str] = []
        while True:
            body = {"subjects_filter": RESULTS_TABLES, "offset": len(found)}
            info = await self._info(body)
            subjects = (info.get("state") or {}).get("subjects") or {}
            found += sorted(t for s in subjects if (t := table_of(s)) is not None)
            if not subjects or len(found) >= int(info.get("total", len(found))):
                return found

    async def beat(self) -> int:
        """One heartbeat of every table; returns how many were stored (not duplicates).

        :data:`AT_ONCE` tables at a time: a floor of many tables beats well within its
        interval, without a burst of requests the size of the floor."""
        at = self._clock()
        tables = await self.tables()
        stored = 0
        for start in range(0, len(tables), AT_ONCE):
            chunk = tables[start : start + AT_ONCE]
            stored += sum(await asyncio.gather(*(self.beat_table(t, at) for t in chunk)))
        return stored

    async def beat_table(self, table: str, at: datetime) -> int:
        number = beat_number(at, self.interval_s)
        for _ in range(ATTEMPTS):
            last_seq, last_source_seq = await last_published(self._results, table)
            message = heartbeat_of(
                table,
                last_seq=last_seq,
                last_source_seq=last_source_seq,
                at=at,
                interval_s=self.interval_s,
            )
            try:
                appended = await self._results.append(
                    heartbeat(table),
                    encode(message),
                    expect=Expect(results(table), last_seq),
                    msg_id=beat_msg_id(table, self.interval_s, number),
                    headers={TTL_HEADER: ttl(self.interval_s)},
                )
            except AppendConflict:
                continue  # a result was stored meanwhile: name that one
            return 0 if appended.duplicate else 1
        log.warning("no heartbeat of %s at %s: results kept arriving", table, at.isoformat())
        return 0

    async def run(self) -> None:
        """Beat at the start of every interval until cancelled; a failed beat is logged (its
        silence is what partners see) and the next one tried."""
        while True:
            now = self._clock()
            await asyncio.sleep((next_beat(now, self.interval_s) - now) / timedelta(seconds=1))
            try:
                await self.beat()
            except (StoreError, OSError, TimeoutError) as exc:
                log.error("heartbeat failed: %s", exc)
            except Exception:
                log.exception("heartbeat failed")

    async def _info(self, body: dict[str, Any]) -> dict[str, Any]:
        reply = await self._nc.request(
            f"$JS.API.STREAM.INFO.{self._stream}", json.dumps(body).encode(), timeout=5
        )
        info: dict[str, Any] = json.loads(reply.data)
        error = info.get("error")
        if error is not None:
            raise StoreError(f"STREAM.INFO {self._stream}: {error.get('description')}")
        return info
