"""What the pages read of the tables: the floor's views, a table's view and layout, its board,
a round's dispute report, and a player's bet history. Player ids and stakes are shown only
to whoever may see them (:mod:`sicbo.gateway.redaction`)."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from sicbo.game.errors import GameError
from sicbo.game.profiles import parse_paytable_ref
from sicbo.gateway.connection import Connected
from sicbo.gateway.floor import GatewayFloor
from sicbo.gateway.http import (
    ApiError,
    guarded,
    json_response,
    opened_table,
    reply_response,
    table_of,
)
from sicbo.gateway.paytable_layout import layout_of
from sicbo.gateway.redaction import (
    Viewer,
    own_signs_for,
    pending_for,
    recall_for,
    report_for,
    seats_for,
)
from sicbo.gateway.sessions import Sessions
from sicbo.gateway.views import TableView
from sicbo_contracts.base import tag_of
from sicbo_contracts.board import Recall
from sicbo_contracts.replies import Rejected
from sicbo_contracts.subjects import history_query, recall_query, stats_query
from sicbo_contracts.wagers import BetHistoryQuery

_recall = msgspec.json.Decoder(Recall)
_encode = msgspec.json.Encoder().encode


class TableRoutes:
    def __init__(self, floor: Connected[GatewayFloor], sessions: Sessions) -> None:
        self.floor = floor
        self.sessions = sessions

    async def get_floor(self, request: Request) -> Response:
        viewer = self.sessions.viewer(request)
        views = [_seated(v, viewer) for v in await self.floor.get().views()]
        return json_response({"server_time": _now(), "tables": views})

    async def get_table(self, request: Request) -> Response:
        table = table_of(request)
        view = await self.floor.get().view(table)
        if view is None:
            raise ApiError(404, "not-found", f"table {table} has never been opened")
        seated = _seated(view, self.sessions.viewer(request))
        return json_response({"server_time": _now(), **msgspec.to_builtins(seated)})

    async def get_layout(self, request: Request) -> Response:
        table = table_of(request)
        view = await self.floor.get().view(table)
        if view is None or view.paytable is None:
            raise ApiError(404, "not-found", f"table {table} has never been opened")
        try:
            layout = layout_of(parse_paytable_ref(view.paytable))
        except GameError as err:  # a paytable of a newer version than this gateway knows
            raise ApiError(503, "unavailable", str(err)) from None
        return json_response({"table": table, **msgspec.to_builtins(layout)})

    async def get_board(self, request: Request) -> Response:
        table = await opened_table(table_of(request), self.floor.get())
        floor = self.floor.get()
        stats, recall = await asyncio.gather(
            floor.request(stats_query(table), b"{}"),
            floor.request(recall_query(table), b"{}"),
        )
        return _board(stats, recall, self.sessions.viewer(request))

    async def get_round(self, request: Request) -> Response:
        table = table_of(request)
        round_no = _round_no(request.path_params["round"])
        report = await self.floor.get().round_report(table, round_no)
        if report.status == "NOT STARTED":
            raise ApiError(404, "not-found", f"round {round_no} of {table} has not started")
        return json_response(report_for(report, self.sessions.viewer(request)))

    async def history(self, request: Request) -> Response:
        """The signed-in player's own slips: the player comes from the session; a request
        naming another (``?player=``) is refused, never answered for them."""
        player = self.sessions.player(request)
        asked = request.query_params.get("player")
        if asked is not None and asked != player:
            raise ApiError(403, "forbidden", "player: a player reads their own history", "player")
        query = BetHistoryQuery(player=player)
        table = await opened_table(table_of(request), self.floor.get())
        raw = await self.floor.get().request(history_query(table), msgspec.json.encode(query))
        return reply_response(raw)

    def routes(self, api: str) -> list[BaseRoute]:
        return [
            Route("/api/floor", guarded(self.get_floor)),
            Route(api, guarded(self.get_table)),
            Route(f"{api}/layout", guarded(self.get_layout)),
            Route(f"{api}/board", guarded(self.get_board)),
            Route(f"{api}/rounds/{{round}}", guarded(self.get_round)),
            Route(f"{api}/history", guarded(self.history)),
        ]


def _board(stats: bytes, recall: bytes, viewer: Viewer) -> Response:
    """The board service's two answers as one body, the recall as ``viewer`` may see it;
    either one's refusal as it came."""
    for raw in (stats, recall):
        if json.loads(raw).get("type") == tag_of(Rejected):
            return reply_response(raw)
    try:
        shown = recall_for(_recall.decode(recall), viewer)
    except msgspec.DecodeError as err:  # a board service newer than this gateway
        raise ApiError(503, "unavailable", f"the board's recall cannot be read: {err}") from None
    body = b'{"stats":' + stats + b',"recall":' + _encode(shown) + b"}"
    return Response(body, media_type="application/json")


def _seated(view: TableView, viewer: Viewer) -> TableView:
    signs, vacating = own_signs_for(view.player_signs, view.vacate_notices, viewer)
    invalidation, pending_signs = pending_for(view.pending_invalidation, view.pending_signs, viewer)
    return msgspec.structs.replace(
        view,
        seats=seats_for(view.seats, viewer),
        player_signs=signs,
        vacate_notices=vacating,
        pending_invalidation=invalidation,
        pending_signs=pending_signs,
    )


def _round_no(value: str) -> int:
    """The round number of a dispute page's path."""
    try:
        round_no = int(value)
    except ValueError:
        raise ApiError(400, "invalid", "round: a round number, 1 or more", "round") from None
    if round_no < 1:
        raise ApiError(400, "invalid", "round: a round number, 1 or more", "round")
    return round_no


def _now() -> str:
    return datetime.now(UTC).isoformat()
