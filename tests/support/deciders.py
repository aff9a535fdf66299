"""Given a history, when a command at a time, then events or a refusal: over any pure decider.

A history is an event or a list of events (lists nest: they are flattened in order). ``given``
folds it at the test table with the decider's own ``evolve``; ``when`` decides a command on
that state at ``NOW`` unless told another time and returns the events, for a test to compare
with ``==``; ``refused`` asserts the command is refused and returns the refusal.
"""

import re
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from functools import reduce
from typing import Any, Generic, TypeVar

import pytest

from sicbo.decider import Refused
from tests.support.common import NOW, TABLE

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")


def facts(history: Any) -> Iterator[Any]:
    """The events of ``history`` in order: an event, or (nested) lists or tuples of events."""
    if isinstance(history, list | tuple):
        for item in history:
            yield from facts(item)
    else:
        yield history


class Decider(Generic[S, C, E]):
    """given / when / then for one aggregate's ``decide(state, command, at) -> events`` and
    ``evolve(state, event) -> state``, starting from ``initial_state(table)``."""

    def __init__(
        self,
        initial_state: Callable[[str], S],
        evolve: Callable[[S, Any], S],
        decide: Callable[[S, C, datetime], Iterable[E]],
    ) -> None:
        self._initial_state = initial_state
        self._evolve = evolve
        self._decide = decide

    def given(self, *history: Any) -> S:
        """The state after ``history`` (events, or lists of events), in order."""
        return reduce(self._evolve, facts(history), self._initial_state(TABLE))

    def when(self, history: Any, command: C, at: datetime = NOW) -> list[E]:
        """The events the decider appends for ``command`` at ``at`` after ``history``."""
        return [*self._decide(self.given(history), command, at)]

    def refused(
        self,
        history: Any,
        command: C,
        *words: str,
        match: str | None = None,
        code: str = "refused",
        at: datetime = NOW,
    ) -> Refused:
        """Assert ``command`` at ``at`` after ``history`` is refused with ``code`` ("refused":
        by the rules; "forbidden": by the actor's role), with a reason containing every one of
        ``words`` and matching the regex ``match``; return the refusal."""
        with pytest.raises(Refused) as caught:
            self.when(history, command, at)
        error = caught.value
        assert error.code == code, f"refused as {error.code!r}, not {code!r}: {error.reason}"
        for word in words:
            assert word in error.reason, f"{word!r} not in {error.reason!r}"
        if match is not None:
            assert re.search(match, error.reason), f"{match!r} does not match {error.reason!r}"
        return error
