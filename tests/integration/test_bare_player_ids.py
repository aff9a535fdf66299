"""Bare player ids never touch an account (issue 25 item 4), on the session's floor and its
gateway (demo options on: ``--demo-players``). Before, a stranger read a funded player's
statement and spent their balance by typing the id.

- an id with an account in any currency is not signed in by id: its operator's launch token
  is the only way in;
- an id signed in bare (no account then) reads no account and bets nothing that debits
  anyone, even once an account is opened for the id.
"""

from __future__ import annotations

import uuid

from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from tests.floor import Floor, browser
from tests.integration.test_gateway import accepted, error_of, opened, sign_in
from tests.integration.test_gateway_access import START, jti
from tests.integration.test_gateway_accounts import CASHIER, funded


async def test_a_funded_player_is_not_signed_in_by_typing_the_id(gateway: str) -> None:
    player = f"acme:f{uuid.uuid4().hex[:8]}"
    async with browser(gateway) as cash, browser(gateway) as stranger:
        await sign_in(cash, *CASHIER)
        await funded(cash, player, 1_000)
        refused = error_of(
            await stranger.post("/api/player", json={"player": player}), 403, "forbidden"
        )
        assert refused["reason_key"] == "session.has-account"
        error_of(await stranger.get("/api/account/statement"), 401, "signed-out")


async def test_a_bare_id_reads_no_account_and_debits_nobody(
    gateway: str, floor: Floor, nc: NATS, store: EventStore
) -> None:
    player = f"acme:b{uuid.uuid4().hex[:8]}"
    table = await opened(floor, nc, "online-live", currency="EUR", betting_seconds=600)
    async with browser(gateway) as cash, browser(gateway) as bare, browser(gateway) as dealer:
        assert (await bare.post("/api/player", json={"player": player})).status_code == 200
        await sign_in(cash, *CASHIER)
        await funded(cash, player, 1_000)  # opened for the id after it signed in bare
        error_of(await bare.get("/api/account/statement"), 403, "forbidden")
        error_of(await bare.get("/api/account"), 403, "forbidden")
        await sign_in(dealer, "ana", "1111")
        await accepted(dealer, table, START)
        await accepted(dealer, table, {"type": "round.open-betting.v1", "round": 1})
        before = await store.last_sequence(f"sicbo.evt.{table}.>")
        slip = {"round": 1, "wagers": [{"bet": "big", "stake": 200}]}
        answer = await bare.post(f"/api/tables/{table}/slips", json={"command_id": jti(), **slip})
        refused = error_of(answer, 403, "forbidden")
        assert refused["reason_key"] == "slip.bare-id-money-table"
        assert await store.last_sequence(f"sicbo.evt.{table}.>") == before
        statement = (await cash.get(f"/api/cashier/accounts/{player}")).json()
        assert statement["balance"] == 1_000  # nothing debited
