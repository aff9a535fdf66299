"""The gateway's sessions, kept in its process (pure: tokens and the time come in as arguments).

A browser's cookie carries only an unguessable token; what it stands for (who, which role,
since when, last seen) lives here, so a session ends when the gateway says so: at sign-out, at
its absolute lifetime, or when an operator's sessions are revoked. The store keeps the tokens'
SHA-256 only, never a token itself, and is bounded per kind of session (the least recently
used goes first when full), so a flood of one kind (players, on the demo floor) cannot push
out the operators' sessions.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass, replace
from enum import StrEnum

from sicbo_contracts.base import Role

#: A session ends this long after its sign-in, used or not (a working day and then some).
LIFETIME_SECONDS = 12 * 3600.0
#: Sessions of each kind kept at most.
CAPACITY = 10_000


class Kind(StrEnum):
    OPERATOR = "operator"  # at a terminal: id and PIN, idle-locked
    DISPLAY = "display"  # a layout display granted by an operator: id and PIN
    PLAYER = "player"  # a player of the online table


@dataclass(frozen=True, slots=True)
class Session:
    kind: Kind
    who: str  # the operator's id (for a display: who granted it), or the player's id
    role: Role
    created: float
    seen: float  # the last activity (a command): the idle lock counts from here
    #: A player launched by their operator: the currency of their account (the launch
    #: token's); None for operators and for the demo's bare-id players.
    currency: str | None = None

    def idle_for(self, now: float) -> float:
        return now - self.seen


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class SessionStore:
    def __init__(self, lifetime: float = LIFETIME_SECONDS, capacity: int = CAPACITY) -> None:
        self.lifetime = lifetime
        self.capacity = capacity
        self._kinds: dict[Kind, OrderedDict[str, Session]] = {k: OrderedDict() for k in Kind}

    def open(
        self,
        token: str,
        kind: Kind,
        who: str,
        role: Role,
        now: float,
        *,
        currency: str | None = None,
    ) -> Session:
        """A new session under ``token`` (a fresh one each sign-in: never a token reused)."""
        sessions = self._kinds[kind]
        session = Session(kind=kind, who=who, role=role, created=now, seen=now, currency=currency)
        sessions[digest(token)] = session
        sessions.move_to_end(digest(token))
        if len(sessions) > self.capacity:
            self._expire(kind, now)
        while len(sessions) > self.capacity:
            sessions.popitem(last=False)
        return session

    def get(self, token: str, kind: Kind, now: float) -> Session | None:
        """The session ``token`` stands for; None if it never did, or no longer does."""
        sessions = self._kinds[kind]
        key = digest(token)
        session = sessions.get(key)
        if session is None:
            return None
        if now - session.created >= self.lifetime:
            del sessions[key]
            return None
        return session

    def touch(self, token: str, kind: Kind, now: float) -> None:
        """Activity: the idle lock counts again from ``now``."""
        sessions = self._kinds[kind]
        key = digest(token)
        session = sessions.get(key)
        if session is not None:
            sessions[key] = replace(session, seen=now)
            sessions.move_to_end(key)

    def close(self, token: str, kind: Kind) -> bool:
        return self._kinds[kind].pop(digest(token), None) is not None

    def revoke(self, operator: str) -> int:
        """End every session ``operator`` signed in (terminals and display grants); how many."""
        ended = 0
        for kind in (Kind.OPERATOR, Kind.DISPLAY):
            sessions = self._kinds[kind]
            for key in [k for k, s in sessions.items() if s.who == operator]:
                del sessions[key]
                ended += 1
        return ended

    def clear(self) -> int:
        """End every session (how many): this replica may have missed a revocation."""
        ended = sum(len(s) for s in self._kinds.values())
        for sessions in self._kinds.values():
            sessions.clear()
        return ended

    def count(self, kind: Kind) -> int:
        return len(self._kinds[kind])

    def _expire(self, kind: Kind, now: float) -> None:
        sessions = self._kinds[kind]
        for key in [k for k, s in sessions.items() if now - s.created >= self.lifetime]:
            del sessions[key]
