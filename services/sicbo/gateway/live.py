"""What reaches the pages as it happens: server-sent events, one ``change`` per event appended
(the page re-reads), and a page as a table's layout controller over a WebSocket
(:mod:`sicbo.gateway.displays`)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable

from nats.aio.msg import Msg
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket

from sicbo.gateway.changes import ChangeHub
from sicbo.gateway.connection import Connected
from sicbo.gateway.displays import serve_display
from sicbo.gateway.floor import GatewayFloor
from sicbo.gateway.http import ApiError, guarded, table_id, table_of
from sicbo.gateway.sessions import Sessions
from sicbo_contracts.subjects import Aggregate, all_tables, parse_event_subject, table_filter

KEEPALIVE_SECONDS = 15.0
SSE_HEADERS = {"cache-control": "no-cache", "x-accel-buffering": "no"}


class LiveRoutes:
    def __init__(
        self, floor: Connected[GatewayFloor], hub: Connected[ChangeHub], sessions: Sessions
    ) -> None:
        self.floor = floor
        self.hub = hub
        self.sessions = sessions

    async def events(self, request: Request) -> Response:
        """Server-sent events of a table (``?table=``), or of every table's lifecycle."""
        table = request.query_params.get("table")
        if table is not None:
            table_id(table)
        subject = table_filter(table) if table else all_tables(Aggregate.LIFECYCLE)
        stream = event_stream(self.hub.get(), subject, _change_frame)
        return StreamingResponse(stream, media_type="text/event-stream", headers=SSE_HEADERS)

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
        await serve_display(ws, self.floor.get().nc, table, lambda: self._granted(ws))

    def _granted(self, ws: WebSocket) -> bool:
        try:
            self.sessions.display(ws)
        except ApiError:
            return False
        return True

    def routes(self, api: str) -> list[BaseRoute]:
        return [
            Route("/api/events", guarded(self.events)),
            WebSocketRoute(f"{api}/layout-controller", self.layout_controller),
        ]


async def event_stream(
    hub: ChangeHub,
    subject: str,
    frame_of: Callable[[Msg], bytes | None],
    granted: Callable[[], bool] | None = None,
) -> AsyncIterator[bytes]:
    """An event stream's frames: ``frame_of`` each message on ``subject`` (None: nothing to
    tell the page), a comment when nothing happens. With ``granted``, the stream ends at the
    first frame after it says no (the sign-in that opened it ended: signed out, expired,
    revoked), as a page's later request would be refused."""
    async with hub.watch(subject) as changes:
        yield b": connected\n\n"
        while True:
            try:
                msg = await asyncio.wait_for(changes.get(), KEEPALIVE_SECONDS)
            except TimeoutError:
                if granted is not None and not granted():
                    return
                yield b": keep-alive\n\n"
                continue
            if granted is not None and not granted():
                return
            frame = frame_of(msg)
            if frame is not None:
                yield frame


def _change_frame(msg: Msg) -> bytes | None:
    """``event: change`` of an event's subject; None for one that is not a floor event (nothing
    a page re-reads for)."""
    parsed = parse_event_subject(msg.subject)
    if parsed is None:
        return None
    change = {
        "table": parsed.table,
        "aggregate": parsed.aggregate.value,
        "round": parsed.round,
        "type": parsed.token,
    }
    return b"event: change\ndata: " + json.dumps(change).encode() + b"\n\n"
