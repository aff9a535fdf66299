"""Read the public results back: the last N from a stream, then each one as it comes.

Uses only what a partner may use (deploy/nats/README.md): a subscription to
``sicbo.results.<table>`` (or ``sicbo.results.>``) and Direct Get on a results stream (the
floor's ``SICBO_RESULTS``, or the partners' own copy), so ``sicbo results tail`` works with a
partner's credentials as well as on the floor.

The subscription is made before the history is read, so nothing falls between the two; a
message seen twice (in the history and live, or a repeat) is dropped by its identity, the
table and ``source_seq``. Heartbeats (``sicbo.results.<table>.heartbeat``, matched by
``sicbo.results.>``) are not results: they are left out here.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from collections.abc import Callable

import msgspec
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from sicbo.eventstore.errors import StoreError
from sicbo.eventstore.store import EventStore
from sicbo_contracts.base import DECODE_ERRORS
from sicbo_contracts.results import FeedMessage, PublicResult, RoundResult

log = logging.getLogger(__name__)

decoder = msgspec.json.Decoder(PublicResult)
#: Anything on ``sicbo.results.>``: a result or a heartbeat.
any_decoder: msgspec.json.Decoder[FeedMessage] = msgspec.json.Decoder(FeedMessage)


def only_results(messages: list[FeedMessage]) -> list[RoundResult]:
    return [m for m in messages if isinstance(m, RoundResult)]


#: Identities remembered to drop repeats (a repeat arrives close to its original).
REMEMBER = 10_000


class Seen:
    """The identities of the last :data:`REMEMBER` results, to drop repeats."""

    def __init__(self, size: int = REMEMBER) -> None:
        self._keys: OrderedDict[tuple[str, int], None] = OrderedDict()
        self._size = size

    def first_time(self, result: RoundResult) -> bool:
        key = (result.table, result.source_seq)
        if key in self._keys:
            return False
        self._keys[key] = None
        if len(self._keys) > self._size:
            self._keys.popitem(last=False)
        return True


async def last_sequence(nc: NATS, stream: str, subject_filter: str, timeout: float = 5.0) -> int:
    """The stream sequence of the last message on ``subject_filter`` (0 if none), by Direct
    Get: a partner may read its copy that way but not call ``STREAM.MSG.GET``."""
    body = json.dumps({"last_by_subj": subject_filter}).encode()
    reply = await nc.request(f"$JS.API.DIRECT.GET.{stream}", body, timeout=timeout)
    headers = reply.headers or {}
    status = headers.get("Status")
    if status == "404":
        return 0
    if status:
        raise StoreError(f"Direct Get on {stream} failed: {status} {headers.get('Description')}")
    return int(headers["Nats-Sequence"])


async def last_results(nc: NATS, stream: str, subject_filter: str, n: int) -> list[RoundResult]:
    """The last ``n`` results on ``subject_filter``, oldest first.

    Reads a window ending at the last message and widens it (x4) until it holds ``n`` matches
    or reaches the start of the stream: a busy table costs one read, a quiet one a few."""
    if n <= 0:
        return []
    last = await last_sequence(nc, stream, subject_filter)
    if last == 0:
        return []
    store = EventStore(nc, stream)
    window = n
    while True:
        start = max(1, last - window + 1)
        read = await store.read(subject_filter, after_seq=start - 1)
        found = only_results([any_decoder.decode(e.data) for e in read if e.seq <= last])
        if len(found) >= n or start == 1:
            return found[-n:]
        window *= 4


async def tail(
    nc: NATS,
    *,
    stream: str,
    subject_filter: str,
    last: int,
    emit: Callable[[RoundResult], None],
    count: int | None = None,
) -> None:
    """Emit the last ``last`` results, then each new one; return after ``count`` (or never)."""
    queue: asyncio.Queue[Msg] = asyncio.Queue()
    sub = await nc.subscribe(subject_filter, cb=queue.put)
    seen = Seen()
    emitted = 0
    try:
        for result in await last_results(nc, stream, subject_filter, last):
            if seen.first_time(result):
                emit(result)
                emitted += 1
                if count is not None and emitted >= count:
                    return
        while True:
            msg = await queue.get()
            try:
                message = any_decoder.decode(msg.data)
            except DECODE_ERRORS as exc:
                log.warning("not a result on %s: %s", msg.subject, exc)
                continue
            if isinstance(message, RoundResult) and seen.first_time(message):
                emit(message)
                emitted += 1
                if count is not None and emitted >= count:
                    return
    finally:
        await sub.unsubscribe()


def describe(result: RoundResult) -> str:
    """One line for people: ``T1 round 3 result 2 4 6 (12) wins: big, even, ...``."""
    head = f"{result.table} round {result.round} {result.status.value}"
    if result.dice is not None:
        head += f" {' '.join(map(str, result.dice))} ({result.total})"
    if result.corrects is not None:
        head += f" corrects {' '.join(map(str, result.corrects))}"
    if result.reason:
        head += f" [{result.reason}]"
    if result.winning_bets:
        head += f" wins: {', '.join(result.winning_bets)}"
    return f"{head}  @{result.recorded_at.isoformat()} #{result.source_seq}"
