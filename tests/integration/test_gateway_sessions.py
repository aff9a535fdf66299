"""The gateway's sessions and sign-in against the real floor (a gateway process, the services
as processes, a real nats-server):

- sessions live in the gateway: a cookie saved before sign-out is refused after it, and
  appends nothing; a supervisor's revoke ends another operator's sessions on every replica (the
  second gateway process plays the other replica), a display's socket too;
- sign-in throttling slows guessing per (id, client) and per client, unknown ids too, and locks
  nobody out: a stranger's wrong PINs from elsewhere do not stop the real operator (the tests
  play the ingress: the session's gateway believes their X-Forwarded-For).
"""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx
import pytest
import websockets
from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeout
from websockets.typing import Origin

from sicbo.eventstore.store import EventStore
from sicbo.gateway.throttle import FREE_FAILURES
from sicbo_contracts.subjects import layout_ping
from tests.integration.conftest import Floor
from tests.integration.test_gateway import (
    accepted,
    answers_for_the_layout,
    browser,
    error_of,
    opened,
    send,
    sign_in,
)

START = {"type": "round.start.v1", "round": 1, "tumbles": 3}


async def signed_out_within(web: httpx.AsyncClient, seconds: float = 10) -> None:
    """Until the browser's operator session is refused (another replica hears of a revoke as
    NATS delivers it)."""
    deadline = time.monotonic() + seconds
    while (answer := await web.get("/api/session")).status_code == 200:
        if time.monotonic() > deadline:
            pytest.fail(f"still signed in after {seconds} s: {answer.text}")
        await asyncio.sleep(0.05)
    error_of(answer, 401, "signed-out")


# ---- sessions ---------------------------------------------------------------------------------


async def test_a_cookie_saved_before_sign_out_is_refused_after_it_and_appends_nothing(
    web: httpx.AsyncClient, gateway: str, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc)
    await sign_in(web, "ana", "1111")
    saved = httpx.Cookies(web.cookies)
    assert [c.value for c in web.cookies.jar if len(c.value) >= 43]  # a token, nothing else
    assert "ana" not in "".join(c.value for c in web.cookies.jar)
    assert (await web.delete("/api/session")).json() == {"signed_out": True}
    before = await store.last_sequence(f"sicbo.evt.{table}.>")
    async with browser(gateway, saved) as replayed:
        error_of(await send(replayed, table, START), 401, "signed-out")
        error_of(await replayed.get("/api/session"), 401, "signed-out")
    assert await store.last_sequence(f"sicbo.evt.{table}.>") == before

    # A new sign-in is a new token: the one before it is worth nothing either.
    await sign_in(web, "ana", "1111")
    first = httpx.Cookies(web.cookies)
    await sign_in(web, "ana", "1111")
    async with browser(gateway, first) as old:
        error_of(await send(old, table, START), 401, "signed-out")
    await accepted(web, table, START)


async def test_a_supervisors_revoke_ends_an_operators_sessions_on_every_replica(
    gateway: str, quick_lock_gateway: str, floor: Floor, nc: NATS, store: EventStore
) -> None:
    table = await opened(floor, nc)
    async with (
        browser(gateway) as ana_here,
        browser(gateway) as ana_there_too,
        browser(quick_lock_gateway) as ana_elsewhere,  # the other replica
        browser(gateway) as ben,
        browser(gateway) as sofia,
    ):
        for web in (ana_here, ana_there_too, ana_elsewhere):
            await sign_in(web, "ana", "1111")
        await sign_in(ben, "ben", "2222")
        await sign_in(sofia, "sofia", "3333")

        revoke = "/api/sessions/revoke"
        refused = error_of(await ben.post(revoke, json={"operator": "ana"}), 403, "forbidden")
        assert "only their own" in str(refused["reason"])
        bad = error_of(await sofia.post(revoke, json={"operator": "a b"}), 400, "invalid")
        assert bad["field"] == "operator"
        error_of(await sofia.post(revoke, json={}), 400, "invalid")
        error_of(await sofia.post(revoke, json={"operator": "nobody"}), 404, "not-found")

        answer = await sofia.post(revoke, json={"operator": "ana"})
        # both of hers here (and any an earlier test left on the session's gateway)
        assert answer.json()["operator"] == "ana" and answer.json()["ended_here"] >= 2
        before = await store.last_sequence(f"sicbo.evt.{table}.>")
        for web in (ana_here, ana_there_too):
            error_of(await send(web, table, START), 401, "signed-out")
        await signed_out_within(ana_elsewhere)
        assert await store.last_sequence(f"sicbo.evt.{table}.>") == before
        await accepted(ben, table, START)  # other operators carry on

        # Anyone may end their own sessions everywhere; nobody else's but a supervisor.
        assert (await ben.post(revoke, json={"operator": "ben"})).json()["ended_here"] >= 1
        error_of(await ben.get("/api/session"), 401, "signed-out")
        await sign_in(ana_here, "ana", "1111")  # ana signs in again at once: no lockout
        assert (await sofia.get("/api/session")).json()["operator"] == "sofia"


async def test_a_revoked_display_grant_stops_answering_for_the_layout(
    gateway: str, floor: Floor, nc: NATS
) -> None:
    table = await opened(floor, nc, layout_controller=True)
    async with browser(gateway) as display, browser(gateway) as sofia:
        assert (
            await display.post("/api/display", json={"operator": "ivan", "pin": "4444"})
        ).json() == {"display": "ivan"}
        await sign_in(sofia, "sofia", "3333")
        cookie = "; ".join(f"{k}={v}" for k, v in display.cookies.items())
        ws_url = gateway.replace("http://", "ws://") + f"/api/tables/{table}/layout-controller"
        async with websockets.connect(
            ws_url, additional_headers={"cookie": cookie}, origin=Origin(gateway)
        ) as page:
            await answers_for_the_layout(nc, table)
            revoked = await sofia.post("/api/sessions/revoke", json={"operator": "ivan"})
            assert revoked.json()["ended_here"] >= 1, revoked.text
            with pytest.raises((NoRespondersError, NatsTimeout)):  # the page answers no more
                await nc.request(layout_ping(table), b"", timeout=1)
            with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
                await asyncio.wait_for(page.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        error_of(await display.get("/api/display"), 401, "signed-out")


# ---- sign-in throttling -----------------------------------------------------------------------


def client_address() -> str:
    """A client address of this test's own (the throttle's state is the session gateway's)."""
    n = uuid.uuid4().int
    return f"10.{n % 250 + 1}.{n // 250 % 250 + 1}.{n // 62_500 % 250 + 1}"


async def try_pin(web: httpx.AsyncClient, operator: str, pin: str, client: str) -> httpx.Response:
    return await web.post(
        "/api/session",
        json={"operator": operator, "pin": pin},
        headers={"x-forwarded-for": client},
    )


async def test_repeated_failures_of_one_id_from_one_client_wait_with_retry_after(
    web: httpx.AsyncClient,
) -> None:
    client = client_address()
    for _ in range(FREE_FAILURES):
        error_of(await try_pin(web, "ben", "0000", client), 401, "bad-pin")
    refused = await try_pin(web, "ben", "2222", client)  # even the right PIN waits here
    body = error_of(refused, 429, "too-many-attempts")
    assert int(refused.headers["retry-after"]) >= 1
    assert "try again" in str(body["reason"])


async def test_a_strangers_wrong_pins_do_not_stop_the_real_operator(
    web: httpx.AsyncClient,
) -> None:
    stranger = client_address()
    for _ in range(FREE_FAILURES):
        error_of(await try_pin(web, "omar", "0000", stranger), 401, "bad-pin")
    error_of(await try_pin(web, "omar", "0000", stranger), 429, "too-many-attempts")
    # omar, at his own terminal: not slowed by the stranger's guesses
    answer = await try_pin(web, "omar", "5555", client_address())
    assert answer.status_code == 200 and answer.json()["operator"] == "omar", answer.text
    error_of(await try_pin(web, "omar", "5555", stranger), 429, "too-many-attempts")


async def test_an_unknown_id_is_slowed_too(web: httpx.AsyncClient) -> None:
    client = client_address()
    for _ in range(FREE_FAILURES):
        error_of(await try_pin(web, "no-such-operator", "1234", client), 401, "bad-pin")
    refused = await try_pin(web, "no-such-operator", "1234", client)
    error_of(refused, 429, "too-many-attempts")
    assert int(refused.headers["retry-after"]) >= 1
    await sign_in(web, "ana", "1111")  # other ids from other clients are not affected


async def test_a_sweep_of_wrong_pins_from_an_address_locks_no_other_operator_out(
    web: httpx.AsyncClient,
) -> None:
    """Issue 25: after a 32-id sweep from a floor's address, an operator there who typed no
    wrong PIN got 429; now she signs in, and the sweep's second guesses wait."""
    floor_address = client_address()
    for n in range(32):
        error_of(await try_pin(web, f"sweep-{n}", "0000", floor_address), 401, "bad-pin")
    error_of(await try_pin(web, "sweep-0", "0001", floor_address), 429, "too-many-attempts")
    answer = await try_pin(web, "sam", "6666", floor_address)
    assert answer.status_code == 200 and answer.json()["operator"] == "sam", answer.text
