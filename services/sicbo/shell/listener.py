"""The command subscription: nats-py directly, with the trace context carried by hand.

Why not a FastStream subscriber: measured on the project machine, a FastStream request/reply
subscriber answers about 1,500 trivial requests/s (700 with its telemetry middleware), where
nats-py answers 13,000; the command path is the floor's hot path (every bet slip). FastStream
still runs the service (lifecycle, signals, the settlement consumer, queries); this listener
does for commands what ``NatsTelemetryMiddleware`` does: a consumer span that continues the
caller's trace, so the events appended under it carry the same trace id.
"""

import asyncio
import logging
from collections.abc import Awaitable, Callable

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from opentelemetry import trace

from sicbo.infra.replies import answer, misdirected
from sicbo.infra.telemetry import consumer_span
from sicbo.shell.codec import encode, peek_command_id
from sicbo.shell.commands import CommandHandler
from sicbo_contracts.replies import Rejected
from sicbo_contracts.subjects import commands_of, parse_command_subject

log = logging.getLogger(__name__)


class CommandListener:
    def __init__(
        self,
        nc: NATS,
        handler: CommandHandler[object],
        service: str,
        tracer: trace.Tracer,
        *,
        max_in_flight: int,
    ) -> None:
        self._nc = nc
        self._handler = handler
        self._service = service
        self._tracer = tracer
        #: Whether spans are recorded (an SDK tracer): the pass-through one of a process that
        #: exports nothing (sicbo.infra.telemetry) only carries a caller's context on.
        self._records = not isinstance(tracer, trace.NoOpTracer)
        self._span_name = f"{commands_of(service)} process"
        self._slots = asyncio.Semaphore(max_in_flight)
        self._in_flight: set[asyncio.Task[None]] = set()
        self._sub: Subscription | None = None

    async def start(self) -> None:
        # A queue group: each command goes to one replica of the service, from any sender
        # (the subject's last token: who sent it, checked by the handler).
        self._sub = await self._nc.subscribe(
            commands_of(self._service), queue=self._service, cb=self._on_msg
        )

    @property
    def subscribed(self) -> bool:
        """Taking commands: subscribed, and not stopped."""
        return self._sub is not None

    async def stop(self, timeout: float) -> None:
        """Stop taking commands, then let the ones in hand finish (graceful shutdown; at most
        ``timeout`` s: their server may be gone)."""
        if self._sub is not None:
            await self._sub.unsubscribe()
            self._sub = None
        if self._in_flight:
            await asyncio.wait(set(self._in_flight), timeout=timeout)

    async def _on_msg(self, msg: Msg) -> None:
        if misdirected(msg):  # an answer that would land on a stream: not even decided
            return
        # nats-py awaits this callback before delivering the next message: hand the work to a
        # task so commands of other tables (and pipelined slips) run concurrently, bounded.
        await self._slots.acquire()
        task = asyncio.create_task(self._serve(msg))
        self._in_flight.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self._in_flight.discard(task)
        self._slots.release()

    async def _serve(self, msg: Msg) -> None:
        if msg.headers is None and not self._records:
            # No span would be recorded and the caller sent no context to carry on: the
            # span would be the empty one, so none is started (the hot path: every slip).
            reply = await self._answer(msg)
        else:
            with consumer_span(self._tracer, self._span_name, msg.subject, msg.headers):
                reply = await self._answer(msg)
        await answer(msg, reply)

    async def _answer(self, msg: Msg) -> bytes:
        try:
            return await self._reply(msg)
        except Exception as err:  # a bug must not kill the listener, nor leave the caller
            log.exception("command on %s failed", msg.subject)
            return encode(
                Rejected(
                    command_id=peek_command_id(msg.data),
                    code="internal",
                    reason=f"the {self._service} service failed on this command ({err!r});"
                    " nothing was appended unless a retry says duplicate",
                    reason_key="http.internal",
                )
            )

    async def _reply(self, msg: Msg) -> bytes:
        parsed = parse_command_subject(msg.subject)
        if parsed is None or parsed.service != self._service:  # not under the subscription
            return encode(
                Rejected(
                    command_id=peek_command_id(msg.data),
                    code="invalid",
                    reason=f"{msg.subject} is not a {self._service} command subject"
                    f" ({commands_of(self._service, '<sender>', '<table>')})",
                )
            )
        return await self._handler.handle_raw(msg.data, parsed.table, parsed.sender)


#: Answers one query message (it responds itself).
QueryHandler = Callable[[Msg], Awaitable[None]]


class Concurrent:
    """Query subscriptions whose messages are each handed to a task (nats-py awaits a
    callback before the next message), at most ``max_in_flight`` at once."""

    def __init__(self, max_in_flight: int) -> None:
        self._slots = asyncio.Semaphore(max_in_flight)
        self._tasks: set[asyncio.Task[None]] = set()
        self._subs: list[Subscription] = []

    @property
    def subscriptions(self) -> int:
        return len(self._subs)

    async def subscribe(self, nc: NATS, subject: str, queue: str, handler: QueryHandler) -> None:
        async def on_msg(msg: Msg) -> None:
            if misdirected(msg):
                return
            await self._slots.acquire()
            task = asyncio.create_task(self._run(handler, msg))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        self._subs.append(await nc.subscribe(subject, queue=queue, cb=on_msg))

    async def _run(self, handler: QueryHandler, msg: Msg) -> None:
        try:
            await handler(msg)
        except Exception as err:  # a bug must not leave the caller without an answer
            log.exception("query on %s failed", msg.subject)
            reason = f"the query on {msg.subject} failed ({err!r}); ask again later"
            failed = Rejected(
                command_id=None, code="internal", reason=reason, reason_key="http.internal"
            )
            await answer(msg, encode(failed))
        finally:
            self._slots.release()

    async def stop(self, timeout: float) -> None:
        """Stop taking queries, then let the ones in hand finish (at most ``timeout`` s)."""
        for sub in self._subs:
            await sub.unsubscribe()
        self._subs.clear()
        if self._tasks:
            await asyncio.wait(set(self._tasks), timeout=timeout)
