"""The demo operator's page, in the gateway of the demo floor only (``make run``): "launch as
player" on the cashier page mints a real launch token for one of the demo operator's players,
with the demo operator's private key, and hands the page the ``/launch`` link (docs/launch.md
"On the demo floor").

A real floor has no such route: its operators mint tokens on their own sites, with keys the
floor never holds. The gateway serves it only when started with ``--demo-players`` and
``--demo-launch-key`` (the key ``make run`` makes at each start).

- ``GET /api/cashier/demo-launch``: who launches here (404 when nobody does).
- ``POST /api/cashier/demo-launch`` ``{"player": "demo:alice", "table": "demo-online"}``: the
  link, for a player whose account is open (the token names the account's currency).
"""

from __future__ import annotations

import secrets
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from sicbo.gateway.account_reads import AccountReads, account_id
from sicbo.gateway.http import ApiError, guarded, read_body, table_id
from sicbo.gateway.launch_mint import mint_launch_token
from sicbo.gateway.launch_tokens import PLAYER_REF
from sicbo.gateway.operators import Operator
from sicbo.gateway.sessions import Sessions


@dataclass(frozen=True)
class DemoLauncher:
    """The demo operator (an id of the launch operators' list) and its private key."""

    operator: str
    key: Ed25519PrivateKey
    audience: str

    def __repr__(self) -> str:  # the key never reaches a log
        return f"DemoLauncher(operator={self.operator!r}, audience={self.audience!r})"


class DemoLaunchRoutes:
    def __init__(
        self,
        sessions: Sessions,
        launcher: DemoLauncher | None,
        cashier: Callable[[Request], Operator],
        reads: Callable[[], AccountReads],
    ) -> None:
        self.sessions = sessions
        self.launcher = launcher
        self.cashier = cashier
        self.reads = reads

    def _launcher(self, request: Request) -> DemoLauncher:
        self.cashier(request)
        if self.launcher is None:
            raise ApiError(404, "not-found", "only the demo floor launches players from here")
        return self.launcher

    async def info(self, request: Request) -> Response:
        launcher = self._launcher(request)
        return JSONResponse({"operator": launcher.operator})

    async def launch(self, request: Request) -> Response:
        launcher = self._launcher(request)
        body = await read_body(request)
        player = account_id(body.get("player"))
        prefix = f"{launcher.operator}:"
        ref = player.removeprefix(prefix)
        if not player.startswith(prefix) or not PLAYER_REF.fullmatch(ref):
            why = f"player: the demo operator launches its own players, {prefix}<id>"
            raise ApiError(400, "invalid", why, "$.player")
        table = body.get("table")
        if table is not None and not isinstance(table, str):
            why = f"table: a table id is a string, not {type(table).__name__} {table!r}"
            raise ApiError(400, "invalid", why, "$.table", key="http.table-id")
        if table is not None:
            table = table_id(table, "$.table")
        found = await self.reads().statement(player)
        if found.currency is None:
            why = f"player: {player} has no account; open it (and deposit) first"
            raise ApiError(409, "refused", why, "$.player")
        token = mint_launch_token(
            launcher.key,
            operator=launcher.operator,
            player=ref,
            currency=found.currency,
            audience=launcher.audience,
            now=self.sessions.clock(),
            jti=secrets.token_urlsafe(16),
        )
        fragment = urllib.parse.urlencode({"token": token, **({"table": table} if table else {})})
        return JSONResponse({"player": player, "url": f"/launch#{fragment}"})

    def routes(self) -> list[BaseRoute]:
        return [
            Route("/api/cashier/demo-launch", guarded(self.info), methods=["GET"]),
            Route("/api/cashier/demo-launch", guarded(self.launch), methods=["POST"]),
        ]
