"""Players' accounts on the pages (issue 14 item 5): a signed-in player's own balance,
statement and live changes, and the operator's cashier (docs/gateway.md "Accounts").

- ``GET /api/account``, ``GET /api/account/statement``: the signed-in player's own; there is
  no parameter naming a player, so no player reads another's.
- ``GET /api/account/events``: server-sent events, one ``balance`` per entry appended to the
  signed-in player's account. The gateway watches that one account's subjects
  (``sicbo.acct.<player>.>``), so a page is never told of another player's entries.
- ``/api/cashier/...``: an operator whose role sends the cashier's commands (``sicbo_contracts
  .access``) opens accounts, deposits, withdraws (each with the page's command id, so a retry
  is a duplicate that appends nothing) and reads any player's balance and statement. The actor
  is the signed-in operator; the accounts service holds the command to that role again.
"""

from __future__ import annotations

import json

import msgspec
from nats.aio.msg import Msg
from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import BaseRoute, Route

from sicbo.gateway.account_reads import (
    AccountReads,
    account_id,
    balance_answer,
    statement_answer,
)
from sicbo.gateway.cashier_input import DEPOSIT, OPEN, WITHDRAW, cashier_command
from sicbo.gateway.changes import ChangeHub
from sicbo.gateway.connection import Connected
from sicbo.gateway.floor import GatewayFloor
from sicbo.gateway.http import (
    ApiError,
    guarded,
    json_response,
    read_body,
    reply_response,
)
from sicbo.gateway.live import SSE_HEADERS, event_stream
from sicbo.gateway.operators import Operator
from sicbo.gateway.sessions import Sessions
from sicbo_contracts.access import may_send
from sicbo_contracts.accounts import AccountCommand
from sicbo_contracts.base import with_article
from sicbo_contracts.routing import command_subject
from sicbo_contracts.subjects import account_filter, parse_account_subject

_PLAYER = r"{player:str}"


class AccountsRoutes:
    def __init__(
        self, floor: Connected[GatewayFloor], hub: Connected[ChangeHub], sessions: Sessions
    ) -> None:
        self.floor = floor
        self.hub = hub
        self.sessions = sessions
        self._reads: AccountReads | None = None

    def reads(self) -> AccountReads:
        if self._reads is None:
            self._reads = AccountReads(self.floor.get().nc)
        return self._reads

    # ---- the player's own ---------------------------------------------------------------

    def own(self, request: Request) -> str:
        """The signed-in player, launched by their operator; a request naming another player
        is refused, and so is a player signed in by a bare id (demo only: such a player has
        no account, and one opened for the id since is not theirs to read, issue 25)."""
        session = self.sessions.player_session(request)
        player = session.who
        if session.currency is None:
            why = "player: signed in by a bare id, with no account; a launched player has one"
            raise ApiError(403, "forbidden", why, "player", key="account.launched-only")
        if request.query_params.get("player", player) != player:
            why = "player: a player reads their own account only"
            raise ApiError(403, "forbidden", why, "player", key="account.own-only")
        return player

    async def my_balance(self, request: Request) -> Response:
        found = await self.reads().statement(self.own(request))
        return json_response(balance_answer(found))

    async def my_statement(self, request: Request) -> Response:
        found = await self.reads().statement(self.own(request))
        return json_response(statement_answer(found))

    async def my_events(self, request: Request) -> Response:
        player = self.own(request)
        watched = account_id(player)

        def still_own() -> bool:
            # A signed-out or revoked player's stream ends: their account is no longer theirs
            # to watch from this browser.
            try:
                return self.own(request) == player
            except ApiError:
                return False

        stream = event_stream(self.hub.get(), account_filter(watched), _balance_frame, still_own)
        return StreamingResponse(stream, media_type="text/event-stream", headers=SSE_HEADERS)

    # ---- the cashier ----------------------------------------------------------------------

    def cashier(self, request: Request) -> Operator:
        """The signed-in operator, if their role sends the cashier's commands."""
        operator = self.sessions.operator(request)
        if not all(may_send(operator.role, tag) for tag in (OPEN, DEPOSIT, WITHDRAW)):
            raise ApiError(
                403,
                "forbidden",
                f"{with_article(operator.role.value)} is not the operator's cashier: only an"
                " operator opens accounts and moves money in or out",
            )
        return operator

    async def open_account(self, request: Request) -> Response:
        operator = self.cashier(request)
        return await self._send(cashier_command(OPEN, await read_body(request), operator))

    async def deposit(self, request: Request) -> Response:
        return await self._money(request, DEPOSIT)

    async def withdraw(self, request: Request) -> Response:
        return await self._money(request, WITHDRAW)

    async def _money(self, request: Request, tag: str) -> Response:
        operator = self.cashier(request)
        player = account_id(request.path_params["player"])
        body = await read_body(request)
        return await self._send(cashier_command(tag, body, operator, player))

    async def _send(self, cmd: AccountCommand) -> Response:
        raw = await self.floor.get().request(command_subject(cmd), msgspec.json.encode(cmd))
        return reply_response(raw)

    async def player_statement(self, request: Request) -> Response:
        self.cashier(request)
        player = account_id(request.path_params["player"])
        return json_response(statement_answer(await self.reads().statement(player)))

    def routes(self) -> list[BaseRoute]:
        accounts = "/api/cashier/accounts"
        return [
            Route("/api/account", guarded(self.my_balance)),
            Route("/api/account/statement", guarded(self.my_statement)),
            Route("/api/account/events", guarded(self.my_events)),
            Route(accounts, guarded(self.open_account), methods=["POST"]),
            Route(f"{accounts}/{_PLAYER}", guarded(self.player_statement)),
            Route(f"{accounts}/{_PLAYER}/deposits", guarded(self.deposit), methods=["POST"]),
            Route(f"{accounts}/{_PLAYER}/withdrawals", guarded(self.withdraw), methods=["POST"]),
        ]


def _balance_frame(msg: Msg) -> bytes | None:
    """``event: balance`` of an entry of the one account watched."""
    parsed = parse_account_subject(msg.subject)
    if parsed is None:
        return None
    change = {"player": parsed.player, "type": parsed.token}
    return b"event: balance\ndata: " + json.dumps(change).encode() + b"\n\n"
