"""Bounded re-read / re-decide loop for optimistic concurrency.

``attempt`` must do the whole cycle (read state, decide, append with the expectation it read),
so each retry decides on fresh state. The bound keeps a hot table from looping forever; the
last conflict is re-raised so the shell can answer "busy, try again". Randomised backoff lives
here, in the shell, never in the pure deciders.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sicbo.eventstore.errors import AppendConflict

T = TypeVar("T")


async def retry_on_conflict(
    attempt: Callable[[], Awaitable[T]],
    *,
    attempts: int = 5,
    base_delay: float = 0.002,
    max_delay: float = 0.1,
) -> T:
    """Run ``attempt()``; on :class:`AppendConflict` run it again, at most ``attempts`` times.

    Between tries we sleep a "full jitter" backoff (uniform in 0..min(max, base * 2**n)):
    writers that lost the same race spread out instead of colliding again in lockstep.
    """
    if attempts < 1:
        raise ValueError("attempts must be >= 1")
    for n in range(attempts):
        try:
            return await attempt()
        except AppendConflict:
            if n + 1 == attempts:
                raise
            await asyncio.sleep(random.uniform(0, min(max_delay, base_delay * 2**n)))
    raise AssertionError("unreachable")  # the loop either returns or raises
