"""What the log holds and what a writer expects: the records the event store hands out."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from sicbo_contracts.subjects import subject_matches

# Headers Direct Get adds to every reply: they describe the reply, not the stored message.
DIRECT_META = frozenset(
    {
        "Nats-Stream",
        "Nats-Subject",
        "Nats-Sequence",
        "Nats-Time-Stamp",
        "Nats-Num-Pending",
        "Nats-Last-Sequence",
    }
)


#: Which events' headers a bulk read parses (:meth:`~.store.EventStore.read`): every one
#: (True), none (False: left empty), or those whose subject the function accepts (a reader
#: that reads the headers of a few kinds of event; parsing them is a third of a read's CPU).
HeadersWanted = bool | Callable[[str], bool]


@dataclass(frozen=True, slots=True)
class Expect:
    """What the writer saw: the last stream sequence matching ``filter_subject``.

    ``last_sequence=0`` means "nothing on that filter yet" (e.g. a round's first settlement).
    """

    filter_subject: str
    last_sequence: int


@dataclass(frozen=True, slots=True)
class Appended:
    """Where an append landed; ``duplicate`` when the msg id was already stored."""

    seq: int
    duplicate: bool = False


@dataclass(frozen=True, slots=True)
class BatchMessage:
    """One message of an atomic batch: its own msg id (None: not deduplicated) and headers."""

    subject: str
    data: bytes
    msg_id: str | None = None
    headers: Mapping[str, str] | None = None


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One message of the log, as stored (headers are the publisher's, incl. Nats-Msg-Id)."""

    seq: int
    subject: str
    data: bytes
    headers: dict[str, str]
    time: datetime


_DIRECT_META = DIRECT_META  # the name the contracts' test reads


def last_seq_on(events: Sequence[StoredEvent], filter_subject: str) -> int:
    """The last sequence among ``events`` matching ``filter_subject`` (0 if none).

    Lets a writer take its expectation from the history it decided on (one snapshot) even when
    the read filter is wider than the expectation filter.
    """
    for event in reversed(events):
        if subject_matches(event.subject, filter_subject):
            return event.seq
    return 0


def parse_headers(raw: bytes) -> dict[str, str]:
    """Parse a stored ``NATS/1.0`` header block (as STREAM.MSG.GET returns it, base64)."""
    lines = raw.decode(errors="replace").split("\r\n")
    out: dict[str, str] = {}
    for line in lines[1:]:
        key, sep, value = line.partition(":")
        if sep:
            out[key.strip()] = value.strip()
    return out


def stored_from_direct_get(data: bytes, hdrs: Mapping[str, str]) -> StoredEvent:
    return StoredEvent(
        seq=int(hdrs["Nats-Sequence"]),
        subject=hdrs["Nats-Subject"],
        data=data,
        headers={k: v for k, v in hdrs.items() if k not in DIRECT_META},
        # RFC 3339 with nanoseconds; Python 3.11 parses it and keeps microseconds.
        time=datetime.fromisoformat(hdrs["Nats-Time-Stamp"]),
    )
