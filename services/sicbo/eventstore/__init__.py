"""Event store adapter on NATS JetStream: the floor's system of record."""

from sicbo.eventstore.errors import AppendConflict, DuplicateBatch, StoreError
from sicbo.eventstore.retry import retry_on_conflict
from sicbo.eventstore.store import (
    Appended,
    EventStore,
    Expect,
    StoredEvent,
    last_seq_on,
    subject_matches,
)

__all__ = [
    "AppendConflict",
    "Appended",
    "DuplicateBatch",
    "EventStore",
    "Expect",
    "StoreError",
    "StoredEvent",
    "last_seq_on",
    "retry_on_conflict",
    "subject_matches",
]
