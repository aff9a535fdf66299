"""What a table sign allows a wager of each bet kind (000 §4.1), and which minimums a change of
the sign raises (000 §4.3).

A sign (:class:`~sicbo_contracts.base.Limits`) has the table's minimum, maximum and unit, and
optional lines for single bet kinds (``by_kind``): a line's minimum or maximum replaces the
sign's for wagers of that kind, a bound the line leaves out is the sign's. Above the minimum
that applies, stakes go up in the sign's unit (000 §4.1 "the minimum unit in which wagers may
be made above the table minimum"): from the kind's own minimum where its line gives one, so
that a line's minimum is always a stake that can be placed.
"""

from dataclasses import dataclass

from sicbo.game.bets import BetKind
from sicbo_contracts.base import Limits


@dataclass(frozen=True, slots=True)
class Bounds:
    """What the sign allows one bet kind: ``own_minimum`` / ``own_maximum`` say the bound
    comes from the kind's line rather than the sign's."""

    kind: BetKind
    minimum: int
    maximum: int
    unit: int
    own_minimum: bool = False
    own_maximum: bool = False


def bounds_for(limits: Limits, kind: BetKind) -> Bounds:
    """The bounds of a wager of ``kind`` under ``limits`` (000 §4.1)."""
    line = limits.by_kind.get(kind.value)
    if line is None:
        return Bounds(kind, limits.minimum, limits.maximum, limits.unit)
    return Bounds(
        kind,
        limits.minimum if line.minimum is None else line.minimum,
        limits.maximum if line.maximum is None else line.maximum,
        limits.unit,
        own_minimum=line.minimum is not None,
        own_maximum=line.maximum is not None,
    )


def unknown_kinds(limits: Limits) -> list[str]:
    """The names of the sign's lines that are not a bet kind of the catalogue."""
    kinds = {kind.value for kind in BetKind}
    return sorted(name for name in limits.by_kind if name not in kinds)


@dataclass(frozen=True, slots=True)
class Raise:
    """A bet kind whose minimum a change of the sign raises (000 §4.3)."""

    kind: BetKind
    before: int
    after: int
    own: bool  # the kind has (or had) its own line; else it follows the sign's minimum


def raised_minimums(before: Limits, after: Limits) -> list[Raise]:
    """Every bet kind whose minimum is higher under ``after`` than under ``before``: the raises
    000 §4.3 wants announced 20 minutes before."""
    raises = []
    for kind in BetKind:
        old, new = bounds_for(before, kind), bounds_for(after, kind)
        if new.minimum > old.minimum:
            own = old.own_minimum or new.own_minimum
            raises.append(Raise(kind, old.minimum, new.minimum, own))
    return raises


def same_minimum(a: Limits, b: Limits) -> bool:
    """Whether two signs show the same minimum for every bet kind."""
    return all(bounds_for(a, k).minimum == bounds_for(b, k).minimum for k in BetKind)
