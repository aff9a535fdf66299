"""The web gateway (ASGI, Starlette): pages, a JSON API, live changes, and layout displays.

It talks to the floor only through NATS (:class:`~sicbo.gateway.floor.GatewayFloor`). Sessions
are signed cookies; every command's actor is stamped from the signed-in operator, never taken
from the browser. docs/gateway.md lists the routes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import msgspec
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from sicbo.gateway.changes import ChangeHub
from sicbo.gateway.commands import CommandRoutes
from sicbo.gateway.connection import Connection
from sicbo.gateway.demo import DemoRoutes
from sicbo.gateway.displays import serve_display
from sicbo.gateway.floor import GatewayFloor
from sicbo.gateway.http import (
    STATIC,
    ApiError,
    guarded,
    page,
    table_id,
    table_of,
)
from sicbo.gateway.operators import Operator
from sicbo.gateway.sessions import IDLE_LOCK_SECONDS, SessionRoutes, Sessions
from sicbo.gateway.tables import TableRoutes
from sicbo_contracts.subjects import (
    Aggregate,
    all_tables,
    parse_event_subject,
    table_filter,
)

KEEPALIVE_SECONDS = 15.0

_encode = msgspec.json.Encoder().encode
_TABLE = r"{table:str}"


@dataclass(frozen=True)
class Settings:
    nats_url: str
    operators: dict[str, Operator]
    secret: str  # signs the session cookies: the same on every replica
    idle_lock_seconds: int = IDLE_LOCK_SECONDS
    https_only: bool = False  # production behind TLS: cookies only over https


class Gateway:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.connection = Connection(settings.nats_url)
        self.sessions = Sessions(settings.operators, settings.idle_lock_seconds)

    @property
    def floor(self) -> GatewayFloor:
        return self.connection.floor.get()

    @property
    def hub(self) -> ChangeHub:
        return self.connection.hub.get()

    # ---- live -------------------------------------------------------------------------------

    async def events(self, request: Request) -> Response:
        """Server-sent events: one ``change`` per event appended (the page re-reads)."""
        table = request.query_params.get("table")
        if table is not None:
            table_id(table)
        subject = table_filter(table) if table else all_tables(Aggregate.LIFECYCLE)
        hub = self.hub

        async def stream() -> AsyncIterator[bytes]:
            async with hub.watch(subject) as changes:
                yield b": connected\n\n"
                while True:
                    try:
                        msg = await asyncio.wait_for(changes.get(), KEEPALIVE_SECONDS)
                    except TimeoutError:
                        yield b": keep-alive\n\n"
                        continue
                    parsed = parse_event_subject(msg.subject)
                    if parsed is None:
                        continue  # not a floor event: nothing a page re-reads for
                    change = {
                        "table": parsed.table,
                        "aggregate": parsed.aggregate.value,
                        "round": parsed.round,
                        "type": parsed.token,
                    }
                    yield b"event: change\ndata: " + json.dumps(change).encode() + b"\n\n"

        headers = {"cache-control": "no-cache", "x-accel-buffering": "no"}
        return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)

    async def layout_controller(self, ws: WebSocket) -> None:
        """The page as the table's layout controller (sicbo.gateway.displays)."""
        # Accepted first, so the page reads why in the close code: 4401 sign in, 4400 bad table.
        await ws.accept()
        try:
            table = table_of(ws)
            # A display is signed in by an operator: an anonymous page could otherwise answer
            # for the lamps, hide a dark one or get the table suspended.
            self.sessions.display(ws)
        except ApiError as err:
            await ws.close(code=4401 if err.status == 401 else 4400, reason=err.reason[:120])
            return
        await serve_display(ws, self.floor.nc, table)


def create_gateway(settings: Settings) -> Starlette:
    gw = Gateway(settings)
    api = f"/api/tables/{_TABLE}"
    routes = [
        Route("/", guarded(page("index.html"))),
        Route(f"/tables/{_TABLE}/terminal", guarded(page("terminal.html"))),
        Route(f"/tables/{_TABLE}/layout", guarded(page("layout.html"))),
        Route(f"/tables/{_TABLE}/board", guarded(page("board.html"))),
        Route(f"/tables/{_TABLE}/play", guarded(page("play.html"))),
        Route(f"/tables/{_TABLE}/rounds/{{round:int}}", guarded(page("dispute.html"))),
        Route("/healthz", gw.connection.healthz),
        Route("/api/events", guarded(gw.events)),
        *SessionRoutes(gw.sessions).routes(),
        *TableRoutes(gw.connection.floor, gw.sessions).routes(api),
        *CommandRoutes(gw.connection.floor, gw.sessions).routes(api),
        *DemoRoutes(gw.connection.floor, gw.sessions).routes(api),
        WebSocketRoute(f"{api}/layout-controller", gw.layout_controller),
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
    return Starlette(routes=routes, middleware=middleware, lifespan=gw.connection.lifespan)
