"""A round's standing wagers, folded once and then caught up (:meth:`TableLog.facts`).

Wager intake's fold (:func:`sicbo.wagers.evolve.fold`) costs tens of microseconds a slip, and
settlement used to run it over the whole round at the result: for a round of 10,000 wagers
(2,500 slips) that fold was over half of the time from the result to the settlement stored
(docs/benchmarks.md). The state it folds is immutable, so a fold of a prefix of the events
goes on from where it stopped: settlement folds the round's slips at "no more bets" (no slip
can be stored after it) and at the result folds only the few lifecycle events since.

A round's events are read in log order, so the events up to a sequence of each round are a
prefix of its list: a fold is caught up when the rounds before the last (those carried into
it) have the same events as when it was kept, and the last has as many or more.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce
from itertools import chain
from typing import Any

from sicbo.wagers.evolve import evolve, fold
from sicbo.wagers.state import StandingWager, WagerState, wagers_of_round

#: Folds kept a table (the rounds being settled now; the older ones are folded again).
KEPT = 4


@dataclass(frozen=True, slots=True)
class _Fold:
    counts: tuple[int, ...]  # events folded of each round, first to last
    state: WagerState
    standing: list[StandingWager]


class StandingFolds:
    def __init__(self, table: str) -> None:
        self._table = table
        self._kept: dict[tuple[int, int], _Fold] = {}

    def standing(
        self, first: int, round_no: int, events: Sequence[Sequence[Any]]
    ) -> list[StandingWager]:
        """The wagers standing in ``round_no`` after ``events``: each round's events from
        ``first`` to ``round_no``, in log order (rounds before ``round_no`` carried into it)."""
        counts = tuple(len(e) for e in events)
        key = (first, round_no)
        kept = self._kept.get(key)
        if kept is not None and kept.counts == counts:
            return kept.standing
        if kept is not None and kept.counts[:-1] == counts[:-1] and kept.counts[-1] < counts[-1]:
            state = reduce(evolve, events[-1][kept.counts[-1] :], kept.state)
        else:
            state = fold(self._table, chain.from_iterable(events))
        standing = wagers_of_round(state, round_no)
        if kept is None or all(k <= c for k, c in zip(kept.counts, counts, strict=True)):
            self._kept.pop(key, None)
            self._kept[key] = _Fold(counts, state, standing)
            if len(self._kept) > KEPT:
                self._kept.pop(next(iter(self._kept)))
        return standing

    def kept_rounds(self) -> set[int]:
        """The rounds whose folds are kept (memory: a test and a reader of the service)."""
        return {round_no for _, round_no in self._kept}

    def drop(self, round_no: int) -> None:
        """Forget the folds of ``round_no``: its settlement is stored, and a later adjustment
        (a correction after it) folds again. A 100,000-wager round's fold is tens of MiB a
        table (docs/benchmarks.md, settlement's RSS with 1,000 tables)."""
        for key in [k for k in self._kept if k[1] == round_no]:
            del self._kept[key]
