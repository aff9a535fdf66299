"""Round lifecycle: table and round phases, limits, seats, paytables, faults (000 §4-§8,
002 arts. 2-4 and 8, 004). The pure decider is in :mod:`sicbo.lifecycle.decider`."""

from sicbo.lifecycle.decider import decide
from sicbo.lifecycle.paytables import earliest_adoption, paytable_in_force
from sicbo.lifecycle.state import (
    ENDED,
    PLAYING,
    LifecycleState,
    Phase,
    RoundState,
    Suspension,
    TableStatus,
    evolve,
    fold,
    initial_state,
)

__all__ = [
    "ENDED",
    "PLAYING",
    "LifecycleState",
    "Phase",
    "RoundState",
    "Suspension",
    "TableStatus",
    "decide",
    "earliest_adoption",
    "evolve",
    "fold",
    "initial_state",
    "paytable_in_force",
]
