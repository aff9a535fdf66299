"""The event loop of the floor's long-running processes: uvloop unless ``SICBO_EVENT_LOOP`` says.

Measured on the wager service, the floor's hot path (docs/benchmarks.md, "The event loop and
the span"): asyncio's own loop and transports took about 39% of its samples per slip (the
socket write path 26%); uvloop runs the same callbacks and transports in C (libuv). Every
``sicbo serve`` process, the layout controller and the gateway (uvicorn) run on it.

``SICBO_EVENT_LOOP=asyncio`` runs asyncio's own loop instead (to compare, or to rule uvloop out
of a fault); any other value than ``uvloop`` or ``asyncio`` stops the process with the reason.
There is no silent fallback: uvloop is a pinned dependency, and a process asked for it and
without it fails at start.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Coroutine, Mapping
from typing import Any, Literal, TypeVar

ENV = "SICBO_EVENT_LOOP"
UVLOOP = "uvloop"
ASYNCIO = "asyncio"

Loop = Literal["uvloop", "asyncio"]
T = TypeVar("T")


def chosen(environ: Mapping[str, str] | None = None) -> Loop:
    """The loop ``SICBO_EVENT_LOOP`` names (unset or empty: uvloop); ValueError for another."""
    given = (os.environ if environ is None else environ).get(ENV, "")
    value = given.strip().lower()
    if value in ("", UVLOOP):
        return "uvloop"
    if value == ASYNCIO:
        return "asyncio"
    raise ValueError(
        f"{ENV}={given!r}: the event loop is {UVLOOP!r} (the default) or {ASYNCIO!r}"
        " (asyncio's own)"
    )


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on the chosen loop."""
    if chosen() == "uvloop":
        import uvloop  # imported here: a process asked for asyncio never loads it

        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            return runner.run(main)
    return asyncio.run(main)
