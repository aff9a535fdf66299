"""Sign-in throttling that slows guessing and locks nobody out (pure: the time comes in).

Two limits, both on failed sign-ins, both for unknown ids as for listed ones:

- per (operator id, client address): the first ``FREE_FAILURES`` wrong PINs cost nothing;
  after that each further attempt of that pair waits ``2 ** (failures - FREE_FAILURES + 1)``
  seconds from the last failure (2, 4, 8 ... s), at most ``MAX_DELAY_SECONDS``. A right PIN
  forgets the pair; a pair quiet for ``FORGET_SECONDS`` is forgotten too. A stranger's wrong
  PINs from another client slow only the stranger: the real operator's own pair is untouched.
- per client address: a token bucket of ``CLIENT_BURST`` failures, one more every
  ``CLIENT_REFILL_SECONDS``, so one client cannot sweep many ids with a few PINs each. It
  holds only an id that has failed from that client already: an operator who typed no wrong
  PIN there is never held by anyone else's failures, so a sweep of wrong PINs from an address
  (or one wrong PIN every few seconds behind a floor's NAT) locks no other operator out
  (issue 25). A sweep of fresh ids gets one guess each, then waits for the bucket; a right
  PIN gives its token back, and the bucket never goes below empty.

What a guesser gets from one address in an hour, the machine as fast as it lets him
(:func:`guesses_in` computes it; tests/unit/gateway/test_throttle.py): at one operator's PIN,
``guesses_in(3600)`` = 21 (3 free, then 2, 4 ... 300 s apart); over many ids, the bucket's 30
and 360 more an hour, plus one first guess of each id it has not tried there before.

An attempt is counted as a failure as it starts (and given back if the PIN was right), so
parallel attempts cannot all pass before the first is counted. Both tables are bounded (the
least recently failed entries go first). IPv6 clients count per /64, the block one subscriber
usually holds. Per gateway replica: behind N replicas a guesser gets N times the attempts.
"""

from __future__ import annotations

import ipaddress
from collections import OrderedDict
from dataclasses import dataclass
from typing import TypeVar

FREE_FAILURES = 3
MAX_DELAY_SECONDS = 300.0
FORGET_SECONDS = 3600.0
CLIENT_BURST = 30
CLIENT_REFILL_SECONDS = 10.0
CAPACITY = 10_000

K = TypeVar("K")
V = TypeVar("V")


@dataclass(frozen=True, slots=True)
class _Failures:
    count: int
    last: float


@dataclass(frozen=True, slots=True)
class _Bucket:
    tokens: float
    at: float


def delay_after(failures: int) -> float:
    """How long a pair waits after its last failure, ``failures`` wrong PINs in a row."""
    if failures < FREE_FAILURES:
        return 0.0
    return min(MAX_DELAY_SECONDS, 2.0 ** (failures - FREE_FAILURES + 1))


def client_key(address: str) -> str:
    """The address a client is counted by: IPv6 by its /64, anything else as it is."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def guesses_in(seconds: float) -> int:
    """How many wrong PINs one (id, client) pair can try in ``seconds``, each as soon as
    allowed (the pair's limit alone: the bucket only slows it further)."""
    throttle, now, tried = SignInThrottle(), 0.0, 0
    while now <= seconds:
        wait = throttle.attempt("id", "client", now)
        if wait == 0:
            tried += 1
        now += max(wait, 1e-3)
    return tried


class SignInThrottle:
    def __init__(self, capacity: int = CAPACITY) -> None:
        self.capacity = capacity
        self._pairs: OrderedDict[tuple[str, str], _Failures] = OrderedDict()
        self._clients: OrderedDict[str, _Bucket] = OrderedDict()

    def wait(self, operator: str, client: str, now: float) -> float:
        """Seconds before ``operator`` may be tried from ``client`` (0: now)."""
        pair = self._pair(operator, client, now)
        if pair is None:
            return 0.0  # no failure of this id from here: others' failures never hold it
        pair_wait = pair.last + delay_after(pair.count) - now
        bucket = self._bucket(client_key(client), now)
        client_wait = (1.0 - bucket.tokens) * CLIENT_REFILL_SECONDS if bucket.tokens < 1 else 0
        return max(0.0, pair_wait, client_wait)

    def attempt(self, operator: str, client: str, now: float) -> float:
        """Start an attempt: the seconds to wait (nothing counted), or 0 and the attempt is
        counted as a failure until :meth:`succeeded` gives it back."""
        wait = self.wait(operator, client, now)
        if wait > 0:
            return wait
        pair = self._pair(operator, client, now)
        count = 1 if pair is None else pair.count + 1
        self._put(self._pairs, (operator, client), _Failures(count, now))
        key = client_key(client)
        bucket = self._bucket(key, now)
        self._put(self._clients, key, _Bucket(max(0.0, bucket.tokens - 1), now))
        return 0.0

    def succeeded(self, operator: str, client: str, now: float) -> None:
        """The PIN was right: the pair starts afresh, the client gets its token back."""
        self._pairs.pop((operator, client), None)
        key = client_key(client)
        bucket = self._bucket(key, now)
        self._put(self._clients, key, _Bucket(min(CLIENT_BURST, bucket.tokens + 1), now))

    def _pair(self, operator: str, client: str, now: float) -> _Failures | None:
        pair = self._pairs.get((operator, client))
        if pair is not None and now - pair.last >= FORGET_SECONDS:
            del self._pairs[(operator, client)]
            return None
        return pair

    def _bucket(self, key: str, now: float) -> _Bucket:
        bucket = self._clients.get(key)
        if bucket is None:
            return _Bucket(float(CLIENT_BURST), now)
        refilled = bucket.tokens + max(0.0, now - bucket.at) / CLIENT_REFILL_SECONDS
        return _Bucket(min(float(CLIENT_BURST), refilled), now)

    def _put(self, table: OrderedDict[K, V], key: K, value: V) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > self.capacity:
            table.popitem(last=False)
