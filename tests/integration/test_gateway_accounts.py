"""Players' accounts through the web gateway (issue 14 items 5-6), against the real floor (the
gateway and the services as processes, a real nats-server):

- a launched player reads their own balance and per-round statement only (balance before,
  stakes, returns, balance after), and is told live of their own account's entries only;
- the operator's cashier opens accounts, deposits and withdraws; a retried command id is a
  duplicate that appends nothing; a dealer, a supervisor or a player is refused;
- bad input is refused naming the field, and nothing is appended;
- the demo floor's cashier page launches one of the demo operator's players by a real token.
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from typing import Any

import httpx
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from tests.floor import browser
from tests.integration.conftest import Floor
from tests.integration.test_gateway import accepted, error_of, opened, sign_in
from tests.integration.test_gateway_launch import launched
from tests.integration.test_settlement import wait_completed
from tests.support.launch import Issuers

CASHIER = ("omar", "5555")  # the demo list's operator: the operator's cashier


def new_player() -> str:
    return f"p{uuid.uuid4().hex[:10]}"


def new_command() -> str:
    return f"cash-{uuid.uuid4().hex[:16]}"


async def cashier_ok(web: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = await web.post(f"/api/cashier/accounts{path}", json=body)
    assert answer.status_code == 200 and answer.json()["type"] == "accepted.v1", answer.text
    return dict(answer.json())


async def funded(web: httpx.AsyncClient, player: str, amount: int) -> None:
    """Opened in EUR and funded by the cashier signed in at ``web``."""
    await cashier_ok(web, "", {"command_id": new_command(), "player": player, "currency": "EUR"})
    deposit = {"command_id": new_command(), "amount": amount, "currency": "EUR"}
    await cashier_ok(web, f"/{player}/deposits", deposit)


async def statement_of(web: httpx.AsyncClient, player: str) -> dict[str, Any]:
    answer = await web.get(f"/api/cashier/accounts/{player}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def test_a_player_reads_only_their_own_balance_and_round_statement(
    gateway: str, floor: Floor, nc: NATS, store: EventStore, launch_issuers: Issuers
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600, currency="EUR")
    ann_ref, bob_ref = new_player(), new_player()
    ann, bob = f"acme:{ann_ref}", f"acme:{bob_ref}"
    async with browser(gateway) as cash, browser(gateway) as dealer, browser(gateway) as web:
        await sign_in(cash, *CASHIER)
        await sign_in(dealer, "ana", "1111")
        await funded(cash, ann, 1_000)
        await funded(cash, bob, 3_000)
        await launched(web, launch_issuers.token(ann_ref, now=time.time()))
        mine = (await web.get("/api/account")).json()
        assert mine == {"player": ann, "open": True, "currency": "EUR", "balance": 1_000}
        asked = await web.get("/api/account", params={"player": bob})
        assert error_of(asked, 403, "forbidden")["field"] == "player"
        asked = await web.get("/api/account/statement", params={"player": bob})
        assert error_of(asked, 403, "forbidden")["field"] == "player"
        # The cashier's look-up is an operator's: a player's session is no operator's.
        error_of(await web.get(f"/api/cashier/accounts/{bob}"), 401, "signed-out")

        await accepted(dealer, table, {"type": "round.start.v1", "round": 1, "tumbles": 3})
        await accepted(dealer, table, {"type": "round.open-betting.v1", "round": 1})
        slip = {"command_id": new_command(), "round": 1, "wagers": [{"bet": "big", "stake": 300}]}
        placed = await web.post(f"/api/tables/{table}/slips", json=slip)
        assert placed.status_code == 200, placed.text
        assert (await web.get("/api/account")).json()["balance"] == 700
        for step in ("round.close-betting.v1", "round.uncover.v1"):
            await accepted(dealer, table, {"type": step, "round": 1})
        await accepted(dealer, table, {"type": "dice.enter.v1", "round": 1, "dice": [4, 5, 6]})
        await accepted(dealer, table, {"type": "dice.confirm.v1", "round": 1})
        await wait_completed(store, table, 1)

        statement = (await web.get("/api/account/statement")).json()
        assert statement["balance"] == 1_300 and statement["currency"] == "EUR"
        assert statement["rounds"] == [
            {
                "table": table,
                "round": 1,
                "before": 1_000,
                "staked": 300,
                "refunded": 0,
                "returned": 600,
                "adjusted": 0,
                "after": 1_300,
            }
        ]
        assert {line["type"] for line in statement["lines"]} == {
            "account.opened.v1",
            "account.funds-deposited.v1",
            "account.stake-debited.v1",
            "account.return-credited.v1",
        }
        assert "violations" not in statement
        # The cashier reads the same statement; bob's is bob's alone.
        assert (await statement_of(cash, ann))["rounds"] == statement["rounds"]
        assert (await statement_of(cash, bob))["balance"] == 3_000


async def test_a_player_is_told_live_of_their_own_account_only(
    gateway: str, launch_issuers: Issuers
) -> None:
    ann_ref, bob = new_player(), f"acme:{new_player()}"
    ann = f"acme:{ann_ref}"
    async with browser(gateway) as cash, browser(gateway) as web:
        await sign_in(cash, *CASHIER)
        await funded(cash, ann, 500)
        await funded(cash, bob, 500)
        await launched(web, launch_issuers.token(ann_ref, now=time.time()))
        async with web.stream("GET", "/api/account/events") as events:
            assert events.headers["content-type"].startswith("text/event-stream")
            lines = events.aiter_lines()
            assert await anext(lines) == ": connected"
            # bob's deposit first, then ann's: the first change the page hears is ann's.
            deposit = {"command_id": new_command(), "amount": 100, "currency": "EUR"}
            await cashier_ok(cash, f"/{bob}/deposits", deposit)
            await cashier_ok(cash, f"/{ann}/deposits", {**deposit, "command_id": new_command()})
            frames = []
            async with asyncio.timeout(20):
                async for line in lines:
                    if line.startswith("data: "):
                        frames.append(json.loads(line.removeprefix("data: ")))
                        break
                    assert line in ("event: balance", "", ": keep-alive"), line
        assert frames == [{"player": ann, "type": "account-funds-deposited-v1"}]
        assert (await web.get("/api/account")).json()["balance"] == 600
    async with browser(gateway) as anonymous:
        error_of(await anonymous.get("/api/account/events"), 401, "signed-out")


async def test_a_players_live_account_stream_ends_when_they_sign_out(
    gateway: str, launch_issuers: Issuers
) -> None:
    """The stream was granted once, at its start: a player who signed out (or whose session
    was revoked) kept being told of each entry of the account. It ends at the next one."""
    ann_ref = new_player()
    ann = f"acme:{ann_ref}"
    async with browser(gateway) as cash, browser(gateway) as web:
        await sign_in(cash, *CASHIER)
        await funded(cash, ann, 500)
        await launched(web, launch_issuers.token(ann_ref, now=time.time()))
        async with web.stream("GET", "/api/account/events") as events:
            lines = events.aiter_lines()
            assert await anext(lines) == ": connected"
            assert (await web.delete("/api/player")).status_code in (200, 204)
            deposit = {"command_id": new_command(), "amount": 100, "currency": "EUR"}
            await cashier_ok(cash, f"/{ann}/deposits", deposit)
            async with asyncio.timeout(40):  # the deposit's entry, or a keep-alive, ends it
                rest = [line async for line in lines]
        assert [line for line in rest if line.startswith("data: ")] == []


async def test_only_the_operators_cashier_moves_money_and_a_retry_is_a_duplicate(
    gateway: str, launch_issuers: Issuers
) -> None:
    player = f"acme:{new_player()}"
    opening = {"command_id": new_command(), "player": player, "currency": "EUR"}
    deposit = {"command_id": new_command(), "amount": 250, "currency": "EUR"}
    async with browser(gateway) as who:
        for name, pin in (("ana", "1111"), ("sofia", "3333")):  # a dealer, a supervisor
            await sign_in(who, name, pin)
            refused = await who.post("/api/cashier/accounts", json=opening)
            assert "cashier" in error_of(refused, 403, "forbidden")["reason"]
            error_of(await who.get(f"/api/cashier/accounts/{player}"), 403, "forbidden")
            await who.delete("/api/session")
    async with browser(gateway) as web:
        await launched(web, launch_issuers.token(new_player(), now=time.time()))
        error_of(await web.post("/api/cashier/accounts", json=opening), 401, "signed-out")
        deposited = await web.post(f"/api/cashier/accounts/{player}/deposits", json=deposit)
        error_of(deposited, 401, "signed-out")
    async with browser(gateway) as cash:
        await sign_in(cash, *CASHIER)
        assert (await statement_of(cash, player))["open"] is False  # nothing was opened
        first = await cashier_ok(cash, "", opening)
        assert first["duplicate"] is False
        assert (await cashier_ok(cash, "", opening))["duplicate"] is True
        await cashier_ok(cash, f"/{player}/deposits", deposit)
        again = await cashier_ok(cash, f"/{player}/deposits", deposit)
        assert again["duplicate"] is True and again["events"] == []
        withdrawal = {"command_id": new_command(), "amount": 50, "currency": "EUR"}
        await cashier_ok(cash, f"/{player}/withdrawals", withdrawal)
        assert (await cashier_ok(cash, f"/{player}/withdrawals", withdrawal))["duplicate"]
        found = await statement_of(cash, player)
        assert found["balance"] == 200
        assert [line["type"] for line in reversed(found["lines"])] == [
            "account.opened.v1",
            "account.funds-deposited.v1",
            "account.funds-withdrawn.v1",
        ]
        assert found["lines"][0]["actor"] == "operator:omar"  # stamped from the sign-in


async def test_bad_cashier_input_is_refused_naming_the_field_and_appends_nothing(
    gateway: str,
) -> None:
    player = f"acme:{new_player()}"
    async with browser(gateway) as cash:
        await sign_in(cash, *CASHIER)
        await funded(cash, player, 1_000)
        before = await statement_of(cash, player)
        deposits, withdrawals = f"/{player}/deposits", f"/{player}/withdrawals"

        def money(**fields: Any) -> dict[str, Any]:
            return {"command_id": new_command(), "amount": 100, "currency": "EUR", **fields}

        bad: list[tuple[str, dict[str, Any], int, str, str]] = [
            (deposits, money(amount=-5), 400, "invalid", "$.amount"),
            (deposits, money(amount=0), 400, "invalid", "$.amount"),
            (deposits, money(amount=1.5), 400, "invalid", "$.amount"),
            (deposits, money(amount=100.0), 400, "invalid", "$.amount"),
            (deposits, money(amount="100"), 400, "invalid", "$.amount"),
            (deposits, money(amount=True), 400, "invalid", "$.amount"),
            (
                deposits,
                {"command_id": new_command(), "currency": "EUR"},
                400,
                "invalid",
                "$.amount",
            ),
            (deposits, {"command_id": new_command(), "amount": 100}, 400, "invalid", "$.currency"),
            (deposits, {"amount": 100, "currency": "EUR"}, 400, "invalid", "$.command_id"),
            (deposits, money(currency="USD"), 409, "refused", "$.currency"),
            (deposits, money(currency="euro"), 400, "invalid", "$.currency"),
            (deposits, money(actor={"id": "x", "role": "operator"}), 400, "invalid", "$.actor"),
            (deposits, money(bonus=5), 400, "invalid", "$.bonus"),
            (deposits, money(player="acme:other"), 400, "invalid", "$.player"),
            (withdrawals, money(amount=1_001), 409, "refused", "$.amount"),
            (withdrawals, money(currency="GBP"), 409, "refused", "$.currency"),
            (
                "",
                {"command_id": new_command(), "player": player, "currency": "EUR"},
                409,
                "refused",
                "$.player",
            ),  # opened already
            (
                "",
                {"command_id": new_command(), "player": "a.b", "currency": "EUR"},
                400,
                "invalid",
                "$.player",
            ),
        ]
        for path, body, status, code, field in bad:
            answer = await cash.post(f"/api/cashier/accounts{path}", json=body)
            assert answer.status_code == status, (body, answer.text)
            refusal = answer.json()
            assert refusal["code"] == code and refusal["field"] == field, (body, refusal)
        url = f"/api/cashier/accounts{deposits}"
        not_json = await cash.post(url, content=b"amount=100")
        assert "not JSON" in error_of(not_json, 400, "invalid")["reason"]
        not_utf8 = await cash.post(url, content=b'{"amount": "\xff"}')
        error_of(not_utf8, 400, "invalid")
        error_of(await cash.post(url, json=[1, 2]), 400, "invalid")
        error_of(await cash.get("/api/cashier/accounts/a.b"), 400, "invalid")
        assert await statement_of(cash, player) == before  # nothing appended


async def test_the_demo_cashier_launches_a_demo_operators_player_by_token(
    gateway: str, quick_lock_gateway: str
) -> None:
    ref = new_player()
    player = f"acme:{ref}"
    async with browser(gateway) as cash, browser(gateway) as web:
        await sign_in(cash, *CASHIER)
        assert (await cash.get("/api/cashier/demo-launch")).json() == {"operator": "acme"}
        ask = {"player": player, "table": "demo-online"}
        no_account = await cash.post("/api/cashier/demo-launch", json=ask)
        assert error_of(no_account, 409, "refused")["field"] == "$.player"
        foreign = await cash.post("/api/cashier/demo-launch", json={"player": f"hsop:{ref}"})
        assert error_of(foreign, 400, "invalid")["field"] == "$.player"
        bad_table = await cash.post("/api/cashier/demo-launch", json={**ask, "table": "a b"})
        assert error_of(bad_table, 400, "invalid")["field"] == "$.table"
        number = await cash.post("/api/cashier/demo-launch", json={**ask, "table": 7})
        assert "a table id is a string, not int 7" in error_of(number, 400, "invalid")["reason"]
        await funded(cash, player, 2_000)
        link = (await cash.post("/api/cashier/demo-launch", json=ask)).json()
        assert link["player"] == player and link["url"].startswith("/launch#token=")
        fragment = dict(p.split("=", 1) for p in link["url"].split("#", 1)[1].split("&"))
        assert fragment["table"] == "demo-online"
        answer = await launched(web, fragment["token"])
        assert answer == {"player": player, "operator": "acme", "currency": "EUR"}
        assert (await web.get("/api/account")).json()["balance"] == 2_000
        # A player is no cashier.
        error_of(await web.post("/api/cashier/demo-launch", json=ask), 401, "signed-out")
    async with browser(quick_lock_gateway) as real:  # a floor that is no demo: no such page
        await sign_in(real, *CASHIER)
        error_of(await real.post("/api/cashier/demo-launch", json=ask), 404, "not-found")
