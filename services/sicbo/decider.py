"""What every decider shares: the refusal it raises and the role check.

A decider is a pair of pure functions: ``decide(state, command, at) -> list[Event]`` (or raise
:class:`Refused`) and ``evolve(state, event) -> state``. Time comes in as ``at``, ids and actors
with the command: nothing here reads a clock or the network, so replay is exact.
"""

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import NoReturn, Protocol, TypedDict

from sicbo_contracts.base import Actor, Command, Role


class Acted(Protocol):
    """A command of a table or of a player's account: whoever sends it names its actor."""

    @property
    def actor(self) -> Actor: ...


class Refused(Exception):
    """A command that breaks a rule. ``code`` is stable for programs: "refused" (the rules or
    the state forbid it) or "forbidden" (the actor's role may not do it). ``field`` names
    where in the command the refused value is (``$.player``), when one field is the cause.
    ``key`` and ``params`` are the reason as a stable message key and its parameters, for the
    pages to write it in their reader's language (``reason`` is the English, for programs
    and logs; Rejected.reason_key)."""

    def __init__(
        self,
        reason: str,
        *,
        code: str = "refused",
        field: str | None = None,
        key: str | None = None,
        params: Mapping[str, int | str] | None = None,
    ) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.field = field
        self.key = key
        self.params: dict[str, int | str] = dict(params or {})


def refuse(
    reason: str,
    *,
    field: str | None = None,
    key: str | None = None,
    params: Mapping[str, int | str] | None = None,
) -> NoReturn:
    raise Refused(reason, field=field, key=key, params=params)


def require_role(command: Acted, allowed: Iterable[Role], *, rule: str = "") -> None:
    """Refuse a command whose actor has none of the ``allowed`` roles (DESIGN.md "Roles")."""
    roles = tuple(allowed)
    if command.actor.role not in roles:
        names = " or ".join(r.value for r in roles)
        article = "an" if names[0] in "aeiou" else "a"
        cite = f" ({rule})" if rule else ""
        raise Refused(
            f"{command.actor.role.value} {command.actor.id!r} may not {type(command).__name__}:"
            f" only {article} {names} may{cite}",
            code="forbidden",
            key="role.not-allowed",
        )


class Stamp(TypedDict):
    table: str
    actor: Actor
    at: datetime


def stamp(command: Command, at: datetime) -> Stamp:
    """Every event records the table, who did it and when (DESIGN.md "Contracts")."""
    return {"table": command.table, "actor": command.actor, "at": at}
