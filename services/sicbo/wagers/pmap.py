"""An immutable map whose updates are cheap: the wager state's slip index.

A frozen state must never share a mutable dict with the state it came from, yet copying a dict
of 10,000 slips for every slip placed would make a busy round quadratic. This map spreads its
keys over a fixed number of buckets (by CRC-32, so the layout is the same in every process and
every replay), held as 16 groups of 16: an update copies two 16-tuples (the groups and one
group) and one bucket, about ``n / 256`` entries (a flat tuple of 256 buckets copied per update
was the wager fold's largest cost). Buckets are plain dicts that are never mutated once built,
so states share them safely.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Generic, TypeVar

K = TypeVar("K", bound=str | int)
V = TypeVar("V")

_GROUP = 16  # buckets per group
_WIDTH = _GROUP * _GROUP  # buckets in all


@lru_cache(maxsize=1 << 16)  # a slip id is looked up several times per event it is in
def _slot(key: str | int) -> tuple[int, int]:
    """The key's (group, bucket) in the map."""
    return divmod(zlib.crc32(str(key).encode()) % _WIDTH, _GROUP)


@dataclass(frozen=True, slots=True)
class PMap(Generic[K, V]):
    """A persistent ``K -> V`` map (keys are strings or ints). :meth:`set` and :meth:`delete`
    return a new map and leave this one as it was."""

    groups: tuple[tuple[Mapping[K, V], ...], ...] = ()
    size: int = 0

    def get(self, key: K) -> V | None:
        if not self.groups:
            return None
        g, b = _slot(key)
        return self.groups[g][b].get(key)

    def __contains__(self, key: object) -> bool:
        if not self.groups or not isinstance(key, str | int):
            return False
        g, b = _slot(key)
        return key in self.groups[g][b]

    def __len__(self) -> int:
        return self.size

    def __iter__(self) -> Iterator[K]:
        for group in self.groups:
            for bucket in group:
                yield from bucket

    def values(self) -> Iterator[V]:
        """Every value, in bucket order: sort them if the order matters."""
        for group in self.groups:
            for bucket in group:
                yield from bucket.values()

    def set(self, key: K, value: V) -> PMap[K, V]:
        groups = self.groups or _EMPTY
        g, b = _slot(key)
        group = groups[g]
        bucket = dict(group[b])
        grown = 0 if key in bucket else 1
        bucket[key] = value
        return self._with(groups, g, b, bucket, self.size + grown)

    def set_many(self, items: Iterable[tuple[K, V]]) -> PMap[K, V]:
        """The map with every ``(key, value)`` set in turn, as many :meth:`set` calls give it,
        each touched bucket copied once (replay puts a round's slips in at once)."""
        groups = [list(group) for group in self.groups or _EMPTY]
        copied: dict[tuple[int, int], dict[K, V]] = {}
        size = self.size
        for key, value in items:
            slot = _slot(key)
            bucket = copied.get(slot)
            if bucket is None:
                g, b = slot
                bucket = copied[slot] = dict(groups[g][b])
                groups[g][b] = bucket
            if key not in bucket:
                size += 1
            bucket[key] = value
        if not copied:
            return self  # nothing set: the very map, as ``set`` never called
        return PMap(tuple(tuple(group) for group in groups), size)

    def delete(self, key: K) -> PMap[K, V]:
        """The map without ``key`` (the same map if it has no such key)."""
        if key not in self:
            return self
        g, b = _slot(key)
        bucket = {k: v for k, v in self.groups[g][b].items() if k != key}
        return self._with(self.groups, g, b, bucket, self.size - 1)

    @staticmethod
    def _with(
        groups: tuple[tuple[Mapping[K, V], ...], ...],
        g: int,
        b: int,
        bucket: Mapping[K, V],
        size: int,
    ) -> PMap[K, V]:
        group = groups[g]
        changed = (*group[:b], bucket, *group[b + 1 :])
        return PMap((*groups[:g], changed, *groups[g + 1 :]), size)


_EMPTY_BUCKET: Mapping[Any, Any] = MappingProxyType({})
_EMPTY: tuple[tuple[Mapping[Any, Any], ...], ...] = ((_EMPTY_BUCKET,) * _GROUP,) * _GROUP
