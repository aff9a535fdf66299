"""Who is signed in: the session a request's cookie names, kept by the gateway
(:mod:`sicbo.gateway.session_store`); the cookie carries an unguessable token and nothing else.

Three sign-ins, a cookie each: an operator at a terminal (id and PIN; locked after
``idle_lock_seconds`` unused), a layout display granted by an operator (id and PIN; never
idle-locked, nobody works at it), and a player of the online table (launched by their
operator's token, :mod:`sicbo.gateway.launch`, their currency kept in the session; on the demo
floor also by a bare id). The cookies are HttpOnly
and SameSite=Strict; with ``https_only`` they are Secure and ``__Host-`` prefixed (this host
only, no sub-domain can set them).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from typing import Any

from starlette.requests import HTTPConnection
from starlette.responses import Response

from sicbo.gateway.http import ApiError
from sicbo.gateway.operators import TERMINAL_ROLES, Operator
from sicbo.gateway.redaction import ANONYMOUS, STAFF, Viewer
from sicbo.gateway.session_store import LIFETIME_SECONDS, Kind, Session, SessionStore
from sicbo_contracts.access import TERMINAL_ACTIONS
from sicbo_contracts.base import Role

#: GLI-19 §C.6.5: a terminal locks after 5 idle minutes.
IDLE_LOCK_SECONDS = 300


class Sessions:
    """Who the request's session says is signed in; refused (401) when nobody is, or a
    terminal locked."""

    def __init__(
        self,
        operators: Mapping[str, Operator],
        idle_lock_seconds: int = IDLE_LOCK_SECONDS,
        *,
        store: SessionStore | None = None,
        https_only: bool = False,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.operators = operators
        self.idle_lock_seconds = idle_lock_seconds
        self.store = store or SessionStore(LIFETIME_SECONDS)
        self.https_only = https_only
        self.clock = clock

    def operator(
        self, request: HTTPConnection, *, activity: bool = True, terminal: bool = True
    ) -> Operator:
        """The signed-in operator; refuses when signed out, or a terminal locked for idleness
        (a layout display, ``terminal=False``, has no one at it to be idle). ``activity``: the
        idle lock counts again from now."""
        now = self.clock()
        session = self._session(request, Kind.OPERATOR, now)
        operator = None if session is None else self.operators.get(session.who)
        if session is None or operator is None:
            why = "sign in with your operator id and PIN"
            raise ApiError(401, "signed-out", why, key="session.operator-signed-out")
        if terminal and session.idle_for(now) > self.idle_lock_seconds:
            raise ApiError(
                401,
                "locked",
                f"the terminal locked after {self.idle_lock_seconds} s without use"
                " (GLI-19 §C.6.5): enter your PIN",
                key="session.locked",
                params={"seconds": self.idle_lock_seconds},
            )
        if activity:
            self.store.touch(self._token(request, Kind.OPERATOR) or "", Kind.OPERATOR, now)
        return operator

    def display(self, request: HTTPConnection) -> Operator:
        """Who signed this display in: a display grant, or an operator signed in here."""
        session = self._session(request, Kind.DISPLAY, self.clock())
        operator = None if session is None else self.operators.get(session.who)
        if operator is not None:
            return operator
        return self.operator(request, activity=False, terminal=False)

    def player(self, request: HTTPConnection) -> str:
        return self.player_session(request).who

    def player_session(self, request: HTTPConnection) -> Session:
        """The signed-in player's session: their id and (launched) their currency."""
        session = self._session(request, Kind.PLAYER, self.clock())
        if session is None:
            raise ApiError(
                401, "signed-out", "sign in as a player first", key="session.player-signed-out"
            )
        return session

    def viewer(self, request: HTTPConnection) -> Viewer:
        """Whose wagers the request may see (sicbo.gateway.redaction): floor staff signed in
        at a terminal that is not idle-locked see everyone's, a player their own, anyone else
        none. Reading is no activity: it keeps no terminal open."""
        try:
            operator = self.operator(request, activity=False)
        except ApiError:
            operator = None
        if operator is not None and operator.role in TERMINAL_ROLES:
            return STAFF
        player = self._session(request, Kind.PLAYER, self.clock())
        return ANONYMOUS if player is None else Viewer(player=player.who)

    def info(self, operator: Operator) -> dict[str, Any]:
        return {
            "operator": operator.id,
            "role": operator.role.value,
            "actions": sorted(TERMINAL_ACTIONS.get(operator.role, ())),
            "idle_lock_seconds": self.idle_lock_seconds,
        }

    # ---- cookies ----------------------------------------------------------------------------

    def open(
        self,
        response: Response,
        kind: Kind,
        who: str,
        role: Role,
        *,
        currency: str | None = None,
    ) -> None:
        """A fresh session (a new token: never one the browser had before) in its cookie."""
        token = secrets.token_urlsafe(32)
        self.store.open(token, kind, who, role, self.clock(), currency=currency)
        response.set_cookie(
            self.cookie(kind),
            token,
            max_age=int(self.store.lifetime),
            path="/",
            secure=self.https_only,
            httponly=True,
            samesite="strict",  # never sent with another site's request
        )

    def close(self, request: HTTPConnection, response: Response | None, kind: Kind) -> None:
        """The request's session of ``kind`` ends here (its token is worth nothing after)."""
        token = self._token(request, kind)
        if token:
            self.store.close(token, kind)
        if response is not None:
            response.delete_cookie(
                self.cookie(kind),
                path="/",
                secure=self.https_only,
                httponly=True,
                samesite="strict",
            )

    def cookie(self, kind: Kind) -> str:
        return f"{'__Host-' if self.https_only else ''}sicbo-{kind.value}"

    def _token(self, request: HTTPConnection, kind: Kind) -> str | None:
        return request.cookies.get(self.cookie(kind))

    def _session(self, request: HTTPConnection, kind: Kind, now: float) -> Session | None:
        token = self._token(request, kind)
        return None if not token else self.store.get(token, kind, now)
