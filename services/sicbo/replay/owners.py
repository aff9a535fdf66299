"""What a stored event is, for the audit of the log: its type, its owner, its decoded body (pure).

Every event type belongs to one aggregate, whose service alone appends it:
:data:`sicbo_contracts.owners.OWNER` says which, by the event's type tag, and
:func:`sicbo_contracts.owners.misfiled` whether an event is where its writer appends it (the
same judgement the services' readers skip by, :mod:`sicbo.shell.quarantine`).

:func:`read_event` decodes a stored message as any event of the floor, told apart by its own
``type`` tag (never by its subject, which the audit checks against the body). A settlement
part is read as :class:`PartKeys`: its wagers' keys only, since the audit needs to know which
wagers it pays, not what (the payouts are the settlement audit's, :mod:`.audit`).
"""

from __future__ import annotations

import functools
import operator
from typing import Any, get_args

import msgspec

from sicbo_contracts.base import DECODE_ERRORS, Actor, Time, tag_of
from sicbo_contracts.owners import OWNER, UNIONS
from sicbo_contracts.settlement import WagersSettled

#: OWNER is sicbo_contracts.owners' (one table of owners), read here by the audit.
__all__ = ["OWNER", "TAG_OF", "PartKeys", "WagerKey", "read_event"]


class WagerKey(msgspec.Struct, frozen=True):
    slip_id: str
    index: int


class PartKeys(
    msgspec.Struct, frozen=True, kw_only=True, tag=tag_of(WagersSettled), tag_field="type"
):
    """A WagersSettled read for the keys of the wagers it settles."""

    table: str
    actor: Actor
    at: Time
    round: int
    part: int
    wagers: list[WagerKey]


class _Type(msgspec.Struct):
    type: str = ""


_CLASSES: tuple[Any, ...] = tuple(
    PartKeys if cls is WagersSettled else cls for _, union in UNIONS for cls in get_args(union)
)
#: The type tag of each class :func:`read_event` gives.
TAG_OF: dict[type, str] = {cls: tag_of(cls) for cls in _CLASSES}
#: Any event of the floor, by its ``type`` tag (a tagged union of every class above).
_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(functools.reduce(operator.or_, _CLASSES))
_type = msgspec.json.Decoder(_Type)


def read_event(data: bytes) -> tuple[Any | None, str]:
    """The event stored as ``data``, or None and why it cannot be read: a type this version of
    the contracts does not know (no one of the floor writes it), or a body its type refuses."""
    try:
        return _decoder.decode(data), ""
    except DECODE_ERRORS as error:
        try:
            tag = _type.decode(data).type
        except DECODE_ERRORS:
            return (
                None,
                f"it is not an event of the contracts (not a JSON object with a type: {error})",
            )
        if tag not in OWNER:
            return (
                None,
                f"its type {tag!r} is none of the floor's event types: no service writes it",
            )
        return None, f"it does not decode as {tag}: {error}"
