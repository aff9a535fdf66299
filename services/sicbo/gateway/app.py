"""The web gateway (ASGI, Starlette): pages, a JSON API, live changes, and layout displays.

It talks to the floor only through NATS (:class:`~sicbo.gateway.floor.GatewayFloor`). Sessions
are signed cookies; every command's actor is stamped from the signed-in operator, never taken
from the browser. docs/gateway.md lists the routes.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgspec
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.sessions import SessionMiddleware
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from sicbo.game.errors import GameError
from sicbo.game.profiles import parse_paytable_ref
from sicbo.gateway.attempts import SignInAttempts
from sicbo.gateway.changes import ChangeHub
from sicbo.gateway.connection import Connection
from sicbo.gateway.displays import serve_display
from sicbo.gateway.floor import GatewayFloor, Unavailable
from sicbo.gateway.http import (
    ID_CHARS,
    STATIC,
    ApiError,
    error,
    guarded,
    json_response,
    page,
    read_body,
    reply_response,
    table_id,
    table_of,
)
from sicbo.gateway.layout import layout_of
from sicbo.gateway.operators import Operator
from sicbo.shell.codec import invalid_input
from sicbo_contracts.access import TERMINAL_ACTIONS, may_send
from sicbo_contracts.base import Role
from sicbo_contracts.demo import Control, TakeoverRequest
from sicbo_contracts.dice import DiceCommand
from sicbo_contracts.lifecycle import LifecycleCommand
from sicbo_contracts.replies import Rejected
from sicbo_contracts.subjects import (
    Aggregate,
    all_tables,
    demo_control,
    demo_release,
    demo_takeover,
    history_query,
    parse_event_subject,
    recall_query,
    stats_query,
    table_filter,
)
from sicbo_contracts.wagers import BetHistoryQuery, WagerCommand

#: GLI-19 §C.6.5: a terminal locks after 5 idle minutes.
IDLE_LOCK_SECONDS = 300
KEEPALIVE_SECONDS = 15.0

_command = msgspec.json.Decoder(LifecycleCommand | DiceCommand | WagerCommand)
_encode = msgspec.json.Encoder().encode
_TABLE = r"{table:str}"
#: Checked against when the id is unknown: no PIN hashes to all zeros.
_NOBODY = Operator(id="-", role=Role.DEALER, salt="00" * 16, pin_hash="00" * 32)


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
        self.attempts = SignInAttempts()

    @property
    def floor(self) -> GatewayFloor:
        return self.connection.floor.get()

    @property
    def hub(self) -> ChangeHub:
        return self.connection.hub.get()

    # ---- sessions ---------------------------------------------------------------------------

    def _operator(
        self, request: HTTPConnection, *, activity: bool = True, terminal: bool = True
    ) -> Operator:
        """The signed-in operator; refuses when signed out, or a terminal locked for idleness
        (a layout display, ``terminal=False``, has no one at it to be idle)."""
        session = request.session
        operator = self.settings.operators.get(session.get("operator", ""))
        if operator is None:
            raise ApiError(401, "signed-out", "sign in with your operator id and PIN")
        idle = time.time() - float(session.get("seen", 0))
        if terminal and idle > self.settings.idle_lock_seconds:
            raise ApiError(
                401,
                "locked",
                f"the terminal locked after {self.settings.idle_lock_seconds} s without use"
                " (GLI-19 §C.6.5): enter your PIN",
            )
        if activity:
            session["seen"] = time.time()
        return operator

    def _session_info(self, operator: Operator) -> dict[str, Any]:
        return {
            "operator": operator.id,
            "role": operator.role.value,
            "actions": sorted(TERMINAL_ACTIONS.get(operator.role, ())),
            "idle_lock_seconds": self.settings.idle_lock_seconds,
        }

    async def get_session(self, request: Request) -> Response:
        return JSONResponse(self._session_info(self._operator(request, activity=False)))

    async def _verified(self, request: Request) -> Operator:
        """The operator whose id and PIN the body carries; counts wrong PINs."""
        body = await read_body(request)
        op_id, pin = body.get("operator"), body.get("pin")
        if not isinstance(op_id, str) or not op_id:
            raise ApiError(400, "invalid", "operator: your operator id", "operator")
        if not isinstance(pin, str) or not pin:
            raise ApiError(400, "invalid", "pin: your PIN", "pin")
        now = time.time()
        wait = self.attempts.locked_for(op_id, now)
        if wait:
            raise ApiError(
                429, "too-many-attempts", f"too many wrong PINs: try again in {math.ceil(wait)} s"
            )
        operator = self.settings.operators.get(op_id)
        # PBKDF2 (~40 ms) off the event loop, which answers the displays' 2 s light requests;
        # an unknown id costs the same, so timing does not tell which ids exist.
        matches = await asyncio.to_thread((operator or _NOBODY).pin_matches, pin)
        if operator is None or not matches:
            if operator is not None:
                self.attempts.failed(op_id, now)
            raise ApiError(401, "bad-pin", "unknown operator id or wrong PIN")
        self.attempts.succeeded(op_id)
        return operator

    async def sign_in(self, request: Request) -> Response:
        request.session.pop("operator", None)
        operator = await self._verified(request)
        request.session.update({"operator": operator.id, "seen": time.time()})
        return JSONResponse(self._session_info(operator))

    async def sign_out(self, request: Request) -> Response:
        # Tables taken over stay taken: a second person may be about to confirm a result at
        # this very terminal (second-person confirmation). "Hand back" releases them.
        request.session.pop("operator", None)
        request.session.pop("seen", None)
        return JSONResponse({"signed_out": True})

    # ---- layout displays ---------------------------------------------------------------------

    def _display(self, request: HTTPConnection) -> Operator:
        """Who signed this display in: a display grant, or an operator signed in here."""
        operator = self.settings.operators.get(request.session.get("display", ""))
        if operator is not None:
            return operator
        return self._operator(request, activity=False, terminal=False)

    async def get_display(self, request: Request) -> Response:
        return JSONResponse({"display": self._display(request).id})

    async def display_sign_in(self, request: Request) -> Response:
        """A display grant: the page may be a table's layout controller and nothing else (no
        command), so a display left signed in is no terminal for whoever walks by."""
        operator = await self._verified(request)
        request.session["display"] = operator.id
        return JSONResponse({"display": operator.id})

    async def display_sign_out(self, request: Request) -> Response:
        request.session.pop("display", None)
        return JSONResponse({"signed_out": True})

    # ---- commands ---------------------------------------------------------------------------

    async def post_command(self, request: Request) -> Response:
        table = table_of(request)
        operator = self._operator(request)
        body = await read_body(request)
        for stamped in ("table", "actor"):
            if stamped in body:
                raise ApiError(
                    400,
                    "invalid",
                    f"{stamped}: set by the gateway from the page and sign-in",
                    f"$.{stamped}",
                )
        tag = body.get("type")
        if not isinstance(tag, str):
            raise ApiError(
                400, "invalid", 'type: the command\'s type tag, e.g. "round.start.v1"', "$.type"
            )
        if not may_send(operator.role, tag):
            raise ApiError(
                403, "forbidden", f"a {operator.role.value} may not send {tag} from a terminal"
            )
        body.update(table=table, actor={"id": operator.id, "role": operator.role.value})
        return await self._forward(body)

    async def _forward(self, body: dict[str, Any]) -> Response:
        try:
            cmd = _command.decode(json.dumps(body).encode())
        except msgspec.DecodeError as err:
            rejected = invalid_input(err, body.get("command_id"))
            return error(400, rejected.code, rejected.reason, rejected.field)
        return reply_response(await self.floor.send(cmd))

    async def _ask_demo(self, subject: str, payload: bytes, otherwise: Control) -> Response:
        """The demo floor's answer (sicbo.demo.takeover); ``otherwise`` where no simulated
        dealer answers: a real floor, where nobody else plays the table."""
        try:
            raw = await self.floor.request(subject, payload)
        except Unavailable:
            raw = _encode(otherwise)
        return Response(raw, media_type="application/json")

    async def takeover(self, request: Request) -> Response:
        table = table_of(request)
        operator = self._operator(request)
        request_body = _encode(TakeoverRequest(by=operator.id))
        yours = Control(status="yours", by=operator.id)
        return await self._ask_demo(demo_takeover(table), request_body, yours)

    async def control(self, request: Request) -> Response:
        """Who plays the table now: the demo dealer, or the person who took it over."""
        table = await self._opened(table_of(request))
        return await self._ask_demo(demo_control(table), b"{}", Control(status="none"))

    async def release(self, request: Request) -> Response:
        table = table_of(request)
        self._operator(request)
        return await self._ask_demo(demo_release(table), b"{}", Control(status="released"))

    async def _opened(self, table: str) -> str:
        """404 for a table never opened: the services keep a read model per table asked about,
        so anonymous pages must not make them one for every id typed in a URL."""
        if not await self.floor.opened(table):
            raise ApiError(404, "not-found", f"table {table} has never been opened")
        return table

    # ---- players ----------------------------------------------------------------------------

    def _player(self, request: Request) -> str:
        player = request.session.get("player")
        if not player:
            raise ApiError(401, "signed-out", "sign in with your player id")
        return str(player)

    async def get_player(self, request: Request) -> Response:
        return JSONResponse({"player": self._player(request)})

    async def player_sign_in(self, request: Request) -> Response:
        player = (await read_body(request)).get("player")
        if (
            not isinstance(player, str)
            or not 1 <= len(player) <= 64
            or not set(player) <= (ID_CHARS | set(".:@"))
        ):
            raise ApiError(400, "invalid", "player: 1-64 of A-Z a-z 0-9 _ . : @ -", "player")
        request.session["player"] = player
        return JSONResponse({"player": player})

    async def player_sign_out(self, request: Request) -> Response:
        request.session.pop("player", None)
        return JSONResponse({"signed_out": True})

    async def place_slip(self, request: Request) -> Response:
        player = self._player(request)
        table = await self._opened(table_of(request))
        body = await read_body(request)
        unknown = body.keys() - {"command_id", "round", "wagers"}
        if unknown:
            field = sorted(unknown)[0]
            raise ApiError(400, "invalid", f"{field}: not part of a bet slip", f"$.{field}")
        for n, wager in enumerate(body.get("wagers") or []):
            extra = sorted(wager.keys() - {"bet", "stake"}) if isinstance(wager, dict) else []
            if extra:  # colour checks and promotional tokens are a dealer's, at the table
                where = f"$.wagers[{n}].{extra[0]}"
                raise ApiError(400, "invalid", f"{where}: a player bets value chips", where)
        body.update(
            type="bets.place-slip.v1",
            table=table,
            actor={"id": player, "role": Role.PLAYER.value},
            player=player,
        )
        return await self._forward(body)

    async def history(self, request: Request) -> Response:
        query = BetHistoryQuery(player=self._player(request))
        table = await self._opened(table_of(request))
        return reply_response(await self.floor.request(history_query(table), _encode(query)))

    # ---- reads ------------------------------------------------------------------------------

    async def get_floor(self, request: Request) -> Response:
        views = await self.floor.views()
        return json_response({"server_time": _now(), "tables": views})

    async def get_table(self, request: Request) -> Response:
        table = table_of(request)
        view = await self.floor.view(table)
        if view is None:
            raise ApiError(404, "not-found", f"table {table} has never been opened")
        return json_response({"server_time": _now(), **msgspec.to_builtins(view)})

    async def get_layout(self, request: Request) -> Response:
        table = table_of(request)
        view = await self.floor.view(table)
        if view is None or view.paytable is None:
            raise ApiError(404, "not-found", f"table {table} has never been opened")
        try:
            layout = layout_of(parse_paytable_ref(view.paytable))
        except GameError as err:  # a paytable of a newer version than this gateway knows
            raise ApiError(503, "unavailable", str(err)) from None
        return json_response({"table": table, **msgspec.to_builtins(layout)})

    async def get_board(self, request: Request) -> Response:
        table = await self._opened(table_of(request))
        stats, recall = await asyncio.gather(
            self.floor.request(stats_query(table), b"{}"),
            self.floor.request(recall_query(table), b"{}"),
        )
        for raw in (stats, recall):
            if json.loads(raw).get("type") == Rejected.__struct_config__.tag:
                return reply_response(raw)
        body = b'{"stats":' + stats + b',"recall":' + recall + b"}"
        return Response(body, media_type="application/json")

    async def get_round(self, request: Request) -> Response:
        table = table_of(request)
        try:
            round_no = int(request.path_params["round"])
        except ValueError:
            raise ApiError(400, "invalid", "round: a round number, 1 or more", "round") from None
        if round_no < 1:
            raise ApiError(400, "invalid", "round: a round number, 1 or more", "round")
        report = await self.floor.round_report(table, round_no)
        if report.status == "NOT STARTED":
            raise ApiError(404, "not-found", f"round {round_no} of {table} has not started")
        return json_response(report)

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
            self._display(ws)
        except ApiError as err:
            await ws.close(code=4401 if err.status == 401 else 4400, reason=err.reason[:120])
            return
        await serve_display(ws, self.floor.nc, table)


def _now() -> str:
    return datetime.now(UTC).isoformat()


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
        Route("/api/floor", guarded(gw.get_floor)),
        Route("/api/events", guarded(gw.events)),
        Route("/api/session", guarded(gw.get_session), methods=["GET"]),
        Route("/api/session", guarded(gw.sign_in), methods=["POST"]),
        Route("/api/session", guarded(gw.sign_out), methods=["DELETE"]),
        Route("/api/display", guarded(gw.get_display), methods=["GET"]),
        Route("/api/display", guarded(gw.display_sign_in), methods=["POST"]),
        Route("/api/display", guarded(gw.display_sign_out), methods=["DELETE"]),
        Route("/api/player", guarded(gw.get_player), methods=["GET"]),
        Route("/api/player", guarded(gw.player_sign_in), methods=["POST"]),
        Route("/api/player", guarded(gw.player_sign_out), methods=["DELETE"]),
        Route(api, guarded(gw.get_table)),
        Route(f"{api}/layout", guarded(gw.get_layout)),
        Route(f"{api}/board", guarded(gw.get_board)),
        Route(f"{api}/rounds/{{round}}", guarded(gw.get_round)),
        Route(f"{api}/commands", guarded(gw.post_command), methods=["POST"]),
        Route(f"{api}/takeover", guarded(gw.takeover), methods=["POST"]),
        Route(f"{api}/release", guarded(gw.release), methods=["POST"]),
        Route(f"{api}/control", guarded(gw.control)),
        Route(f"{api}/slips", guarded(gw.place_slip), methods=["POST"]),
        Route(f"{api}/history", guarded(gw.history)),
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
