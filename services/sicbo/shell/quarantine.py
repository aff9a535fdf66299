"""What a reader of a stream does with an entry it cannot use: the one way, for every reader.

The floor's streams store whatever their writers publish, and a writer may be buggy, forged or
compromised: an entry that does not decode, whose type is not its subject's
(:func:`sicbo_contracts.owners.misfiled`), that names another table or round, or a reply-shaped
message. Folding it would give a state what no decider decided (a ``round.completed.v1`` body
on a bets subject left a round unsettled); failing on it would retry for ever (a
``rejected.v1`` on settlement's subject wedged a table). So every reader skips it, here:

- it is left out of the state, which is then what the log says without it;
- it is counted (:data:`QUARANTINED`, by reader) and named in the process's log once, with
  its stream sequence, its subject and why (no traceback, nothing retried): a reader that
  reads it again (a key read afresh, another round read alone) says nothing more;
- it still moves the reader's mark: the entry is read, once.

Nothing is hidden by it: ``sicbo replay verify`` names every such entry (check ``subject`` or
``contract``) and every round it leaves unsettled.
"""

from __future__ import annotations

import logging
from collections import Counter, OrderedDict
from typing import TypeVar

import msgspec

from sicbo.eventstore.records import StoredEvent
from sicbo_contracts.base import DECODE_ERRORS
from sicbo_contracts.owners import OWNER, misfiled
from sicbo_contracts.subjects import EventSubject, parse_event_subject, token

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Entries skipped in this process, by reader (every skip, named or not).
QUARANTINED: Counter[str] = Counter()
#: How many skipped entries a process remembers having named (per subject and sequence).
REMEMBERED = 10_000
_named: OrderedDict[tuple[str, int], None] = OrderedDict()


def skip(reader: str, subject: str, seq: int, why: str) -> None:
    """Leave the entry ``seq`` on ``subject`` out of ``reader``'s state: counted, named once
    per process."""
    QUARANTINED[reader] += 1
    key = (subject, seq)
    if key in _named:
        return
    _named[key] = None
    if len(_named) > REMEMBERED:
        _named.popitem(last=False)
    log.warning(
        "%s skips entry %s on %s: %s (left out; sicbo replay verify names it)",
        reader,
        seq,
        subject,
        why,
    )


class _Type(msgspec.Struct):
    type: str = ""


_type = msgspec.json.Decoder(_Type)


def _floors_own(parsed: EventSubject, data: bytes) -> bool:
    """Whether ``data`` is typed as one of the floor's events, on its owner's subject of its
    own type (then it is a valid entry, of a type some other reader folds)."""
    try:
        tag = _type.decode(data).type
    except DECODE_ERRORS:
        return False
    return OWNER.get(tag) is parsed.aggregate and token(tag) == parsed.token


def admitted(reader: str, stored: StoredEvent, decoder: msgspec.json.Decoder[T]) -> T | None:
    """The event ``stored`` holds, decoded, if it belongs where it is stored; None (skipped)
    when it does not decode as one of the reader's types or is misfiled. Subjects that are
    not the floor's event subjects (a player's account, the feed) are judged by decoding."""
    return admit(reader, stored.subject, stored.seq, stored.data, decoder)


def admit(
    reader: str, subject: str, seq: int, data: bytes, decoder: msgspec.json.Decoder[T]
) -> T | None:
    """:func:`admitted` of an entry given by its parts (a consumer's job: subject, sequence
    and body)."""
    parsed = parse_event_subject(subject)
    try:
        event = decoder.decode(data)
    except DECODE_ERRORS as error:
        if parsed is not None and _floors_own(parsed, data):
            return None  # an event of the floor this reader does not fold: not its business
        skip(reader, subject, seq, f"it does not decode as an event this reader knows: {error}")
        return None
    if parsed is not None and getattr(event, "table", None) is not None:
        why = misfiled(parsed, event)
        if why:
            skip(reader, subject, seq, "; ".join(why))
            return None
    return event
