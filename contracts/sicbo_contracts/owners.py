"""Which aggregate owns each event type of the floor's log, and whether a stored event belongs
where it is stored: the one judgement every reader of the log makes (the services' shell
skips what does not belong, :mod:`sicbo.shell.quarantine`; ``sicbo replay verify`` names it).

Every event type belongs to one aggregate, whose service alone appends it (DESIGN.md "The
services"; the same unions name each writer's subjects in ``sicbo.infra.nats_accounts``):
the lifecycle's and the dice's events on ``lc``, wager intake's on ``bets``, settlement's on
``settle``, illumination's on ``lamp``.
"""

from __future__ import annotations

from typing import Any, get_args

from sicbo_contracts.base import tag_of
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.illumination import IlluminationEvent
from sicbo_contracts.lifecycle import LifecycleEvent
from sicbo_contracts.settlement import SettlementEvent
from sicbo_contracts.subjects import TABLE_ROUND, Aggregate, EventSubject, token
from sicbo_contracts.wagers import WagerEvent

UNIONS: tuple[tuple[Aggregate, Any], ...] = (
    (Aggregate.LIFECYCLE, LifecycleEvent),
    (Aggregate.LIFECYCLE, DiceEvent),  # the result belongs to the round (DESIGN.md "lc")
    (Aggregate.BETS, WagerEvent),
    (Aggregate.SETTLE, SettlementEvent),
    (Aggregate.LAMP, IlluminationEvent),
)

#: Event type tag -> the aggregate whose subjects it is appended on.
OWNER: dict[str, Aggregate] = {
    tag_of(cls): aggregate for aggregate, union in UNIONS for cls in get_args(union)
}


def misfiled(parsed: EventSubject, event: Any, tag: str | None = None) -> list[str]:
    """Why ``event`` (decoded from a message stored on the subject ``parsed``) is not where its
    own writer appends it: another aggregate's type, another type's subject, another table or
    round. Empty when it belongs. ``tag``: the event's type tag, when the class read is a view
    of it (replay's settlement parts)."""
    tag = tag or tag_of(event)
    owner = OWNER.get(tag)
    why = []
    if owner is not None and parsed.aggregate is not owner:  # (a reader's own type: its own)
        why.append(
            f"{tag} is an event of the {owner.value} aggregate, stored on"
            f" {parsed.aggregate.value}: only the owner's service appends it"
        )
    if parsed.token != token(tag):
        why.append(
            f"the subject's type token {parsed.token!r} is not the event's own type"
            f" {tag} ({token(tag)!r})"
        )
    table = getattr(event, "table", None)
    if parsed.table != table:
        why.append(f"the subject names table {parsed.table}, the event {table}")
    in_round = getattr(event, "round", None) or TABLE_ROUND
    if parsed.round != in_round:
        why.append(
            f"the subject names round {parsed.round}, the event round {in_round}"
            " (round 0 for a table-level event)"
        )
    return why
