"""A mapping that keeps only its most recently put entries: the oldest are dropped.

For what a long-running process remembers per round or per key only to save a lookup (a
forgotten entry is looked up again): its memory stays bounded however long it runs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Recent(Mapping[K, V], Generic[K, V]):
    """At most ``limit`` entries, the least recently put dropped first. ``in_use`` says of an
    entry that must not be dropped yet (a lock held): then nothing is dropped until it is free,
    and the mapping holds more than ``limit`` meanwhile."""

    def __init__(self, limit: int, *, in_use: Callable[[V], bool] | None = None) -> None:
        if limit < 1:
            raise ValueError(f"a Recent mapping keeps at least one entry, not {limit}")
        self._limit = limit
        self._in_use = in_use
        self._entries: dict[K, V] = {}  # insertion order: the least recently put first

    def put(self, key: K, value: V) -> None:
        """Set ``key`` as the most recent entry, then drop the oldest beyond the limit."""
        self._entries.pop(key, None)
        self._entries[key] = value
        while len(self._entries) > self._limit:
            oldest = next(iter(self._entries))
            if self._in_use is not None and self._in_use(self._entries[oldest]):
                return
            del self._entries[oldest]

    def pop(self, key: K) -> V | None:
        """Forget ``key``; its value, or None if it was not kept."""
        return self._entries.pop(key, None)

    def __getitem__(self, key: K) -> V:
        return self._entries[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)
