"""Shared building blocks of every contract.

Conventions (DESIGN.md "Contracts"): frozen, keyword-only msgspec Structs; a union's members are
told apart by an explicit, versioned ``type`` tag (``round.started.v1``), never the class name;
money is an integer of minor units; dice are 1..6; ids are strings made by the caller. Events
ignore unknown fields (forward-compatible readers); commands refuse them.
"""

from datetime import datetime
from enum import StrEnum
from typing import Annotated, Any

import msgspec
from msgspec import Meta


class Role(StrEnum):
    DEALER = "dealer"  # runs the round, enters dice
    SUPERVISOR = "supervisor"  # no result, invalidation, corrections, limits, closures
    INSPECTOR = "inspector"  # clears an equipment fault (000 §7.7)
    OPERATOR = "operator"  # floor operator: opens tables, proposes paytables
    PLAYER = "player"
    SERVICE = "service"  # a service account: countdown timer, settlement, illumination, reader


def with_article(noun: str) -> str:
    """``noun`` after its English indefinite article, for refusals that name a role or a
    sender: "a dealer", "an operator", "an inspector"."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


#: Goes into subjects, so only characters that are safe in a NATS subject token.
TableId = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
Id = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.:@-]+$")]
RoundNo = Annotated[int, Meta(ge=1)]
Die = Annotated[int, Meta(ge=1, le=6)]
Dice = tuple[Die, Die, Die]
Money = Annotated[int, Meta(ge=0)]  # minor units
Stake = Annotated[int, Meta(ge=1)]  # minor units
Reason = Annotated[str, Meta(min_length=1, max_length=500)]
#: Times are timezone-aware; the shell supplies them, pure code never reads a clock.
Time = Annotated[datetime, Meta(tz=True)]


class Actor(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Who did it: every command names its actor, every event records it."""

    id: Id
    role: Role


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of every event: what table, who, and when (time supplied by the shell)."""

    table: TableId
    actor: Actor
    at: Time


class Command(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of every command: a client-made id (the idempotency key), the table and the actor."""

    command_id: Id
    table: TableId
    actor: Actor

    @property
    def key(self) -> str:
        """What the command is about, the token after ``sicbo.cmd.`` of its subject: its
        table (a player account's commands: the account, :mod:`.accounts`)."""
        return self.table


#: A bet kind of the catalogue (RULES.md): ``small``, ``triple``, ``any-triple``...
BetKindName = Annotated[str, Meta(pattern=r"^[a-z][a-z-]{0,23}$")]


class KindLimits(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A line of the sign for one bet kind (000 §4.1): its own minimum, maximum or both; a
    bound it leaves out is the sign's own."""

    minimum: Stake | None = None
    maximum: Stake | None = None


class Limits(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The table sign (000 §4.1)."""

    minimum: Stake
    maximum: Stake
    unit: Stake = 1  # the minimum unit for wagers above the minimum, where the sign says so
    #: Lines for single bet kinds (``{"triple": {"maximum": 500}}``): a wager of that kind
    #: plays under its line's bounds instead of the sign's. Empty: one line for every bet.
    by_kind: dict[BetKindName, KindLimits] = {}


def tag_of(message_or_type: Any) -> str:
    """The type tag of a contract message or class (``round.started.v1``)."""
    cls = message_or_type if isinstance(message_or_type, type) else type(message_or_type)
    return str(getattr(cls, "__struct_config__").tag)  # noqa: B009 (msgspec sets it)


#: What decoding bytes from outside can raise: malformed or invalid JSON (``DecodeError``,
#: ``ValidationError``), bytes that are not UTF-8 inside a string, nesting deeper than the
#: decoder follows. Every reader of messages catches all three: bad bytes get an answer.
DECODE_ERRORS: tuple[type[Exception], ...] = (
    msgspec.DecodeError,
    UnicodeDecodeError,
    RecursionError,
)
