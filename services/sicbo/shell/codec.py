"""JSON on the wire: one encoder, and the event tag <-> subject mapping."""

import hashlib
import re
from typing import Any

import msgspec

from sicbo_contracts.base import Event
from sicbo_contracts.replies import Rejected
from sicbo_contracts.subjects import TABLE_ROUND, Aggregate, event

encoder = msgspec.json.Encoder()
encode = encoder.encode

_FIELD = re.compile(r"at `(\$[^`]*)`")


def digest(command: Any) -> str:
    """Of the decoded command re-encoded (field order is fixed), so a retry matches even if the
    client's JSON differs in spacing or key order."""
    return hashlib.blake2b(encode(command), digest_size=16).hexdigest()


def tag_of(event_or_type: Event | type[Event]) -> str:
    cls = event_or_type if isinstance(event_or_type, type) else type(event_or_type)
    return str(cls.__struct_config__.tag)


def subject_of(evt: Event, aggregate: Aggregate) -> str:
    """Round events go under their round, table-level events under round 0."""
    round_no = getattr(evt, "round", None) or TABLE_ROUND
    return event(evt.table, aggregate, round_no, tag_of(evt))


def invalid_input(
    err: msgspec.DecodeError, command_id: str | None = None, *, what: str = "command"
) -> Rejected:
    """A clear error for bad input: what is wrong and where (``$.dice[2]``)."""
    text = str(err)
    match = _FIELD.search(text)
    if isinstance(err, msgspec.ValidationError):
        reason = f"invalid {what}: {text}"
    else:
        reason = f"malformed JSON ({what}): {text}"
    return Rejected(
        command_id=command_id,
        code="invalid",
        reason=reason,
        field=match.group(1) if match else None,
    )


def peek_command_id(raw: bytes) -> str | None:
    """The command id of a command that failed validation, if one can be read at all."""
    try:
        value: Any = msgspec.json.decode(raw)
    except msgspec.DecodeError:
        return None
    if isinstance(value, dict) and isinstance(value.get("command_id"), str):
        return str(value["command_id"])
    return None
