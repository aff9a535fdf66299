"""Commands forwarded to the services, stamped with who sent them: ``POST .../commands`` (an
operator at a terminal, a role's commands only) and ``POST .../slips`` (a player's bet slip).

The browser never names the table or the actor: the gateway sets them from the page's path
and the sign-in, so a page cannot claim a role it does not have.
"""

from __future__ import annotations

import json
from typing import Any

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Route

from sicbo.gateway.connection import Connected
from sicbo.gateway.floor import GatewayFloor
from sicbo.gateway.http import (
    ApiError,
    error,
    guarded,
    read_body,
    reply_response,
    table_of,
)
from sicbo.gateway.operators import Operator
from sicbo.gateway.sessions import Sessions
from sicbo.shell.codec import invalid_input
from sicbo_contracts.access import may_send
from sicbo_contracts.base import DECODE_ERRORS, Role, with_article
from sicbo_contracts.dice import DiceCommand
from sicbo_contracts.lifecycle import LifecycleCommand
from sicbo_contracts.wagers import WagerCommand

_command = msgspec.json.Decoder(LifecycleCommand | DiceCommand | WagerCommand)


class CommandRoutes:
    def __init__(self, floor: Connected[GatewayFloor], sessions: Sessions) -> None:
        self.floor = floor
        self.sessions = sessions

    async def post_command(self, request: Request) -> Response:
        table = table_of(request)
        operator = self.sessions.operator(request)
        body = await read_body(request)
        return await self._forward(stamped_command(body, table, operator))

    async def place_slip(self, request: Request) -> Response:
        session = self.sessions.player_session(request)
        player = session.who
        table = table_of(request)
        view = await self.floor.get().view(table)
        if view is None:
            why = f"table {table} has never been opened"
            raise ApiError(404, "not-found", why, key="http.never-opened", params={"table": table})
        if not view.remote_players:
            # A land table's players bet with chips on its layout, or the dealer places them
            # (000 §3.10-3.11): a player's own device places nothing there.
            raise ApiError(
                403,
                "forbidden",
                f"table {table} takes no remote players: its bets are placed with chips at"
                f" the table (profile {view.profile})",
                key="slip.land-table",
            )
        if view.currency is not None and session.currency is None:
            # A bare id (demo only) has no account: it debits nobody, even one opened since.
            raise ApiError(
                403,
                "forbidden",
                f"table {table} plays in {view.currency}: a player signed in by a bare id"
                " bets only at tables of chips (no account is debited)",
                key="slip.bare-id-money-table",
                params={"table": table, "currency": view.currency},
            )
        body = await read_body(request)
        return await self._forward(stamped_slip(body, table, player))

    async def _forward(self, body: dict[str, Any]) -> Response:
        try:
            cmd = _command.decode(json.dumps(body).encode())
        except DECODE_ERRORS as err:
            rejected = invalid_input(err, body.get("command_id"))
            key = rejected.reason_key
            return error(400, rejected.code, rejected.reason, field=rejected.field, key=key)
        return reply_response(await self.floor.get().send(cmd))

    def routes(self, api: str) -> list[BaseRoute]:
        return [
            Route(f"{api}/commands", guarded(self.post_command), methods=["POST"]),
            Route(f"{api}/slips", guarded(self.place_slip), methods=["POST"]),
        ]


def stamped_command(body: dict[str, Any], table: str, operator: Operator) -> dict[str, Any]:
    """A terminal's command, with the table and the signed-in operator as its actor; refused
    when the page set either, or the operator's role may not send it from a terminal."""
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
            403,
            "forbidden",
            f"{with_article(operator.role.value)} may not send {tag} from a terminal",
            key="role.not-allowed",
        )
    body.update(table=table, actor={"id": operator.id, "role": operator.role.value})
    return body


def stamped_slip(body: dict[str, Any], table: str, player: str) -> dict[str, Any]:
    """A player's bet slip as the wagers service's command: value chips only, as the player
    signed in (a slip naming another player is refused)."""
    if body.pop("player", player) != player:
        why = "player: a player bets as themselves"
        raise ApiError(403, "forbidden", why, "$.player", key="wager.not-yours")
    unknown = body.keys() - {"command_id", "round", "wagers"}
    if unknown:
        field = sorted(unknown)[0]
        raise ApiError(400, "invalid", f"{field}: not part of a bet slip", f"$.{field}")
    wagers = body.get("wagers")
    # Anything but a list is the contract's to refuse, naming $.wagers (an int is no list).
    for n, wager in enumerate(wagers if isinstance(wagers, list) else []):
        extra = sorted(wager.keys() - {"bet", "stake"}) if isinstance(wager, dict) else []
        if extra:  # colour checks and promotional tokens are a dealer's, at the table
            where = f"$.wagers[{n}].{extra[0]}"
            why = f"{where}: a player bets value chips"
            raise ApiError(400, "invalid", why, where, key="slip.chips-only")
    body.update(
        type="bets.place-slip.v1",
        table=table,
        actor={"id": player, "role": Role.PLAYER.value},
        player=player,
    )
    return body
