"""JSON on the wire: one encoder, command digests, and clear errors for bad input."""

import hashlib
import re
from typing import Any

import msgspec

from sicbo_contracts.base import DECODE_ERRORS
from sicbo_contracts.replies import Rejected

encoder = msgspec.json.Encoder()
encode = encoder.encode

_FIELD = re.compile(r"at `(\$[^`]*)`")
#: msgspec names a missing or unknown field in the message, beside the object's path (none
#: for the top level): ``Object missing required field `bet` - at `$.wagers[0]```.
_NAMED_FIELD = re.compile(r"^Object (?:missing required|contains unknown) field `([^`]*)`")


def digest(command: Any) -> str:
    """Of the decoded command re-encoded (field order is fixed), so a retry matches even if the
    client's JSON differs in spacing or key order."""
    return hashlib.blake2b(encode(command), digest_size=16).hexdigest()


def invalid_input(
    err: Exception, command_id: str | None = None, *, what: str = "command"
) -> Rejected:
    """A clear error for bad input: what is wrong and where (``$.dice[2]``)."""
    field = None
    if isinstance(err, UnicodeDecodeError):
        reason = f"malformed JSON ({what}): not UTF-8 ({err.reason} at byte {err.start})"
    elif isinstance(err, RecursionError):
        reason = f"malformed JSON ({what}): nested too deeply"
    elif isinstance(err, msgspec.ValidationError):
        reason = f"invalid {what}: {err}"
    else:
        reason = f"malformed JSON ({what}): {err}"
    if isinstance(err, msgspec.ValidationError):
        field = field_of(str(err))
    elif isinstance(err, msgspec.DecodeError):
        match = _FIELD.search(str(err))
        field = match.group(1) if match else None
    # No message key: the English names the field and what it expects, for whoever wrote the
    # request (the pages check what people type, in their own words, before sending it).
    return Rejected(command_id=command_id, code="invalid", reason=reason, field=field)


def field_of(message: str) -> str:
    """The field a validation error is about: its path, and a missing or unknown field's name
    below it (``$.wagers[0].bet``); ``$`` when the value as a whole is wrong (an array)."""
    match = _FIELD.search(message)
    path = match.group(1) if match else "$"
    named = _NAMED_FIELD.match(message)
    return f"{path}.{named.group(1)}" if named else path


def peek_command_id(raw: bytes) -> str | None:
    """The command id of a command that failed validation, if one can be read at all."""
    try:
        value: Any = msgspec.json.decode(raw)
    except DECODE_ERRORS:
        return None
    if isinstance(value, dict) and isinstance(value.get("command_id"), str):
        return str(value["command_id"])
    return None
