"""The gateway's one NATS connection: made as the app starts (its lifespan), drained as it stops.

The floor (:class:`~sicbo.gateway.floor.GatewayFloor`) and the change hub exist only once it is
connected; each route group is handed the one it needs, as :class:`Connected`, and asking for
it before then is a 503.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Generic, TypeVar

import nats
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from sicbo.eventstore.layout import open_floor_log
from sicbo.gateway.changes import ChangeHub
from sicbo.gateway.floor import GatewayFloor
from sicbo.gateway.http import ApiError
from sicbo.infra.nats_auth import connect_options
from sicbo.infra.nats_close import close_promptly
from sicbo.infra.nats_flush import flush_sent
from sicbo.infra.nats_urls import redacted, servers
from sicbo.infra.replies import answer
from sicbo_contracts.subjects import GATEWAY_INBOX, service_ping

log = logging.getLogger(__name__)

T = TypeVar("T")
#: Seconds the stopping gateway drains its connection before closing it (its server may be gone).
DRAIN_WITHIN = 5.0


class Connected(Generic[T]):
    """What the gateway has once connected to NATS; a 503 when asked for before."""

    def __init__(self) -> None:
        self._value: T | None = None

    def get(self) -> T:
        if self._value is None:
            raise ApiError(503, "unavailable", "the gateway is not connected to NATS")
        return self._value

    def set(self, value: T) -> None:
        self._value = value


class Connection:
    """``on_connect`` runs once connected (before the first request is served);
    ``on_reconnect`` after each reconnect."""

    def __init__(
        self,
        nats_url: str,
        *,
        on_connect: Callable[[NATS], Awaitable[None]] | None = None,
        on_reconnect: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        self.nats_url = nats_url
        self.on_connect = on_connect
        self.on_reconnect = on_reconnect
        self.floor: Connected[GatewayFloor] = Connected()
        self.hub: Connected[ChangeHub] = Connected()
        self._nc: NATS | None = None

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        url = self.nats_url
        self._nc = await nats.connect(
            servers(url),
            name="sicbo-gateway",
            inbox_prefix=GATEWAY_INBOX,  # its NATS permissions allow no other inbox
            reconnected_cb=self._reconnected,
            **connect_options(url),
        )
        if self.on_connect is not None:
            await self.on_connect(self._nc)
        self.floor.set(GatewayFloor(self._nc, store=await open_floor_log(self._nc)))
        self.hub.set(ChangeHub(self._nc))
        await self._nc.subscribe(service_ping("gateway"), cb=self._pong)
        await flush_sent(self._nc)
        log.info("gateway connected to %s", redacted(url))
        try:
            yield
        finally:
            await close_promptly(self._nc, DRAIN_WITHIN)

    async def _reconnected(self) -> None:
        if self.on_reconnect is not None:
            await self.on_reconnect()

    async def _pong(self, msg: Msg) -> None:
        await answer(msg, b'{"ok":true}')

    async def healthz(self, request: Request) -> Response:
        ok = self._nc is not None and self._nc.is_connected
        return JSONResponse({"ok": ok}, status_code=200 if ok else 503)
