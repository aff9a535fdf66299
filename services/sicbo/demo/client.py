"""A terminal's view of the floor: send commands, read a table's log. Used by the simulator,
the benchmarks and scripts; it speaks only NATS, as any client would."""

import uuid
from collections.abc import Mapping
from typing import Any

import msgspec
from nats.aio.client import Client as NATS

from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.lifecycle.decider import LifecycleState, evolve, initial_state
from sicbo.shell.follower import aggregate_follower
from sicbo_contracts.base import Role
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.lifecycle import LifecycleEvent
from sicbo_contracts.replies import Reply
from sicbo_contracts.routing import command_subject
from sicbo_contracts.subjects import EVENT_STREAM, Aggregate

_reply = msgspec.json.Decoder(Reply)


def new_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:16]}"


class FloorClient:
    """``nc`` reads the log and sends the commands; ``senders`` (a role: its connection) send
    the commands of their role instead, each as a NATS user allowed to send as that role only
    (``sicbo run``: the dealer's commands as ``dealer``, a player's through a user that may
    send as a player)."""

    def __init__(
        self,
        nc: NATS,
        *,
        timeout: float = 10.0,
        senders: Mapping[Role, NATS] | None = None,
        store: EventStore | None = None,
    ) -> None:
        self.nc = nc
        self.senders = dict(senders or {})
        # The floor's log: SICBO unless given (a partitioned one: sicbo.eventstore.layout).
        self.store = store if store is not None else EventStore(nc, EVENT_STREAM)
        self.timeout = timeout
        # Each table's lifecycle caught up from the last sequence read, as the services do.
        self._lifecycles = aggregate_follower(
            self.store, Aggregate.LIFECYCLE, LifecycleEvent | DiceEvent, initial_state, evolve
        )

    async def send(self, cmd: Any) -> Reply:
        """To the owning service, on the subject of the sender the actor's role is: the NATS
        user this client connects as must be allowed to send as that role."""
        nc = self.senders.get(cmd.actor.role, self.nc)
        msg = await nc.request(command_subject(cmd), msgspec.json.encode(cmd), timeout=self.timeout)
        reply: Reply = _reply.decode(msg.data)
        return reply

    async def lifecycle(self, table: str) -> LifecycleState:
        """The table's lifecycle now: only what was appended since the last read is read (a
        demo table polled for hours would otherwise be read whole, many times a second)."""
        state: LifecycleState = (await self._lifecycles.get(table)).state
        return state

    async def events(self, subject_filter: str) -> list[StoredEvent]:
        return await self.store.read(subject_filter)
