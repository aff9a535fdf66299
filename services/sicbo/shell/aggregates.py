"""Per-table decider state kept in memory and caught up from the log before each decision.

Any replica may serve any table: before deciding, a replica reads only what was appended after
the sequence it last saw, and its append states that sequence as its expectation, so a stale
replica is refused by the server and simply reads again.
"""

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import msgspec

from sicbo.eventstore.store import EventStore, subject_matches
from sicbo.shell.headers import COMMAND_DIGEST, COMMAND_ID, COMMAND_SERVICE

S = TypeVar("S")
log = logging.getLogger(__name__)

#: How many recent command ids a table remembers for duplicate replies; older retries are
#: still caught by the stream's duplicate window and the decider's own rules.
REMEMBERED_COMMANDS = 10_000


@dataclass
class Loaded(Generic[S]):
    state: S
    last_seq: int = 0  # the last event read: where the next catch-up starts
    expect_seq: int = 0  # the last event on the expectation filter: what an append expects
    #: This service's recent command ids -> (stream sequence, digest of the command).
    commands: OrderedDict[str, tuple[int, str]] = field(default_factory=OrderedDict)


class Aggregates(Generic[S]):
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
        decodes: Callable[[str], bool] = lambda subject: True,
    ) -> None:
        self._store = store
        self._service = service
        self._filter_of = filter_of
        self._expect_filter_of = expect_filter_of
        self._decodes = decodes
        self._initial = initial
        self._evolve = evolve
        self._decoder = msgspec.json.Decoder(event_type)
        self._cache: dict[str, Loaded[S]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._refreshing: dict[str, asyncio.Future[None]] = {}

    def lock(self, table: str) -> asyncio.Lock:
        """Serialises one process's commands per table, so they don't race each other."""
        return self._locks.setdefault(table, asyncio.Lock())

    async def load(self, table: str) -> Loaded[S]:
        """The table's state caught up with the log.

        Catch-ups are single-flight: commands arriving while one runs share it instead of each
        reading again, so concurrent commands pipeline. The state may then lag by what was
        appended meanwhile; the append's expectation catches that, and the command is decided
        again. Read the fields of the result before the next ``await``: they move on.
        """
        loaded = self._cache.get(table)
        if loaded is None:
            loaded = self._cache[table] = Loaded(self._initial(table))
        refreshing = self._refreshing.get(table)
        if refreshing is None:
            refreshing = asyncio.ensure_future(self._catch_up(table, loaded))
            self._refreshing[table] = refreshing
            refreshing.add_done_callback(lambda _: self._refreshing.pop(table, None))
        await asyncio.shield(refreshing)
        return loaded

    async def _catch_up(self, table: str, loaded: Loaded[S]) -> None:
        expect_filter = self._expect_filter_of(table)
        for stored in await self._store.read(self._filter_of(table), after_seq=loaded.last_seq):
            if self._decodes(stored.subject):
                try:
                    evt = self._decoder.decode(stored.data)
                except msgspec.DecodeError:
                    # Forward compatibility: an event type this version doesn't know is skipped.
                    log.warning("skipping undecodable event %s on %s", stored.seq, stored.subject)
                else:
                    try:
                        loaded.state = self._evolve(loaded.state, evt)
                    except Exception:
                        # Never go on from a state that missed an event: start afresh next time.
                        self._cache.pop(table, None)
                        raise
            loaded.last_seq = stored.seq
            if subject_matches(stored.subject, expect_filter):
                loaded.expect_seq = stored.seq
            command_id = stored.headers.get(COMMAND_ID)
            if command_id and stored.headers.get(COMMAND_SERVICE) == self._service:
                loaded.commands[command_id] = (stored.seq, stored.headers.get(COMMAND_DIGEST, ""))
                if len(loaded.commands) > REMEMBERED_COMMANDS:
                    loaded.commands.popitem(last=False)
