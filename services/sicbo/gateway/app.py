"""The web gateway (ASGI, Starlette): pages, a JSON API, live changes, and layout displays.

It talks to the floor only through NATS (:class:`~sicbo.gateway.floor.GatewayFloor`). Sessions
live in the gateway (:mod:`~sicbo.gateway.sessions`), the cookie carries a token only; every
command's actor is stamped from the signed-in operator, never taken from the browser.
docs/gateway.md lists the routes; each group is a module of its own:
:mod:`~sicbo.gateway.signin` (sign-in, sign-out, revocation), :mod:`~sicbo.gateway.launch`
(players launched by their operator's token), :mod:`~sicbo.gateway.commands`,
:mod:`~sicbo.gateway.tables` (views, board, reports, history), :mod:`~sicbo.gateway.takeover`
(a demo table taken over and handed back), :mod:`~sicbo.gateway.live` (events, the layout
controller), :mod:`~sicbo.gateway.accounts_routes` (a player's own account, the cashier) and
:mod:`~sicbo.gateway.demo_launch` (the demo operator's launches).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from nats.aio.client import Client as NATS
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from sicbo.gateway.accounts_routes import AccountsRoutes
from sicbo.gateway.commands import CommandRoutes
from sicbo.gateway.connection import Connected, Connection
from sicbo.gateway.demo_launch import DemoLauncher, DemoLaunchRoutes
from sicbo.gateway.floor import GatewayFloor
from sicbo.gateway.http import STATIC, guarded, not_found, page
from sicbo.gateway.launch import LaunchRoutes
from sicbo.gateway.launch_once import LaunchesUsed
from sicbo.gateway.launch_operators import LaunchConfig
from sicbo.gateway.live import LiveRoutes
from sicbo.gateway.operators import Operator
from sicbo.gateway.origin import HostsServed, SameOrigin, hosts_of
from sicbo.gateway.revocation import Revocations
from sicbo.gateway.security_headers import SecurityHeaders
from sicbo.gateway.session_store import SessionStore
from sicbo.gateway.sessions import IDLE_LOCK_SECONDS, Sessions
from sicbo.gateway.signin import SessionRoutes
from sicbo.gateway.tables import TableRoutes
from sicbo.gateway.takeover import TakeoverRoutes

_TABLE = r"{table:str}"
_API = f"/api/tables/{_TABLE}"


@dataclass(frozen=True)
class Settings:
    nats_url: str
    operators: dict[str, Operator]
    idle_lock_seconds: int = IDLE_LOCK_SECONDS
    https_only: bool = False  # production behind TLS: cookies only over https
    #: The origins whose pages may change anything (sicbo.gateway.origin); empty: the
    #: gateway's own, as each request addresses it.
    allowed_origins: frozenset[str] = field(default_factory=frozenset)
    #: Players sign in by a bare id (the demo floor only: anyone could claim any player).
    demo_players: bool = False
    #: The operators that launch players by token (sicbo.gateway.launch); None: none do.
    launch: LaunchConfig | None = None
    #: The demo operator's key: its cashier page launches players (sicbo.gateway.demo_launch,
    #: the demo floor only); None: no page mints a token.
    demo_launch: DemoLauncher | None = None


def create_gateway(settings: Settings) -> Starlette:
    store = SessionStore()
    revocations = Revocations(store)
    launches_used = LaunchesUsed()

    async def connected(nc: NATS) -> None:
        await revocations.start(nc)
        await launches_used.start(nc)

    connection = Connection(
        settings.nats_url, on_connect=connected, on_reconnect=revocations.reconnected
    )
    sessions = Sessions(
        settings.operators, settings.idle_lock_seconds, store=store, https_only=settings.https_only
    )
    floor, hub = connection.floor, connection.hub
    accounts = AccountsRoutes(floor, hub, sessions)
    demo_launch = settings.demo_launch if settings.demo_players else None
    routes: list[BaseRoute] = [
        *_pages(floor),
        Route("/healthz", connection.healthz),
        *SessionRoutes(
            sessions, revocations, accounts.reads, demo_players=settings.demo_players
        ).routes(),
        *LaunchRoutes(sessions, launches_used, settings.launch).routes(),
        *TableRoutes(floor, sessions).routes(_API),
        *CommandRoutes(floor, sessions).routes(_API),
        *TakeoverRoutes(floor, sessions).routes(_API),
        *LiveRoutes(floor, hub, sessions).routes(_API),
        *accounts.routes(),
        *DemoLaunchRoutes(sessions, demo_launch, accounts.cashier, accounts.reads).routes(),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    same_origin = Middleware(
        SameOrigin, allowed=settings.allowed_origins, https_only=settings.https_only
    )
    # A configured origin is the gateway's only name: a request for another Host is refused
    # before anything (a DNS-rebound name reads nothing, changes nothing).
    hosts = hosts_of(settings.allowed_origins)
    trusted = [Middleware(HostsServed, hosts=hosts)] if hosts else []
    return Starlette(
        routes=routes,
        middleware=[Middleware(SecurityHeaders), *trusted, same_origin],
        lifespan=connection.lifespan,
        exception_handlers={404: not_found, 405: not_found},
    )


def _pages(floor: Connected[GatewayFloor]) -> list[BaseRoute]:
    """The pages; a table's only for a table ever opened (else a page saying so)."""
    return [
        Route("/", guarded(page("index.html"))),
        Route("/cashier", guarded(page("cashier.html"))),
        Route(f"/tables/{_TABLE}/terminal", guarded(page("terminal.html", floor))),
        Route(f"/tables/{_TABLE}/layout", guarded(page("layout.html", floor))),
        Route(f"/tables/{_TABLE}/board", guarded(page("board.html", floor))),
        Route(f"/tables/{_TABLE}/display", guarded(page("board-display.html", floor))),
        Route(f"/tables/{_TABLE}/play", guarded(page("play.html", floor))),
        Route(f"/tables/{_TABLE}/rounds/{{round:int}}", guarded(page("dispute.html", floor))),
    ]
