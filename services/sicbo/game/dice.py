"""Three dice and their outcomes (RULES.md "Dice and outcomes"; 000 §2.5)."""

from collections.abc import Iterable, Sequence
from itertools import product
from typing import NewType

from sicbo.game.errors import InvalidDice

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)

# A result as the sorted multiset of three faces: the order the dice lie in never matters,
# and sorting is also the order in which the dealer announces them (000 §5.3).
Roll = NewType("Roll", tuple[int, int, int])

#: The 216 ordered outcomes of three dice, each equally likely.
ORDERED_OUTCOMES: tuple[tuple[int, int, int], ...] = tuple(product(FACES, FACES, FACES))


def make_roll(values: Sequence[object]) -> Roll:
    """Validate three dice values and return them as a sorted ``Roll``."""
    if isinstance(values, str | bytes) or len(values) != 3:
        raise InvalidDice(f"a result is exactly three dice, got {values!r}")
    faces: list[int] = []
    for position, value in enumerate(values, start=1):
        # bool is an int in Python; a die showing True is still a bad input.
        if type(value) is not int or not 1 <= value <= 6:
            raise InvalidDice(f"die {position} must be a whole number 1..6, got {value!r}")
        faces.append(value)
    low, mid, high = sorted(faces)
    return Roll((low, mid, high))


def total(roll: Iterable[int]) -> int:
    return sum(roll)


def is_triple(roll: Roll) -> bool:
    return roll[0] == roll[2]


def all_rolls() -> tuple[Roll, ...]:
    """The 56 distinct results."""
    return tuple(sorted({make_roll(outcome) for outcome in ORDERED_OUTCOMES}))


def announcement(roll: Roll) -> str:
    """The dealer's call: each die lowest to highest, then the total (000 §5.3)."""
    return f"{roll[0]} {roll[1]} {roll[2]}, total {total(roll)}"
