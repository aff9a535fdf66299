"""What a stored event is, for the audit of the log: its type, its owner, its decoded body (pure).

Every event type belongs to one aggregate, whose service alone appends it (DESIGN.md "The
services"; the same unions name each writer's subjects in ``sicbo.infra.nats_accounts``):
the lifecycle's and the dice's events on ``lc``, wager intake's on ``bets``, settlement's on
``settle``, illumination's on ``lamp``. :data:`OWNER` says which, by the event's type tag.

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
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.illumination import IlluminationEvent
from sicbo_contracts.lifecycle import LifecycleEvent
from sicbo_contracts.settlement import SettlementEvent, WagersSettled
from sicbo_contracts.subjects import Aggregate
from sicbo_contracts.wagers import WagerEvent

_UNIONS: tuple[tuple[Aggregate, Any], ...] = (
    (Aggregate.LIFECYCLE, LifecycleEvent),
    (Aggregate.LIFECYCLE, DiceEvent),  # the result belongs to the round (DESIGN.md "lc")
    (Aggregate.BETS, WagerEvent),
    (Aggregate.SETTLE, SettlementEvent),
    (Aggregate.LAMP, IlluminationEvent),
)

#: Event type tag -> the aggregate whose subjects it is appended on.
OWNER: dict[str, Aggregate] = {
    tag_of(cls): aggregate for aggregate, union in _UNIONS for cls in get_args(union)
}


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
    PartKeys if cls is WagersSettled else cls for _, union in _UNIONS for cls in get_args(union)
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
