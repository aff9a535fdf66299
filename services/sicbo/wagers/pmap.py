"""An immutable map whose updates are cheap: the wager state's slip index.

A frozen state must never share a mutable dict with the state it came from, yet copying a dict
of 10,000 slips for every slip placed would make a busy round quadratic. This map spreads its
keys over a fixed number of buckets (by CRC-32, so the layout is the same in every process and
every replay): an update copies the bucket tuple and one bucket, about ``n / 256`` entries.
Buckets are plain dicts that are never mutated once built, so states share them safely.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Generic, TypeVar

K = TypeVar("K", bound=str | int)
V = TypeVar("V")

_WIDTH = 256


def _slot(key: str | int) -> int:
    return zlib.crc32(str(key).encode()) % _WIDTH


@dataclass(frozen=True, slots=True)
class PMap(Generic[K, V]):
    """A persistent ``K -> V`` map (keys are strings or ints). :meth:`set` and :meth:`delete`
    return a new map and leave this one as it was."""

    buckets: tuple[Mapping[K, V], ...] = ()
    size: int = 0

    def get(self, key: K) -> V | None:
        if not self.buckets:
            return None
        return self.buckets[_slot(key)].get(key)

    def __contains__(self, key: object) -> bool:
        if not self.buckets or not isinstance(key, str | int):
            return False
        return key in self.buckets[_slot(key)]

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[K]:
        for bucket in self.buckets:
            yield from bucket

    def values(self) -> Iterator[V]:
        """Every value, in bucket order: sort them if the order matters."""
        for bucket in self.buckets:
            yield from bucket.values()

    def set(self, key: K, value: V) -> PMap[K, V]:
        buckets = self.buckets or self._empty_buckets()
        slot = _slot(key)
        bucket = buckets[slot]
        grown = 0 if key in bucket else 1
        return PMap(
            (*buckets[:slot], {**bucket, key: value}, *buckets[slot + 1 :]), self.size + grown
        )

    def delete(self, key: K) -> PMap[K, V]:
        """The map without ``key`` (the same map if it has no such key)."""
        if key not in self:
            return self
        slot = _slot(key)
        bucket = {k: v for k, v in self.buckets[slot].items() if k != key}
        return PMap((*self.buckets[:slot], bucket, *self.buckets[slot + 1 :]), self.size - 1)

    @staticmethod
    def _empty_buckets() -> tuple[Mapping[K, V], ...]:
        empty: Mapping[K, V] = MappingProxyType({})
        return (empty,) * _WIDTH
