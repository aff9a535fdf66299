"""Players launched by their operator: ``/launch`` (the page the operator opens, the token in
the URL's fragment) and ``POST /api/launch`` (the token checked, used once, a player session
opened). docs/launch.md is the operators' guide.

Why a fragment: the browser never sends it (no server, proxy or ``Referer`` sees the token),
the page takes it out of the address and the history entry at once (``replaceState``) and
posts it to this gateway from its own origin, so the launch passes the same-origin check
(:mod:`sicbo.gateway.origin`) like every other sign-in, with no cross-site form let in.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from sicbo.gateway.http import ApiError, guarded, page, read_body
from sicbo.gateway.launch_once import LaunchesUsed
from sicbo.gateway.launch_operators import LaunchConfig
from sicbo.gateway.launch_tokens import LaunchRefused, verify_launch
from sicbo.gateway.session_store import Kind
from sicbo.gateway.sessions import Sessions
from sicbo_contracts.base import Role


class LaunchRoutes:
    def __init__(self, sessions: Sessions, used: LaunchesUsed, config: LaunchConfig | None) -> None:
        self.sessions = sessions
        self.used = used
        self.config = config

    async def launch(self, request: Request) -> Response:
        """The token's player signed in here (whoever this browser's player was, ends); a
        refused token changes nothing, the browser's player stays signed in (a link to
        ``/launch`` with a forged token would otherwise sign anyone out)."""
        if self.config is None:
            raise ApiError(
                403,
                "forbidden",
                "this floor launches no players: no launch operators are configured"
                " (--launch-operators)",
            )
        token = (await read_body(request)).get("token")
        now = self.sessions.clock()
        try:
            launch = verify_launch(token, self.config.operators, self.config.audience, now)
            await self.used.use(launch, now)
        except LaunchRefused as err:
            raise ApiError(
                err.status, err.code, err.reason, err.field, key=launch_key(err.code)
            ) from None
        self.sessions.close(request, None, Kind.PLAYER)
        answer = {
            "player": launch.player,
            "operator": launch.operator,
            "currency": launch.currency,
        }
        response = JSONResponse(answer)
        self.sessions.open(
            response, Kind.PLAYER, launch.player, Role.PLAYER, currency=launch.currency
        )
        return response

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/launch", guarded(page("launch.html")), methods=["GET"]),
            Route("/api/launch", guarded(self.launch), methods=["POST"]),
        ]


#: A refused launch in the player's words: a link used or expired, else not valid (what is
#: wrong with the token is for its operator, in the English).
LAUNCH_KEYS = {"reused": "launch.used", "expired": "launch.expired"}


def launch_key(code: str) -> str:
    return LAUNCH_KEYS.get(code, "launch.invalid")
