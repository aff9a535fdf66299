"""Replay's folds without the cyclic garbage collector running meanwhile (pure).

Verify builds tens of thousands of small objects per table (decoded events, persistent wager
states, recomputed results) and keeps most of them to the end; each collection of the oldest
generation walks every one of them again. Measured on the floor bench's log (42,944 wagers,
one process): about half of verify's CPU was the collector. The folds' data makes no
reference cycles (frozen states, structs, lists), so reference counting frees what they drop;
the few cycles (a table's checks and the ledger that calls back into them) wait for the next
collection after the call. Paused for the call and restored after, whatever it was (a caller
that paused it keeps it paused).
"""

from __future__ import annotations

import functools
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")


@contextmanager
def gc_paused() -> Iterator[None]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def without_gc(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` run with the collector paused (:func:`gc_paused`)."""

    @functools.wraps(fn)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        with gc_paused():
            return fn(*args, **kwargs)

    return run
