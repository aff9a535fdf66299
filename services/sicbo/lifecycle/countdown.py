"""The online betting countdown (004 "Cara Bermain"): closes betting by itself, across restarts.

A deadline is written to the ``sicbo-timers`` KV bucket *before* the ``BettingOpened`` event
is appended, so no stored countdown can be lost by a crash between the two; a deadline whose
event never got stored just fires a CloseBetting that the decider refuses, and is dropped.
Every replica schedules every deadline; they all send the same command id, so it applies once.
Wager intake also refuses any slip timed at or after ``closes_at``: the timer is not what keeps
late bets out, the log is.

A suspension pauses the countdown and its resumption sets a new deadline (``BettingResumed``,
004 "Ralat Pengendalian"): each deadline has its own key and command id, and its CloseBetting
names the deadline, so the superseded one, when it fires, is refused and closes nothing.
"""

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import msgspec
from nats.aio.client import Client as NATS
from nats.js.errors import KeyNotFoundError, NoKeysError
from nats.js.kv import KeyValue

from sicbo.shell.bootstrap import Runtime
from sicbo.shell.commands import Hook
from sicbo_contracts.access import ServiceAccount
from sicbo_contracts.base import DECODE_ERRORS, Actor, Event, Role
from sicbo_contracts.lifecycle import BettingOpened, CloseBetting
from sicbo_contracts.replies import Rejected
from sicbo_contracts.resumption import BettingResumed
from sicbo_contracts.subjects import TIMERS_BUCKET

log = logging.getLogger(__name__)

COUNTDOWN_ACTOR = Actor(id=ServiceAccount.COUNTDOWN.value, role=Role.SERVICE)
#: Seconds between watches of the bucket when one fails.
WATCH_RETRY_SECONDS = 1.0
#: A due countdown is sent again at this pace until the log takes it (a server restart, a
#: busy table), and each try is bounded: betting closes within a try of the server's return.
RETRY_SECONDS = 0.1
ATTEMPT_SECONDS = 1.0


class Deadline(msgspec.Struct, frozen=True):
    table: str
    round: int
    closes_at: datetime


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _millis(at: datetime) -> int:
    return (at - _EPOCH) // timedelta(milliseconds=1)


def key_of(deadline: Deadline) -> str:
    """One key per deadline: a resumed round's new deadline is scheduled beside the old one."""
    return f"{deadline.table}.{deadline.round}.{_millis(deadline.closes_at)}"


def command_id_of(deadline: Deadline) -> str:
    """The same for every replica and every try of one deadline; another for the next one."""
    return f"countdown-{deadline.table}-{deadline.round}-{_millis(deadline.closes_at)}"


def record_deadlines(nc: NATS) -> Hook:
    """The shell's before-append hook: store each new countdown deadline (betting opened, or
    resumed after a suspension)."""

    async def hook(events: Sequence[Event]) -> None:
        for evt in events:
            if isinstance(evt, BettingOpened | BettingResumed) and evt.closes_at is not None:
                kv = await nc.jetstream().key_value(TIMERS_BUCKET)
                deadline = Deadline(table=evt.table, round=evt.round, closes_at=evt.closes_at)
                await kv.put(key_of(deadline), msgspec.json.encode(deadline))

    return hook


class Countdown:
    """Watches the timers bucket and closes betting when a deadline passes."""

    def __init__(self, runtime: Runtime) -> None:
        self._rt = runtime
        self._scheduled: dict[str, asyncio.Task[None]] = {}
        self._watcher: asyncio.Task[None] | None = None

    async def start(self) -> None:
        kv = await self._rt.nc.jetstream().key_value(TIMERS_BUCKET)
        # The watcher first replays every key in the bucket (the deadlines that survived a
        # restart), then every new one as it is put.
        watcher = await kv.watchall(ignore_deletes=True)
        self._watcher = asyncio.create_task(self._watch(kv, watcher))

    async def stop(self) -> None:
        tasks = [*self._scheduled.values(), *([self._watcher] if self._watcher else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _watch(self, kv: KeyValue, watcher: object) -> None:
        """Schedule every deadline put in the bucket; if the watch fails, watch again (it
        replays the whole bucket, and scheduled keys are not scheduled twice)."""
        while True:
            try:
                async for entry in watcher:  # type: ignore[attr-defined]
                    self._schedule(kv, entry)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("countdown watch failed; watching again")
            await asyncio.sleep(WATCH_RETRY_SECONDS)
            with contextlib.suppress(Exception):
                watcher = await kv.watchall(ignore_deletes=True)

    def _schedule(self, kv: KeyValue, entry: KeyValue.Entry | None) -> None:
        if entry is None or entry.value is None or entry.operation is not None:
            return  # end of the initial replay, or a delete/purge marker
        try:
            deadline = msgspec.json.decode(entry.value, type=Deadline)
        except DECODE_ERRORS:
            log.error("bad deadline under %s: %r", entry.key, entry.value)
            return
        if entry.key not in self._scheduled:
            self._scheduled[entry.key] = asyncio.create_task(self._fire(kv, entry.key, deadline))

    async def _fire(self, kv: KeyValue, key: str, deadline: Deadline) -> None:
        try:
            await self._close(kv, key, deadline)
        except asyncio.CancelledError:
            raise
        except Exception:
            # Left in the bucket: the next start of any lifecycle replica fires it again, and
            # wager intake refuses late slips by the deadline meanwhile.
            log.exception("countdown %s failed", key)
        finally:
            self._scheduled.pop(key, None)

    async def _close(self, kv: KeyValue, key: str, deadline: Deadline) -> None:
        delay = (deadline.closes_at - self._rt.clock()).total_seconds()
        if delay > 0:
            await asyncio.sleep(delay)
        command = CloseBetting(
            command_id=command_id_of(deadline),
            table=deadline.table,
            actor=COUNTDOWN_ACTOR,
            round=deadline.round,
            closes_at=deadline.closes_at,  # refused if a resumption superseded it (004)
        )
        assert self._rt.handler is not None  # the lifecycle serves commands
        raw = msgspec.json.encode(command)
        while True:
            if not self._rt.nc.is_connected:  # a request now would wait out its timeout
                await asyncio.sleep(RETRY_SECONDS / 2)
                continue
            try:
                # The same command id every try: a try cut short that was stored is a duplicate.
                reply = await asyncio.wait_for(
                    self._rt.handler.handle(
                        raw,
                        deadline.table,
                        ServiceAccount.COUNTDOWN,  # 004 "Cara Bermain": the lifecycle to itself
                        in_process=True,
                    ),
                    ATTEMPT_SECONDS,
                )
            except TimeoutError:
                reply = None
            except Exception:
                # Not an answer of the log (a connection lost mid-try, say): giving up here
                # would leave the round open until a replica restarts, so try again.
                log.exception("countdown %s: a try failed; trying again", key)
                await asyncio.sleep(WATCH_RETRY_SECONDS)
                continue
            if reply is None or (
                isinstance(reply, Rejected) and reply.code in ("unavailable", "conflict")
            ):
                await asyncio.sleep(RETRY_SECONDS)
                continue
            break
        if isinstance(reply, Rejected):
            # Closed by hand, never opened, or paused or superseded by a suspension (004).
            log.info("countdown %s: %s", key, reply.reason)
        with contextlib.suppress(KeyNotFoundError, NoKeysError):
            await kv.delete(key)
