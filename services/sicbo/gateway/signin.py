"""Signing in and out: ``/api/session`` (an operator at a terminal), ``/api/display`` (a display
grant), ``/api/player`` (a player of the online table, by a bare id on the demo floor only),
and
``/api/sessions/revoke`` (every session of an operator ended, on every replica)."""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from sicbo.gateway.account_reads import AccountReads
from sicbo.gateway.http import ID_CHARS, ApiError, guarded, read_body
from sicbo.gateway.operators import ID, Operator
from sicbo.gateway.revocation import Revocations
from sicbo.gateway.session_store import Kind
from sicbo.gateway.sessions import Sessions
from sicbo.gateway.throttle import SignInThrottle
from sicbo_contracts.base import Role, with_article

#: Checked against when the id is unknown: no PIN hashes to all zeros.
_NOBODY = Operator(id="-", role=Role.DEALER, salt="00" * 16, pin_hash="00" * 32)
_SIGNED_OUT = {"signed_out": True}


class SessionRoutes:
    def __init__(
        self,
        sessions: Sessions,
        revocations: Revocations,
        accounts: Callable[[], AccountReads],
        *,
        demo_players: bool = False,
    ) -> None:
        self.sessions = sessions
        self.revocations = revocations
        self.accounts = accounts
        self.demo_players = demo_players
        self.throttle = SignInThrottle()

    # ---- operators --------------------------------------------------------------------------

    async def get_session(self, request: Request) -> Response:
        operator = self.sessions.operator(request, activity=False)
        return JSONResponse(self.sessions.info(operator))

    async def sign_in(self, request: Request) -> Response:
        # Whatever this browser was signed in as ends now, whether the PIN proves right or not.
        self.sessions.close(request, None, Kind.OPERATOR)
        operator = await self._verified(request)
        response = JSONResponse(self.sessions.info(operator))
        self.sessions.open(response, Kind.OPERATOR, operator.id, operator.role)
        return response

    async def sign_out(self, request: Request) -> Response:
        # Tables taken over stay taken: a second person may be about to confirm a result at
        # this very terminal (second-person confirmation). "Hand back" releases them.
        return self._signed_out(request, Kind.OPERATOR)

    async def revoke(self, request: Request) -> Response:
        """Every session of an operator, on every replica: a supervisor's for anyone, anyone's
        for themselves (signed out everywhere)."""
        by = self.sessions.operator(request)
        target = (await read_body(request)).get("operator")
        if not isinstance(target, str) or not ID.fullmatch(target):
            raise ApiError(400, "invalid", "operator: the id whose sessions end", "operator")
        if target != by.id and by.role is not Role.SUPERVISOR:
            why = f"{with_article(by.role.value)} may end only their own sessions"
            raise ApiError(403, "forbidden", why, key="session.own-only")
        if target not in self.sessions.operators:
            why = f"no operator {target} on the list"
            params = {"operator": target}
            raise ApiError(
                404, "not-found", why, "operator", key="session.no-operator", params=params
            )
        ended = self.sessions.store.revoke(target)
        await self.revocations.announce(target)
        return JSONResponse({"operator": target, "ended_here": ended})

    async def _verified(self, request: Request) -> Operator:
        """The operator whose id and PIN the body carries. Every attempt counts until the PIN
        proves right (sicbo.gateway.throttle), unknown ids too; too many, and the caller waits."""
        op_id, pin = _credentials(await read_body(request))
        client = request.client.host if request.client else "unknown"
        wait = self.throttle.attempt(op_id, client, time.time())
        if wait:
            seconds = math.ceil(wait)
            raise ApiError(
                429,
                "too-many-attempts",
                f"too many wrong PINs for {op_id} from here: try again in {seconds} s",
                headers={"retry-after": str(seconds)},
                key="session.too-many",
                params={"seconds": seconds},
            )
        operator = self.sessions.operators.get(op_id)
        # PBKDF2 (~40 ms) off the event loop, which answers the displays' 2 s light requests;
        # an unknown id costs the same, so timing does not tell which ids exist.
        matches = await asyncio.to_thread((operator or _NOBODY).pin_matches, pin)
        if operator is None or not matches:
            raise ApiError(
                401, "bad-pin", "unknown operator id or wrong PIN", key="session.bad-pin"
            )
        self.throttle.succeeded(op_id, client, time.time())
        return operator

    # ---- layout displays --------------------------------------------------------------------

    async def get_display(self, request: Request) -> Response:
        return JSONResponse({"display": self.sessions.display(request).id})

    async def display_sign_in(self, request: Request) -> Response:
        """A display grant: the page may be a table's layout controller and nothing else (no
        command), so a display left signed in is no terminal for whoever walks by."""
        self.sessions.close(request, None, Kind.DISPLAY)
        operator = await self._verified(request)
        response = JSONResponse({"display": operator.id})
        self.sessions.open(response, Kind.DISPLAY, operator.id, operator.role)
        return response

    async def display_sign_out(self, request: Request) -> Response:
        return self._signed_out(request, Kind.DISPLAY)

    # ---- players ----------------------------------------------------------------------------

    async def get_player(self, request: Request) -> Response:
        session = self.sessions.player_session(request)
        return JSONResponse({"player": session.who, "currency": session.currency})

    async def player_sign_in(self, request: Request) -> Response:
        """A bare player id, believed on the demo floor only: elsewhere a player is who their
        operator's launch token says (sicbo.gateway.launch). Even there, only an id with no
        account in any currency: a funded player is reachable by their operator's token only,
        so nobody spends a balance or reads a statement by typing an id (issue 25)."""
        if not self.demo_players:
            raise ApiError(
                403,
                "forbidden",
                "players are launched by their operator (a launch token: /launch), not"
                " signed in by id here (bare player ids only on the demo floor: --demo-players)",
                key="session.launched-only",
            )
        self.sessions.close(request, None, Kind.PLAYER)
        player = _player_id(await read_body(request))
        if await self.accounts().has_account(player):
            raise ApiError(
                403,
                "forbidden",
                f"player {player} has an account: their operator launches them (a launch"
                " token), a bare id signs in only a player with no account",
                "player",
                key="session.has-account",
                params={"player": player},
            )
        response = JSONResponse({"player": player})
        self.sessions.open(response, Kind.PLAYER, player, Role.PLAYER)
        return response

    async def player_sign_out(self, request: Request) -> Response:
        return self._signed_out(request, Kind.PLAYER)

    def _signed_out(self, request: Request, kind: Kind) -> Response:
        """The session of that kind ended here and its cookie cleared."""
        response = JSONResponse(_SIGNED_OUT)
        self.sessions.close(request, response, kind)
        return response

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/session", guarded(self.get_session), methods=["GET"]),
            Route("/api/session", guarded(self.sign_in), methods=["POST"]),
            Route("/api/session", guarded(self.sign_out), methods=["DELETE"]),
            Route("/api/sessions/revoke", guarded(self.revoke), methods=["POST"]),
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
