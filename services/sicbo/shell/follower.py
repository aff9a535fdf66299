"""The one way the floor reads its log: per-key state caught up from the last sequence read.

Every service that folds the log (a decider's state, settlement, the board, the bet history,
the results feed, the layout lamps, the gateway's views) keeps its state in a
:class:`Follower`. Before it acts, it asks for the key's state (a table, or any filter the
key names) and the follower reads only what the log gained since the last read: one read of
one filter, in log order, each stored event decoded and folded by the reader's ``evolve``, or
skipped the one way (:mod:`sicbo.shell.quarantine`: a type this version does not know, an
entry that does not decode or is not where its writer appends it).

What a reader may rely on:

- the state is a fold of a consistent prefix of the log: the events read are every event of
  the filter up to some sequence, never one without those before it;
- with ``consistent=True`` (or ``at_least=seq``) that prefix reaches what the stream leader
  holds on the filter (or the event ``seq``): in a cluster a history read may be answered by
  a lagging replica, and no reader may act on its partial view. :class:`BehindLeader` is
  raised when it still does not after a few reads; a reacting service redelivers the event;
- reads of one key are single-flight: callers arriving during a catch-up share it;
- with ``max_age`` a caller may take a key's state without a read while it was whole as of a
  read begun less than ``max_age`` ago and holds every append this process made for the key
  (folded without a read by :meth:`Follower.advance` where nothing else can lie between, or
  read); otherwise it reads. What it may miss is what others stored since that read: only for
  a writer whose appends state what they expect, so that none lands on a state that moved
  where its expectation looks, and which decides again on a fresh read after a refusal;
- ``lock(key)`` serialises a process's decide-and-append cycles on one key;
- an ``evolve`` that raises leaves no state behind: the key is read afresh next time.

Forgetting old rounds is the state's own business (``trim``, called after each catch-up), so
a long-running service's memory stays bounded by what it still needs.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from sicbo.eventstore.errors import StoreError
from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.shell.quarantine import admitted
from sicbo_contracts.subjects import (
    Aggregate,
    EventSubject,
    aggregate_filter,
    parse_event_subject,
)

S = TypeVar("S")
log = logging.getLogger(__name__)

#: Keys whose state a follower keeps (the least recently read beyond are read again).
MAX_KEYS = 10_000
#: Reads of a key before :class:`BehindLeader` (each answered by a lagging replica).
CONSISTENT_READS = 5
#: Seconds between those reads: a lagging replica usually catches up within milliseconds.
LAGGING_PAUSE = 0.05

#: Folds one stored event into the state: ``evolve(state, stored, decoded event)``.
Evolve = Callable[[S, StoredEvent, Any], S]


class BehindLeader(StoreError):
    """The reads answered kept ending before what the stream leader holds: not acted on."""


@dataclass
class Followed(Generic[S]):
    """A key's state and the last stream sequence read on its filter."""

    state: S
    last_seq: int = 0
    #: When the state was last known whole (the clock's seconds): the start of its last read.
    whole_at: float = float("-inf")
    #: This process's appends not in the state yet, by first sequence: (last sequence, fold).
    #: Each is folded once the state reaches the sequence before it (a read under way ended,
    #: or the append before it was folded), or dropped once a read holds it; the state is
    #: taken without a read only while there is none.
    unfolded: dict[int, tuple[int, Callable[[S], S]]] = field(default_factory=dict)


@dataclass(frozen=True)
class Start(Generic[S]):
    """Where a key's state begins: an initial state and the sequence it already reflects."""

    state: S
    after_seq: int = 0


class Follower(Generic[S]):
    """Keeps each key's state caught up with the log (see the module's docstring).

    ``filter_of(key)`` is the subject filter read; ``wants(subject)`` says which of its events
    are decoded with ``decoder`` and folded (the rest only move the read mark); ``decoder``
    None folds the raw stored event (``evolve`` gets None as the event). ``on_stored`` sees
    every message read, folded or not (bookkeeping by sequence or header, such as the last
    sequence on an expectation filter). ``start(key)`` (async) overrides where a new key
    begins: a read model bounded to recent rounds."""

    def __init__(
        self,
        store: EventStore,
        name: str,
        filter_of: Callable[[str], str],
        initial: Callable[[str], S],
        evolve: Evolve[S],
        *,
        decoder: msgspec.json.Decoder[Any] | None = None,
        wants: Callable[[EventSubject], bool] | None = None,
        on_stored: Callable[[S, StoredEvent], None] | None = None,
        start: Callable[[str], Awaitable[Start[S]]] | None = None,
        trim: Callable[[S], None] | None = None,
        max_keys: int = MAX_KEYS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._store = store
        self.name = name
        self.filter_of = filter_of
        self._initial = initial
        self._evolve = evolve
        self._decoder = decoder
        self._wants = wants
        self._on_stored = on_stored
        self._start = start
        self._trim = trim
        self._max_keys = max_keys
        self._clock = clock
        #: The keys' states, least recently read first (the oldest go beyond ``max_keys``).
        self._followed: OrderedDict[str, Followed[S]] = OrderedDict()
        #: A key's lock lives while someone holds or waits for it, not for every id ever asked.
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._reading: dict[str, asyncio.Future[Followed[S]]] = {}

    def lock(self, key: str) -> asyncio.Lock:
        """Serialises one process's decide-and-append cycles on ``key``."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        return lock

    @property
    def keys_kept(self) -> int:
        return len(self._followed)

    def forget(self, key: str) -> None:
        """Drop the key's state: the next ``get`` reads it from its start again."""
        self._followed.pop(key, None)

    def read_next_time(self, key: str) -> None:
        """The next ``get`` of ``key`` reads first, whatever ``max_age`` (an append of this
        process whose outcome is unknown, a timeout: it may be stored)."""
        followed = self._followed.get(key)
        if followed is not None:
            followed.whole_at = float("-inf")

    def peek(self, key: str) -> Followed[S] | None:
        """The key's state as last read, without reading (None if never read)."""
        return self._followed.get(key)

    async def get(
        self, key: str, *, consistent: bool = False, at_least: int = 0, max_age: float = 0.0
    ) -> Followed[S]:
        """The key's state caught up with the log; with ``max_age``, as it was known whole less
        than ``max_age`` seconds ago, without a read (see the module's docstring).

        Read the fields of the result before the next ``await``: they move on."""
        if max_age > 0 and not consistent and not at_least:
            kept = self._followed.get(key)
            if (
                kept is not None
                and key not in self._reading
                and not kept.unfolded  # it holds every append of this process
                and self._clock() - kept.whole_at < max_age
            ):
                self._followed.move_to_end(key)
                return kept
        need = at_least
        if consistent:
            need = max(need, await self._store.last_sequence(self.filter_of(key)))
        for attempt in range(CONSISTENT_READS):
            followed = await self._caught_up(key)
            if followed.last_seq >= need:
                return followed
            await asyncio.sleep(LAGGING_PAUSE * (attempt + 1))
        raise BehindLeader(
            f"{self.name}: reads of {self.filter_of(key)} end at {followed.last_seq}, the"
            f" stream leader holds {need}"
        )

    def advance(self, key: str, first_seq: int, last_seq: int, fold: Callable[[S], S]) -> bool:
        """Fold what this process itself just appended (stream sequences ``first_seq`` to
        ``last_seq``) without reading it back, once nothing can lie between: the key's state
        reaches ``first_seq - 1`` (the stream's sequence just before, so no event of any
        filter is in between). While a read of the key is under way, or an earlier append of
        this process is not folded yet, it waits for them; where another writer's event lies
        between, the next read reads it. True when it is folded now."""
        followed = self._followed.get(key)
        if followed is None:
            return False  # nothing kept: the next read reads it from the start
        followed.unfolded[first_seq] = (last_seq, fold)
        if key not in self._reading:
            self._fold_own(key, followed)
        return followed.last_seq >= last_seq

    def _fold_own(self, key: str, followed: Followed[S]) -> None:
        """Fold the key's own appends that follow on its state; drop those a read holds."""
        pending = followed.unfolded
        while pending:
            first = min(pending)
            last, fold = pending[first]
            if last <= followed.last_seq:
                del pending[first]  # a read folded it as it folds any event
                continue
            if first != followed.last_seq + 1:
                return  # something may lie between: the next read reads it
            del pending[first]
            try:
                followed.state = fold(followed.state)
            except Exception:
                self._followed.pop(key, None)  # never go on from a state that missed an event
                raise
            followed.last_seq = last

    async def _caught_up(self, key: str) -> Followed[S]:
        reading = self._reading.get(key)
        if reading is None:
            reading = asyncio.ensure_future(self._read(key))
            self._reading[key] = reading
            reading.add_done_callback(lambda _: self._reading.pop(key, None))
        return await asyncio.shield(reading)

    async def _read(self, key: str) -> Followed[S]:
        followed = self._followed.get(key)
        if followed is None:
            if self._start is not None:
                begun = await self._start(key)
                followed = Followed(begun.state, begun.after_seq)
            else:
                followed = Followed(self._initial(key))
            self._followed[key] = followed
        self._followed.move_to_end(key)
        read_at = self._clock()  # the read holds at least what was stored before it began
        stored = await self._store.read(self.filter_of(key), after_seq=followed.last_seq)
        try:
            for e in stored:
                if self._on_stored is not None:
                    self._on_stored(followed.state, e)
                followed.state = self._fold(followed.state, e)
                followed.last_seq = e.seq
        except Exception:
            # Never go on from a state that missed an event: start afresh next time.
            self._followed.pop(key, None)
            raise
        followed.whole_at = read_at
        self._fold_own(key, followed)  # this process's appends acknowledged during the read
        if self._trim is not None:
            self._trim(followed.state)
        if followed.last_seq == 0:
            # Nothing in the log for this key (a table never opened, an id anyone may type):
            # nothing is kept for it, so memory is not a function of the ids asked about.
            self._followed.pop(key, None)
        while len(self._followed) > self._max_keys:
            self._followed.popitem(last=False)  # read again from its start if asked again
        return followed

    def _fold(self, state: S, e: StoredEvent) -> S:
        if self._wants is not None:
            subject = parse_event_subject(e.subject)
            if subject is None or not self._wants(subject):
                return state
        if self._decoder is None:
            return self._evolve(state, e, None)
        event = admitted(self.name, e, self._decoder)  # or skipped: sicbo.shell.quarantine
        if event is None:
            return state
        return self._evolve(state, e, event)


def aggregate_follower(
    store: EventStore,
    aggregate: Aggregate,
    event_type: Any,
    initial: Callable[[str], S],
    evolve: Callable[[S, Any], S],
) -> Follower[S]:
    """A read model of one aggregate of each table (its events of ``event_type``), folded by a
    decider's own ``evolve(state, event)``: the gateway's views, the demo's lifecycles."""

    def fold(state: S, _: StoredEvent, event: Any) -> S:
        return evolve(state, event)

    def filter_of(table: str) -> str:
        return aggregate_filter(table, aggregate)

    name = f"{aggregate.value} of {getattr(initial, '__name__', 'a read model')}"
    return Follower(store, name, filter_of, initial, fold, decoder=msgspec.json.Decoder(event_type))
