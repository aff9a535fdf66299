"""The wagers standing in a round, as the wager intake decider folds them.

The wager intake service owns the rules of slips (placed, withdrawn, changed, carried over a
void round, 002/2004 art. 3(4)); settlement must settle exactly the wagers it accepted, so it
uses that decider's own fold: ``sicbo.wagers.decider.fold(table, events)`` and
``wagers_of_round(state, round)``. Until that module exists this file holds a minimal fold of
the same shape (kept only as a stand-in; see :data:`FROM_WAGERS_DECIDER`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from sicbo.game.profiles import NoResultPolicy
from sicbo_contracts.lifecycle import NoResultDeclared, RoundStarted
from sicbo_contracts.wagers import (
    CarriedChoice,
    CarriedSlipChosen,
    SlipChanged,
    SlipPlaced,
    SlipWithdrawn,
    Wager,
)


class Standing(NamedTuple):
    """One wager standing in a round (the shape of ``wagers_of_round``'s rows)."""

    slip_id: str
    player: str
    index: int  # the wager's position on its slip
    wager: Wager
    carried: bool  # carried into this round from a void one (002 art. 3(3)(4), 004)


#: The consequences of "no result" whose wagers stay on the layout for the re-run round.
CARRY_OVER: frozenset[str] = frozenset(
    {NoResultPolicy.CARRY_OVER_LOCKED.value, NoResultPolicy.PLAYER_CHOICE.value}
)


# ---- stand-in fold (same shape as sicbo.wagers.decider) ----------------------------------------


@dataclass
class _Slip:
    slip_id: str
    player: str
    wagers: list[Wager]
    carried: bool = False


@dataclass
class _State:
    table: str
    rounds: dict[int, dict[str, _Slip]] = field(default_factory=dict)
    carry_from: dict[str, _Slip] | None = None  # slips waiting for the re-run round


def _evolve(state: _State, event: Any) -> _State:
    match event:
        case SlipPlaced(round=r, slip_id=s, player=p, wagers=w):
            state.rounds.setdefault(r, {})[s] = _Slip(s, p, list(w))
        case SlipWithdrawn(round=r, slip_id=s):
            state.rounds.get(r, {}).pop(s, None)
        case SlipChanged(round=r, slip_id=s, after=after):
            slip = state.rounds.get(r, {}).get(s)
            if slip is not None:
                slip.wagers = list(after)
        case CarriedSlipChosen(round=r, slip_id=s, choice=choice, after=after):
            slip = state.rounds.get(r, {}).get(s)
            if slip is not None:
                if choice is CarriedChoice.CANCEL:
                    state.rounds[r].pop(s)
                elif choice is CarriedChoice.CHANGE:
                    slip.wagers = list(after)
        case NoResultDeclared(round=r, consequence=consequence) if consequence in CARRY_OVER:
            state.carry_from = state.rounds.get(r, {})
        case RoundStarted(round=r):
            if state.carry_from:
                carried = {
                    s: _Slip(slip.slip_id, slip.player, list(slip.wagers), carried=True)
                    for s, slip in state.carry_from.items()
                }
                state.rounds[r] = {**carried, **state.rounds.get(r, {})}
            state.carry_from = None
    return state


def _fold(table: str, events: Iterable[Any]) -> _State:
    state = _State(table)
    for event in events:
        state = _evolve(state, event)
    return state


def _wagers_of_round(state: _State, round_no: int) -> list[Standing]:
    return [
        Standing(slip.slip_id, slip.player, index, wager, slip.carried)
        for slip in state.rounds.get(round_no, {}).values()
        for index, wager in enumerate(slip.wagers)
    ]


# ---- the fold in use ----------------------------------------------------------------------------


def _load() -> tuple[bool, Callable[[str, Iterable[Any]], Any], Callable[[Any, int], Any]]:
    try:
        module = importlib.import_module("sicbo.wagers.decider")
        fold, rows = module.fold, module.wagers_of_round
    except (ImportError, AttributeError):
        return False, _fold, _wagers_of_round
    return True, fold, rows


FROM_WAGERS_DECIDER, fold, _rows = _load()


def wagers_of_round(state: Any, round_no: int) -> list[Standing]:
    return [Standing(*row) for row in _rows(state, round_no)]
