"""The cyclic garbage collector of a service, tuned once it is started.

A service keeps its tables' states (persistent maps of every standing slip) for as long as it
runs, and allocates many short-lived objects per command (decoded commands and events, asyncio
handles, spans): with CPython's defaults (a young collection every 700 allocations) the wager
service ran about 250 collections during the floor bench's 4,000 slips, 0.13-0.20 s of its
1.3-2.1 s of CPU there (docs/benchmarks.md). Once started, everything imported and built so
far (modules, classes, contracts' decoders) is moved out of the collector's sight
(``gc.freeze``: it lives as long as the process anyway), and the young generation is
collected every 10,000 allocations: 4 collections in the same bench, 0.01 s. Nothing else
changes: reference counting frees what is dropped as before, and the collector still finds
every cycle, only later.
"""

from __future__ import annotations

import gc

#: Allocations between collections of the young generation; the two older ones as before.
YOUNG_THRESHOLD = 10_000


def settle_heap() -> None:
    """Freeze what start-up built and collect the young generation less often."""
    gc.collect()  # start-up's own garbage, before its survivors are frozen for good
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
