"""The command path of every service: decode, load state, decide, append, reply.

Guarantees (DESIGN.md invariants), all enforced by the server, not by this process:
- one writer wins: the append expects the aggregate's last sequence the decision was made on;
- each command takes effect once: the command id is the ``Nats-Msg-Id`` and is recorded on
  every event, so a retry is answered "duplicate" and appends nothing.
"""

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar

import msgspec

from sicbo.decider import Refused
from sicbo.eventstore.errors import AppendConflict, StoreError
from sicbo.eventstore.retry import retry_on_conflict
from sicbo.eventstore.store import EventStore, Expect
from sicbo.shell.aggregates import Aggregates
from sicbo.shell.codec import encode, invalid_input, peek_command_id, subject_of, tag_of
from sicbo.shell.headers import COMMAND_ID
from sicbo_contracts.base import Command, Event
from sicbo_contracts.replies import Accepted, Rejected, Reply
from sicbo_contracts.subjects import Aggregate, aggregate_filter

S = TypeVar("S")
log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
Hook = Callable[[Sequence[Event]], Awaitable[None]]


@dataclass(frozen=True)
class DeciderSpec(Generic[S]):
    """A service's pure core, as the shell needs it."""

    service: str
    aggregate: Aggregate  # where its events are appended
    command_type: Any  # the union of commands the service accepts
    event_type: Any  # the union of events its state evolves on
    initial: Callable[[str], S]
    evolve: Callable[[S, Any], S]
    decide: Callable[[S, Any, datetime], Sequence[Event]]
    #: The aggregates whose events the state is folded from (default: its own).
    reads: frozenset[Aggregate] = frozenset()
    #: The filter every append's expectation is stated on (default: its own aggregate).
    expects_on: Aggregate | None = None
    #: The Nats-Msg-Id of a command's append (default: "<table>/<command id>"). A decider may
    #: key it on what the command changes (a slip's version), so that of two different
    #: commands changing the same thing, the server stores one.
    msg_id_of: Callable[[S, Any], str] | None = None
    #: Decide one command per table at a time in this process. Commands that move the table
    #: (lifecycle) would otherwise mostly conflict with each other; bet slips don't (their
    #: expectation is on the lifecycle), so wager intake pipelines them.
    one_at_a_time: bool = True

    def read_filter(self, table: str) -> str:
        aggregates = self.reads or frozenset({self.aggregate})
        if len(aggregates) == 1:
            return aggregate_filter(table, next(iter(aggregates)))
        return f"sicbo.evt.{table}.>"  # the decoder skips the aggregates it does not read

    def expect_filter(self, table: str) -> str:
        return aggregate_filter(table, self.expects_on or self.aggregate)

    def decodes(self, subject: str) -> bool:
        aggregates = self.reads or frozenset({self.aggregate})
        return subject.split(".", 4)[3] in aggregates


class CommandHandler(Generic[S]):
    def __init__(
        self,
        spec: DeciderSpec[S],
        store: EventStore,
        clock: Clock,
        *,
        before_append: Hook | None = None,
    ) -> None:
        self.spec = spec
        self._store = store
        self._clock = clock
        self._before_append = before_append
        self._decode = msgspec.json.Decoder(spec.command_type).decode
        self.aggregates: Aggregates[S] = Aggregates(
            store,
            filter_of=spec.read_filter,
            expect_filter_of=spec.expect_filter,
            initial=spec.initial,
            evolve=spec.evolve,
            event_type=spec.event_type,
            decodes=spec.decodes,
        )

    async def handle_raw(self, raw: bytes, subject_table: str | None = None) -> bytes:
        return encode(await self.handle(raw, subject_table))

    async def handle(self, raw: bytes, subject_table: str | None = None) -> Reply:
        try:
            command: Command = self._decode(raw)
        except msgspec.DecodeError as err:
            return invalid_input(err, peek_command_id(raw))
        if subject_table is not None and command.table != subject_table:
            return Rejected(
                command_id=command.command_id,
                code="invalid",
                reason=f"command for table {command.table!r} sent on table {subject_table!r}",
                field="$.table",
            )
        try:
            if self.spec.one_at_a_time:
                async with self.aggregates.lock(command.table):
                    return await retry_on_conflict(lambda: self._attempt(command), attempts=8)
            return await retry_on_conflict(lambda: self._attempt(command), attempts=8)
        except Refused as refused:
            return Rejected(command_id=command.command_id, code=refused.code, reason=refused.reason)
        except AppendConflict:
            return Rejected(
                command_id=command.command_id,
                code="conflict",
                reason="the table kept changing while deciding; send the same command again",
            )
        except (StoreError, TimeoutError) as err:
            log.exception("event store unavailable")
            return Rejected(
                command_id=command.command_id,
                code="unavailable",
                reason=f"event store unavailable ({err}); send the same command again",
            )

    async def _attempt(self, command: Command) -> Reply:
        """One read-decide-append cycle; an AppendConflict makes the caller run it again."""
        table, command_id = command.table, command.command_id
        loaded = await self.aggregates.load(table)
        # One consistent snapshot: nothing below may await before these are read.
        state, expect_seq, last_seq = loaded.state, loaded.expect_seq, loaded.last_seq
        if command_id in loaded.commands:
            return Accepted(command_id=command_id, seq=loaded.commands[command_id], duplicate=True)
        events = self.spec.decide(state, command, self._clock())
        if not events:
            return Accepted(command_id=command_id, seq=last_seq)
        if self._before_append is not None:
            await self._before_append(events)
        expect = Expect(self.spec.expect_filter(table), expect_seq)
        msg_id = (
            self.spec.msg_id_of(state, command)
            if self.spec.msg_id_of
            else f"{table}/{command_id}"  # the server dedupes stream-wide: name the table
        )
        headers = {COMMAND_ID: command_id}
        items = [(subject_of(e, self.spec.aggregate), encode(e)) for e in events]
        if len(items) == 1:
            subject, data = items[0]
            appended = await self._store.append(
                subject, data, expect=expect, msg_id=msg_id, headers=headers
            )
            if appended.duplicate:
                if await self._stored_by_other_command(appended.seq, command_id):
                    # Another command took this msg id first: decide again on fresh state.
                    raise AppendConflict(
                        filter_subject=expect.filter_subject,
                        expected=expect.last_sequence,
                        err_code=0,
                        description=f"msg id {msg_id} taken by another command",
                    )
                return Accepted(command_id=command_id, seq=appended.seq, duplicate=True)
            seq = appended.seq
        else:
            batch = await self._store.append_batch(
                items, expect=expect, msg_id=msg_id, headers=headers
            )
            seq = batch[-1].seq
        return Accepted(command_id=command_id, events=[tag_of(e) for e in events], seq=seq)

    async def _stored_by_other_command(self, seq: int, command_id: str) -> bool:
        stored = await self._store.get(seq)
        return stored is not None and stored.headers.get(COMMAND_ID) != command_id
