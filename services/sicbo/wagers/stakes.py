"""What a slip event does to the money in the player's account (pure).

Only chips come from an account: colour checks and promotional tokens are the table's own media
(:mod:`sicbo.wagers.media`), never debited. :func:`chips` is a slip's stake in money; each
``SlipMove`` says what the slip's chips stake is once the event is stored (``after``) and was
before it (``before``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from sicbo_contracts.wagers import (
    CarriedSlipChosen,
    Medium,
    SlipChanged,
    SlipPlaced,
    SlipWithdrawn,
    Wager,
)


class SlipMove(NamedTuple):
    table: str
    round: int
    slip_id: str
    player: str
    before: int
    after: int


def chips(wagers: Iterable[Wager]) -> int:
    return sum(w.stake for w in wagers if w.medium is Medium.CHIPS)


def move_of(event: object) -> SlipMove | None:
    """The money move of a slip event, None for any other event."""
    match event:
        case SlipPlaced():
            return SlipMove(
                event.table, event.round, event.slip_id, event.player, 0, chips(event.wagers)
            )
        case SlipChanged() | CarriedSlipChosen():
            return SlipMove(
                event.table,
                event.round,
                event.slip_id,
                event.player,
                chips(event.before),
                chips(event.after),
            )
        case SlipWithdrawn():
            return SlipMove(
                event.table, event.round, event.slip_id, event.player, chips(event.before), 0
            )
    return None


def standing_chips(events: Iterable[object]) -> dict[tuple[str, str], int]:
    """(player, slip id) -> the slip's chips stake as it stands after ``events`` (a round's
    slip events in log order): what the round's debits must square with."""
    standing: dict[tuple[str, str], int] = {}
    for event in events:
        move = move_of(event)
        if move is not None:
            standing[(move.player, move.slip_id)] = move.after
    return standing
