"""Per-table decider state, kept by the shell's :class:`~sicbo.shell.follower.Follower`.

Any replica may serve any table: before deciding, a replica reads only what was appended after
the sequence it last saw, and its append states that sequence as its expectation, so a stale
replica is refused by the server and simply reads again.
"""

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.shell.follower import Follower
from sicbo.shell.headers import COMMAND_DIGEST, COMMAND_ID, COMMAND_SERVICE
from sicbo_contracts.subjects import EventSubject, parse_event_subject, subject_matches

S = TypeVar("S")

#: How many recent command ids a table remembers for duplicate replies; older retries are
#: still caught by the stream's duplicate window and the decider's own rules.
REMEMBERED_COMMANDS = 10_000


@dataclass
class Loaded(Generic[S]):
    table: str
    state: S
    expect_filter: str  # the filter an append's expectation is stated on
    last_seq: int = 0  # the last event read: where the next catch-up starts
    expect_seq: int = 0  # the last event on the expectation filter: what an append expects
    #: This service's recent command ids -> (stream sequence, digest of the command).
    commands: OrderedDict[str, tuple[int, str]] = field(default_factory=OrderedDict)


class Aggregates(Generic[S]):
    """A decider's state per table, with what the command path needs beside it: the last
    sequence on the expectation filter and the command ids this service already applied."""

    def __init__(
        self,
        store: EventStore,
        *,
        filter_of: Callable[[str], str],
        expect_filter_of: Callable[[str], str],
        initial: Callable[[str], S],
        evolve: Callable[[S, Any], S],
        event_type: Any,
        service: str,
        decodes: Callable[[EventSubject], bool] | None = None,
    ) -> None:
        self._service = service
        self._evolve = evolve
        self._decodes = decodes
        self._decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(event_type)

        def fold(loaded: Loaded[S], _: StoredEvent, event: Any) -> Loaded[S]:
            loaded.state = evolve(loaded.state, event)
            return loaded

        self.follower: Follower[Loaded[S]] = Follower(
            store,
            service,
            filter_of,
            lambda table: Loaded(table, initial(table), expect_filter_of(table)),
            fold,
            decoder=self._decoder,
            wants=decodes,
            on_stored=self._note,
        )

    def lock(self, table: str) -> asyncio.Lock:
        """Serialises one process's commands per table, so they don't race each other."""
        return self.follower.lock(table)

    async def load(self, table: str, *, max_age: float = 0.0) -> Loaded[S]:
        """The table's state caught up with the log (``max_age``: or as it was whole that
        recently, :meth:`Follower.get`).

        Catch-ups are single-flight: commands arriving while one runs share it instead of each
        reading again, so concurrent commands pipeline. The state may then lag by what was
        appended meanwhile; the append's expectation catches that, and the command is decided
        again. Read the fields of the result before the next ``await``: they move on.
        """
        return (await self.follower.get(table, max_age=max_age)).state

    def appended(
        self,
        table: str,
        seqs: tuple[int, int],
        events: Sequence[tuple[str, bytes]],
        command: tuple[str, str],
    ) -> None:
        """What this replica just appended for a command (``events``: subject and data as
        stored, at the consecutive sequences ``seqs``, first and last; ``command``: its id and
        digest), folded without reading it back when nothing else can lie in between
        (:meth:`Follower.advance`); otherwise the next load reads it as any other event. Each
        event is folded as a read would fold it: decoded from the bytes stored, and only if
        the state reads its aggregate."""

        def fold(loaded: Loaded[S]) -> Loaded[S]:
            state = loaded.state
            for subject, data in events:
                parsed = parse_event_subject(subject)
                if self._decodes is None or (parsed is not None and self._decodes(parsed)):
                    state = self._evolve(state, self._decoder.decode(data))
            loaded.state = state  # the bookkeeping of :meth:`_note`, for these events
            loaded.last_seq = seqs[1]
            for seq, (subject, _) in enumerate(events, start=seqs[0]):
                if subject_matches(subject, loaded.expect_filter):
                    loaded.expect_seq = seq
            loaded.commands[command[0]] = (seqs[1], command[1])
            if len(loaded.commands) > REMEMBERED_COMMANDS:
                loaded.commands.popitem(last=False)
            return loaded

        self.follower.advance(table, seqs[0], seqs[1], fold)

    def _note(self, loaded: Loaded[S], stored: StoredEvent) -> None:
        """Every message read, folded or not: the read mark, the expectation, command ids."""
        loaded.last_seq = stored.seq
        if subject_matches(stored.subject, loaded.expect_filter):
            loaded.expect_seq = stored.seq
        command_id = stored.headers.get(COMMAND_ID)
        if command_id and stored.headers.get(COMMAND_SERVICE) == self._service:
            loaded.commands[command_id] = (stored.seq, stored.headers.get(COMMAND_DIGEST, ""))
            if len(loaded.commands) > REMEMBERED_COMMANDS:
                loaded.commands.popitem(last=False)
