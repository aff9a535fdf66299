"""The web gateway (ASGI, Starlette): pages, a JSON API, live changes, and layout displays.

It talks to the floor only through NATS (:class:`~sicbo.gateway.floor.GatewayFloor`). Sessions
are signed cookies; every command's actor is stamped from the signed-in operator, never taken
from the browser. docs/gateway.md lists the routes; each group is a module of its own:
:mod:`~sicbo.gateway.sessions` (sign-in and the idle lock), :mod:`~sicbo.gateway.commands`,
:mod:`~sicbo.gateway.tables` (views, board, reports, history), :mod:`~sicbo.gateway.takeover`
(a demo table taken over and handed back) and :mod:`~sicbo.gateway.live` (events, the layout
controller).
"""

from __future__ import annotations

from dataclasses import dataclass

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from sicbo.gateway.commands import CommandRoutes
from sicbo.gateway.connection import Connection
from sicbo.gateway.http import STATIC, guarded, page
from sicbo.gateway.live import LiveRoutes
from sicbo.gateway.operators import Operator
from sicbo.gateway.sessions import IDLE_LOCK_SECONDS, SessionRoutes, Sessions
from sicbo.gateway.tables import TableRoutes
from sicbo.gateway.takeover import TakeoverRoutes

_TABLE = r"{table:str}"
_API = f"/api/tables/{_TABLE}"


@dataclass(frozen=True)
class Settings:
    nats_url: str
    operators: dict[str, Operator]
    secret: str  # signs the session cookies: the same on every replica
    idle_lock_seconds: int = IDLE_LOCK_SECONDS
    https_only: bool = False  # production behind TLS: cookies only over https


def create_gateway(settings: Settings) -> Starlette:
    connection = Connection(settings.nats_url)
    sessions = Sessions(settings.operators, settings.idle_lock_seconds)
    floor, hub = connection.floor, connection.hub
    routes: list[BaseRoute] = [
        *_pages(),
        Route("/healthz", connection.healthz),
        *SessionRoutes(sessions).routes(),
        *TableRoutes(floor, sessions).routes(_API),
        *CommandRoutes(floor, sessions).routes(_API),
        *TakeoverRoutes(floor, sessions).routes(_API),
        *LiveRoutes(floor, hub, sessions).routes(_API),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [
        Middleware(
            SessionMiddleware,
            secret_key=settings.secret,
            session_cookie="sicbo_session",
            max_age=12 * 3600,
            same_site="strict",  # no command can be sent from another site's page
            https_only=settings.https_only,
        )
    ]
    return Starlette(routes=routes, middleware=middleware, lifespan=connection.lifespan)


def _pages() -> list[BaseRoute]:
    return [
        Route("/", guarded(page("index.html"))),
        Route(f"/tables/{_TABLE}/terminal", guarded(page("terminal.html"))),
        Route(f"/tables/{_TABLE}/layout", guarded(page("layout.html"))),
        Route(f"/tables/{_TABLE}/board", guarded(page("board.html"))),
        Route(f"/tables/{_TABLE}/play", guarded(page("play.html"))),
        Route(f"/tables/{_TABLE}/rounds/{{round:int}}", guarded(page("dispute.html"))),
    ]
