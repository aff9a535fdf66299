"""The command path of every service: decode, check the sender, load state, decide, append,
reply.

Authority comes from the credential (DESIGN.md Roles): a command arrives on its sender's
subject (``sicbo.cmd.<table>.<service>.<sender>``, which only that sender's NATS users may
publish on), and is refused "forbidden" at ``$.actor.role`` when its actor's role is not the
sender's or the sender may not send its type (:func:`sicbo_contracts.access.refusal`), before
any state is read. Nothing is appended.

Guarantees (DESIGN.md invariants), all enforced by the server, not by this process:
- one writer wins: the append expects the aggregate's last sequence the decision was made on;
- each command takes effect once: the command id is the ``Nats-Msg-Id`` and is recorded on
  every event, so a retry is answered "duplicate" and appends nothing.
"""

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from sicbo.decider import Refused
from sicbo.eventstore.errors import AppendConflict, StoreError
from sicbo.eventstore.records import Expect
from sicbo.eventstore.retry import retry_on_conflict
from sicbo.eventstore.store import EventStore
from sicbo.shell.aggregates import Aggregates
from sicbo.shell.codec import digest, encode, invalid_input, peek_command_id
from sicbo.shell.headers import COMMAND_DIGEST, COMMAND_ID, COMMAND_SERVICE
from sicbo_contracts.access import refusal
from sicbo_contracts.accounts import PlayerAccountCommand, PlayerAccountEvent
from sicbo_contracts.base import DECODE_ERRORS, Command, Event, tag_of
from sicbo_contracts.replies import Accepted, Rejected, Reply
from sicbo_contracts.subjects import (
    EVENT_STREAM,
    Aggregate,
    EventSubject,
    aggregate_filter,
    subject_of,
    table_filter,
)

S = TypeVar("S")
log = logging.getLogger(__name__)

Clock = Callable[[], datetime]
#: Times a refusal is decided again because the stream leader held more of the table's log.
REFUSAL_RECHECKS = 2
#: A command of a table, or of a keyed aggregate (a player's account), and their events.
AnyCommand = Command | PlayerAccountCommand
AnyEvent = Event | PlayerAccountEvent
#: Sees a decision's events before they are appended (the lifecycle's countdown: its own).
Hook = Callable[[Sequence[Any]], Awaitable[None]]


class Escrow(Protocol):
    """Money a decision takes elsewhere before its events are appended (wager intake: the
    stakes from the player's account, :mod:`sicbo.wagers.wallet`). ``hold`` runs after each
    decision (raise ``Refused`` to refuse the command) and returns what it took; ``stored``
    runs once the events are stored; ``release`` gives back every hold of a command that ended
    without its events stored (refused on a fresher state, conflicted). When the store fails
    (the events may be stored or not) neither runs: a reconciler squares it later."""

    async def hold(self, state: Any, events: Sequence[Any]) -> Sequence[Any]: ...

    async def stored(self, state: Any, events: Sequence[Any]) -> None: ...

    async def release(self, held: Sequence[Any], why: str) -> None: ...


@dataclass
class _Holds:
    held: list[Any]
    stored: tuple[Any, Sequence[Any]] | None = None


@dataclass
class _Tries:
    """A command's read-decide-append cycles so far, and the refusals decided again."""

    cycles: int = 0
    rechecks: int = 0


@dataclass(frozen=True, kw_only=True)
class KeyedLog:
    """Where a decider's aggregate lives when it is not a table's: one aggregate per key (a
    player's account), on a stream of its own. Its commands still come on
    ``sicbo.cmd.<key>.<service>.<sender>`` and carry the key (``command.key``)."""

    stream: str
    #: Where an event is appended.
    subject_of: Callable[[Any], str]
    #: Every event of a key, in log order: what the state is folded from and what an append
    #: expects the last sequence of.
    filter_of: Callable[[str], str]


@dataclass(frozen=True, kw_only=True)
class DeciderSpec(Generic[S]):
    """A service's pure core, as the shell needs it."""

    service: str
    #: Where its events are appended: an aggregate of each table's log, or ``keyed``.
    aggregate: Aggregate | None = None
    keyed: KeyedLog | None = None
    command_type: Any  # the union of commands the service accepts
    event_type: Any  # the union of events its state evolves on
    initial: Callable[[str], S]
    evolve: Callable[[S, Any], S]
    decide: Callable[[S, Any, datetime], Sequence[AnyEvent]]
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
    #: Seconds a command's first try may be decided on the table's state without a catch-up
    #: read, while that state was whole as of a read begun so recently and holds every append
    #: of this process (:meth:`Follower.get` ``max_age``). It may miss what others stored
    #: since: the append's expectation refuses it where that matters, and every further try
    #: (a conflict, a refusal checked again) reads first. 0: every command reads first.
    reuse_state_for: float = 0.0

    def __post_init__(self) -> None:
        if (self.aggregate is None) is (self.keyed is None):
            raise ValueError(f"{self.service}: name either a table aggregate or a keyed log")

    @property
    def stream(self) -> str:
        return self.keyed.stream if self.keyed is not None else EVENT_STREAM

    def _own(self) -> Aggregate:
        if self.aggregate is None:
            raise AssertionError(f"{self.service} keeps a keyed log, not a table aggregate")
        return self.aggregate

    def read_filter(self, table: str) -> str:
        if self.keyed is not None:
            return self.keyed.filter_of(table)
        aggregates = self.reads or frozenset({self._own()})
        if len(aggregates) == 1:
            return aggregate_filter(table, next(iter(aggregates)))
        return table_filter(table)  # the decoder skips the aggregates it does not read

    def expect_filter(self, table: str) -> str:
        if self.keyed is not None:
            return self.keyed.filter_of(table)
        return aggregate_filter(table, self.expects_on or self._own())

    def decodes(self, subject: EventSubject) -> bool:
        return subject.aggregate in (self.reads or frozenset({self._own()}))

    def subject_of(self, event: Any) -> str:
        if self.keyed is not None:
            return self.keyed.subject_of(event)
        return subject_of(event, self._own())


class CommandHandler(Generic[S]):
    def __init__(
        self,
        spec: DeciderSpec[S],
        store: EventStore,
        clock: Clock,
        *,
        before_append: Hook | None = None,
        escrow: Escrow | None = None,
    ) -> None:
        self.spec = spec
        self._escrow = escrow
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
            service=spec.service,
            # A keyed log holds one aggregate only: every event of the filter is folded.
            decodes=spec.decodes if spec.keyed is None else None,
        )

    async def handle_raw(self, raw: bytes, subject_table: str, sender: str) -> bytes:
        """A command as it came over NATS, on ``subject_table``'s subject of ``sender``."""
        return encode(await self.handle(raw, subject_table, sender))

    async def handle(
        self, raw: bytes, subject_table: str, sender: str, *, in_process: bool = False
    ) -> Reply:
        """``in_process``: sent by the service to itself (the countdown), not over NATS."""
        try:
            command: AnyCommand = self._decode(raw)
        except DECODE_ERRORS as err:
            return invalid_input(err, peek_command_id(raw))
        if command.key != subject_table:
            what = "table" if self.spec.keyed is None else "player"
            return Rejected(
                command_id=command.command_id,
                code="invalid",
                reason=f"command for {what} {command.key!r} sent on {what} {subject_table!r}",
                field=f"$.{what}",
                reason_key="input.invalid",
            )
        # DESIGN.md Roles: authority comes from the credential (the subject), not the payload.
        why = refusal(sender, command.actor.role, tag_of(command), in_process=in_process)
        if why is not None:
            return Rejected(
                command_id=command.command_id,
                code="forbidden",
                reason=why,
                field="$.actor.role",
                reason_key="role.not-allowed",
            )
        holds = _Holds([])
        reply = await self._run(command, holds)
        if self._escrow is None:
            return reply
        try:
            if holds.stored is not None:
                await self._escrow.stored(*holds.stored)
            elif holds.held and isinstance(reply, Rejected) and reply.code != "unavailable":
                await self._escrow.release(holds.held, reply.reason)
        except (StoreError, TimeoutError, AppendConflict):
            # The command's reply stands; what is left is squared by the reconciler.
            log.exception("%s: escrow of %s left to the reconciler", self.spec.service, command)
        return reply

    async def _run(self, command: AnyCommand, holds: _Holds) -> Reply:
        tries = _Tries()
        try:
            if self.spec.one_at_a_time:
                async with self.aggregates.lock(command.key):
                    return await retry_on_conflict(
                        lambda: self._attempt(command, tries, holds), attempts=8
                    )
            return await retry_on_conflict(lambda: self._attempt(command, tries, holds), attempts=8)
        except Refused as refused:
            return Rejected(
                command_id=command.command_id,
                code=refused.code,
                reason=refused.reason,
                field=refused.field,
                reason_key=refused.key,
                reason_params=refused.params,
            )
        except AppendConflict:
            return Rejected(
                command_id=command.command_id,
                code="conflict",
                reason="the table kept changing while deciding; send the same command again",
                reason_key="command.conflict",
            )
        except (StoreError, TimeoutError) as err:
            # An append may be stored without its ack: the next command reads before deciding.
            self.aggregates.follower.read_next_time(command.key)
            log.exception("event store unavailable")
            return Rejected(
                command_id=command.command_id,
                code="unavailable",
                reason=f"event store unavailable ({err}); send the same command again",
                reason_key="command.unavailable",
            )

    async def _attempt(self, command: AnyCommand, tries: _Tries, holds: _Holds) -> Reply:
        """One read-decide-append cycle; an AppendConflict makes the caller run it again."""
        table, command_id = command.key, command.command_id
        fingerprint = digest(command)
        first_try = tries.cycles == 0  # only a first try may skip the catch-up read
        tries.cycles += 1
        loaded = await self.aggregates.load(
            table, max_age=self.spec.reuse_state_for if first_try else 0.0
        )
        # One consistent snapshot: nothing below may await before these are read.
        state, expect_seq, last_seq = loaded.state, loaded.expect_seq, loaded.last_seq
        known = loaded.commands.get(command_id)
        if known is not None:
            return self._seen_before(command_id, fingerprint, *known)
        try:
            events = self.spec.decide(state, command, self._clock())
        except Refused:
            # The state may predate this command: a catch-up shared with earlier commands, or
            # (in a cluster) a history read answered by a lagging replica. If the stream
            # leader has more of the table's log than we decided on, decide again first. Under
            # a flood the table's log always has more: a refusal decided again twice stands
            # ("refused", not "conflict": sending the same command again would not help).
            if tries.rechecks < REFUSAL_RECHECKS:
                leader = await self._store.last_sequence(self.spec.read_filter(table))
                if leader > last_seq:
                    tries.rechecks += 1
                    raise self._stale(table, expect_seq, "refused on a stale state") from None
            raise
        if not events:
            raise AssertionError(f"{self.spec.service}: a decision appended nothing")
        if self._before_append is not None:
            await self._before_append(events)
        if self._escrow is not None:
            holds.held.extend(await self._escrow.hold(state, events))
        expect = Expect(self.spec.expect_filter(table), expect_seq)
        msg_id = (
            self.spec.msg_id_of(state, command)
            if self.spec.msg_id_of
            # The server dedupes msg ids stream-wide: name the table and the service.
            else f"{table}/{self.spec.service}/{command_id}"
        )
        headers = {
            COMMAND_ID: command_id,
            COMMAND_SERVICE: self.spec.service,
            COMMAND_DIGEST: fingerprint,
        }
        items = [(self.spec.subject_of(e), encode(e)) for e in events]
        if len(items) == 1:
            subject, data = items[0]
            appended = await self._store.append(
                subject, data, expect=expect, msg_id=msg_id, headers=headers
            )
            if appended.duplicate:
                if not await self._stored_as(appended.seq, headers, table):
                    # Another command took this msg id first: decide again on fresh state.
                    raise self._stale(table, expect_seq, f"msg id {msg_id} taken")
                holds.stored = (state, events)
                return Accepted(command_id=command_id, seq=appended.seq, duplicate=True)
            seq = first = appended.seq
        else:
            batch = await self._store.append_batch(
                items, expect=expect, msg_id=msg_id, headers=headers
            )
            first, seq = batch[0].seq, batch[-1].seq
        # No read of what was just appended, where nothing can lie in between.
        self.aggregates.appended(table, (first, seq), items, (command_id, fingerprint))
        holds.stored = (state, events)
        return Accepted(command_id=command_id, events=[tag_of(e) for e in events], seq=seq)

    @staticmethod
    def _seen_before(command_id: str, fingerprint: str, seq: int, stored: str) -> Reply:
        if stored != fingerprint:
            return Rejected(
                command_id=command_id,
                code="invalid",
                reason=f"command id {command_id!r} was already used here (this table, or this"
                " account) for another command; make a new id for a new command",
                field="$.command_id",
                reason_key="command.id-reused",
            )
        return Accepted(command_id=command_id, seq=seq, duplicate=True)

    def _stale(self, table: str, expected: int, why: str) -> AppendConflict:
        return AppendConflict(
            filter_subject=self.spec.expect_filter(table),
            expected=expected,
            err_code=0,
            description=why,
        )

    async def _stored_as(self, seq: int, headers: dict[str, str], key: str) -> bool:
        """Whether the message at ``seq`` (of ``key``'s stream) was stored by this very command
        (a retry)."""
        stored = await self._store.get(seq, table=key)
        return stored is not None and all(stored.headers.get(k) == v for k, v in headers.items())
