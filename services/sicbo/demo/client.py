"""A terminal's view of the floor: send commands, read a table's log. Used by the simulator,
the benchmarks and scripts; it speaks only NATS, as any client would."""

import uuid
from typing import Any

import msgspec
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore, StoredEvent
from sicbo.lifecycle.decider import LifecycleState, evolve, initial_state
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.lifecycle import LifecycleEvent
from sicbo_contracts.replies import Reply
from sicbo_contracts.routing import SERVICE_OF_TAG
from sicbo_contracts.subjects import EVENT_STREAM, Aggregate, aggregate_filter, command

_reply = msgspec.json.Decoder(Reply)
_lc_event = msgspec.json.Decoder(LifecycleEvent | DiceEvent)


def new_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:16]}"


class FloorClient:
    def __init__(self, nc: NATS, *, timeout: float = 10.0) -> None:
        self.nc = nc
        self.store = EventStore(nc, EVENT_STREAM)
        self.timeout = timeout
        #: Each table's lifecycle as last read, and the sequence it was read up to.
        self._lifecycles: dict[str, tuple[LifecycleState, int]] = {}

    async def send(self, cmd: Any) -> Reply:
        service = SERVICE_OF_TAG[type(cmd).__struct_config__.tag]
        msg = await self.nc.request(
            command(cmd.table, service), msgspec.json.encode(cmd), timeout=self.timeout
        )
        reply: Reply = _reply.decode(msg.data)
        return reply

    async def lifecycle(self, table: str) -> LifecycleState:
        """The table's lifecycle now: only what was appended since the last read is read (a
        demo table polled for hours would otherwise be read whole, many times a second)."""
        state, last_seq = self._lifecycles.get(table, (initial_state(table), 0))
        filter_subject = aggregate_filter(table, Aggregate.LIFECYCLE)
        for stored in await self.store.read(filter_subject, after_seq=last_seq):
            state = evolve(state, _lc_event.decode(stored.data))
            last_seq = stored.seq
        self._lifecycles[table] = (state, last_seq)
        return state

    async def events(self, subject_filter: str) -> list[StoredEvent]:
        return await self.store.read(subject_filter)
