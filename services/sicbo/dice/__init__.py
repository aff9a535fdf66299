"""Dice capture: the entry terminal's result, confirmed, held, resolved or corrected
(000 §2.6, §5.3-5.4; GLI-19 §4.18.4). The pure decider is in :mod:`sicbo.dice.decider`,
its state in :mod:`sicbo.dice.state`."""

from sicbo.dice.decider import decide
from sicbo.dice.state import DiceState, Entry, Phase, RoundState, evolve, fold, initial_state

__all__ = [
    "DiceState",
    "Entry",
    "Phase",
    "RoundState",
    "decide",
    "evolve",
    "fold",
    "initial_state",
]
