"""Who is signed in, from the signed session cookie, and the routes that sign in and out.

Three sign-ins share the cookie: an operator at a terminal (id and PIN; locked after
``idle_lock_seconds`` unused), a layout display granted by an operator (id and PIN; never
idle-locked, nobody works at it), and a player of the online table (a player id only).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Mapping
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from sicbo.gateway.http import ID_CHARS, ApiError, guarded, read_body
from sicbo.gateway.operators import ID, Operator
from sicbo.gateway.throttle import SignInThrottle
from sicbo_contracts.access import TERMINAL_ACTIONS
from sicbo_contracts.base import Role

#: GLI-19 §C.6.5: a terminal locks after 5 idle minutes.
IDLE_LOCK_SECONDS = 300
#: Checked against when the id is unknown: no PIN hashes to all zeros.
_NOBODY = Operator(id="-", role=Role.DEALER, salt="00" * 16, pin_hash="00" * 32)


class Sessions:
    """Who the session says is signed in; refused (401) when nobody is, or a terminal locked."""

    def __init__(
        self, operators: Mapping[str, Operator], idle_lock_seconds: int = IDLE_LOCK_SECONDS
    ) -> None:
        self.operators = operators
        self.idle_lock_seconds = idle_lock_seconds

    def operator(
        self, request: HTTPConnection, *, activity: bool = True, terminal: bool = True
    ) -> Operator:
        """The signed-in operator; refuses when signed out, or a terminal locked for idleness
        (a layout display, ``terminal=False``, has no one at it to be idle)."""
        session = request.session
        operator = self.operators.get(session.get("operator", ""))
        if operator is None:
            raise ApiError(401, "signed-out", "sign in with your operator id and PIN")
        idle = time.time() - float(session.get("seen", 0))
        if terminal and idle > self.idle_lock_seconds:
            raise ApiError(
                401,
                "locked",
                f"the terminal locked after {self.idle_lock_seconds} s without use"
                " (GLI-19 §C.6.5): enter your PIN",
            )
        if activity:
            session["seen"] = time.time()
        return operator

    def display(self, request: HTTPConnection) -> Operator:
        """Who signed this display in: a display grant, or an operator signed in here."""
        operator = self.operators.get(request.session.get("display", ""))
        if operator is not None:
            return operator
        return self.operator(request, activity=False, terminal=False)

    def player(self, request: HTTPConnection) -> str:
        player = request.session.get("player")
        if not player:
            raise ApiError(401, "signed-out", "sign in with your player id")
        return str(player)

    def info(self, operator: Operator) -> dict[str, Any]:
        return {
            "operator": operator.id,
            "role": operator.role.value,
            "actions": sorted(TERMINAL_ACTIONS.get(operator.role, ())),
            "idle_lock_seconds": self.idle_lock_seconds,
        }


class SessionRoutes:
    """``/api/session`` (an operator), ``/api/display`` (a display grant), ``/api/player``."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        self.throttle = SignInThrottle()

    # ---- operators --------------------------------------------------------------------------

    async def get_session(self, request: Request) -> Response:
        operator = self.sessions.operator(request, activity=False)
        return JSONResponse(self.sessions.info(operator))

    async def sign_in(self, request: Request) -> Response:
        request.session.pop("operator", None)
        operator = await self._verified(request)
        request.session.update({"operator": operator.id, "seen": time.time()})
        return JSONResponse(self.sessions.info(operator))

    async def sign_out(self, request: Request) -> Response:
        # Tables taken over stay taken: a second person may be about to confirm a result at
        # this very terminal (second-person confirmation). "Hand back" releases them.
        request.session.pop("operator", None)
        request.session.pop("seen", None)
        return JSONResponse({"signed_out": True})

    async def _verified(self, request: Request) -> Operator:
        """The operator whose id and PIN the body carries. Every attempt counts until the PIN
        proves right (sicbo.gateway.throttle), unknown ids too; too many, and the caller waits."""
        op_id, pin = _credentials(await read_body(request))
        client = request.client.host if request.client else "unknown"
        now = time.time()
        wait = self.throttle.attempt(op_id, client, now)
        if wait:
            seconds = math.ceil(wait)
            raise ApiError(
                429,
                "too-many-attempts",
                f"too many wrong PINs for {op_id} from here: try again in {seconds} s",
                headers={"retry-after": str(seconds)},
            )
        operator = self.sessions.operators.get(op_id)
        # PBKDF2 (~40 ms) off the event loop, which answers the displays' 2 s light requests;
        # an unknown id costs the same, so timing does not tell which ids exist.
        matches = await asyncio.to_thread((operator or _NOBODY).pin_matches, pin)
        if operator is None or not matches:
            raise ApiError(401, "bad-pin", "unknown operator id or wrong PIN")
        self.throttle.succeeded(op_id, client, time.time())
        return operator

    # ---- layout displays --------------------------------------------------------------------

    async def get_display(self, request: Request) -> Response:
        return JSONResponse({"display": self.sessions.display(request).id})

    async def display_sign_in(self, request: Request) -> Response:
        """A display grant: the page may be a table's layout controller and nothing else (no
        command), so a display left signed in is no terminal for whoever walks by."""
        operator = await self._verified(request)
        request.session["display"] = operator.id
        return JSONResponse({"display": operator.id})

    async def display_sign_out(self, request: Request) -> Response:
        request.session.pop("display", None)
        return JSONResponse({"signed_out": True})

    # ---- players ----------------------------------------------------------------------------

    async def get_player(self, request: Request) -> Response:
        return JSONResponse({"player": self.sessions.player(request)})

    async def player_sign_in(self, request: Request) -> Response:
        player = _player_id(await read_body(request))
        request.session["player"] = player
        return JSONResponse({"player": player})

    async def player_sign_out(self, request: Request) -> Response:
        request.session.pop("player", None)
        return JSONResponse({"signed_out": True})

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/session", guarded(self.get_session), methods=["GET"]),
            Route("/api/session", guarded(self.sign_in), methods=["POST"]),
            Route("/api/session", guarded(self.sign_out), methods=["DELETE"]),
            Route("/api/display", guarded(self.get_display), methods=["GET"]),
            Route("/api/display", guarded(self.display_sign_in), methods=["POST"]),
            Route("/api/display", guarded(self.display_sign_out), methods=["DELETE"]),
            Route("/api/player", guarded(self.get_player), methods=["GET"]),
            Route("/api/player", guarded(self.player_sign_in), methods=["POST"]),
            Route("/api/player", guarded(self.player_sign_out), methods=["DELETE"]),
        ]


def _credentials(body: dict[str, Any]) -> tuple[str, str]:
    """The operator id and PIN a sign-in's body carries."""
    op_id, pin = body.get("operator"), body.get("pin")
    if not isinstance(op_id, str) or not ID.fullmatch(op_id):
        raise ApiError(
            400, "invalid", "operator: your operator id, 1-64 of A-Z a-z 0-9 _ . : @ -", "operator"
        )
    if not isinstance(pin, str) or not pin:
        raise ApiError(400, "invalid", "pin: your PIN", "pin")
    return op_id, pin


def _player_id(body: dict[str, Any]) -> str:
    player = body.get("player")
    if (
        not isinstance(player, str)
        or not 1 <= len(player) <= 64
        or not set(player) <= (ID_CHARS | set(".:@"))
    ):
        raise ApiError(400, "invalid", "player: 1-64 of A-Z a-z 0-9 _ . : @ -", "player")
    return player
