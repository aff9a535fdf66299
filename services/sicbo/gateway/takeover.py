"""Who plays a demo table: a signed-in operator takes it over from the simulated dealer, asks
who plays it, and hands it back (the demo floor answers:
:func:`sicbo.demo.run.answer_takeovers`).

On a real floor no simulated dealer answers: the table is the operator's, and nobody else's.
"""

from __future__ import annotations

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from sicbo.gateway.connection import Connected
from sicbo.gateway.floor import GatewayFloor, Unavailable
from sicbo.gateway.http import guarded, opened_table, table_of
from sicbo.gateway.sessions import Sessions
from sicbo_contracts.demo import Control, TakeoverRequest
from sicbo_contracts.subjects import DemoAsk, demo

_encode = msgspec.json.Encoder().encode


class TakeoverRoutes:
    def __init__(self, floor: Connected[GatewayFloor], sessions: Sessions) -> None:
        self.floor = floor
        self.sessions = sessions

    async def control(self, request: Request) -> Response:
        """Who plays the table now: the demo dealer, or the person who took it over."""
        table = await opened_table(table_of(request), self.floor.get())
        return await self._ask(demo(table, DemoAsk.CONTROL), b"{}", Control(status="none"))

    async def takeover(self, request: Request) -> Response:
        table = table_of(request)
        operator = self.sessions.operator(request)
        request_body = _encode(TakeoverRequest(by=operator.id))
        yours = Control(status="yours", by=operator.id)
        return await self._ask(demo(table, DemoAsk.TAKEOVER), request_body, yours)

    async def release(self, request: Request) -> Response:
        table = table_of(request)
        self.sessions.operator(request)
        return await self._ask(demo(table, DemoAsk.RELEASE), b"{}", Control(status="released"))

    async def _ask(self, subject: str, payload: bytes, otherwise: Control) -> Response:
        """The demo floor's answer; ``otherwise`` where no simulated dealer answers: a real
        floor, where nobody else plays the table."""
        try:
            raw = await self.floor.get().request(subject, payload)
        except Unavailable:
            raw = _encode(otherwise)
        return Response(raw, media_type="application/json")

    def routes(self, api: str) -> list[BaseRoute]:
        return [
            Route(f"{api}/takeover", guarded(self.takeover), methods=["POST"]),
            Route(f"{api}/release", guarded(self.release), methods=["POST"]),
            Route(f"{api}/control", guarded(self.control)),
        ]
