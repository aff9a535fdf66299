"""Replies to commands (request/reply on ``sicbo.cmd.<table>.<service>.<sender>``)."""

from typing import Annotated

import msgspec
from msgspec import Meta

from sicbo_contracts.base import Id


class Accepted(msgspec.Struct, frozen=True, kw_only=True, tag="accepted.v1", tag_field="type"):
    command_id: Id
    #: The event types appended (empty for a duplicate).
    events: list[str] = []
    #: Stream sequence of the last event appended, or of the original for a duplicate.
    seq: Annotated[int, Meta(ge=0)] = 0
    #: True when the same command id was already applied: nothing new happened.
    duplicate: bool = False


class Rejected(msgspec.Struct, frozen=True, kw_only=True, tag="rejected.v1", tag_field="type"):
    """The command changed nothing. ``code`` is stable for programs, ``reason`` for people."""

    command_id: str | None
    code: str  # "invalid" | "refused" | "conflict" | "forbidden" | "unavailable"
    reason: str
    #: Where in the command (e.g. "$.dice[1]"; "$.actor.role" for a role the sender lacks).
    field: str | None = None
    #: Since 1.3: the reason as a stable message key ("round.not-completed") and its
    #: parameters, for a page to write it in its reader's language; ``reason`` stays the
    #: English for programs and logs. None where the reason has no key yet.
    reason_key: str | None = None
    #: The message's parameters: numbers (a round; an amount in minor units, named ``amount``
    #: or ``..._amount``) or words (a time, ISO 8601, named ``..._at``).
    reason_params: dict[str, int | str] = {}


Reply = Accepted | Rejected
