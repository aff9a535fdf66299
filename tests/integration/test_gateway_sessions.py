"""The gateway's trust boundaries against the real floor (a gateway process, the services as
processes, a real nats-server):

- sign-in throttling slows guessing per (id, client) and per client, unknown ids too, and locks
  nobody out: a stranger's wrong PINs from elsewhere do not stop the real operator (the tests
  play the ingress: the session's gateway believes their X-Forwarded-For).
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import httpx
import pytest

from sicbo.gateway.throttle import FREE_FAILURES
from tests.integration.test_gateway import error_of, sign_in


@pytest.fixture
async def web(gateway: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=gateway, timeout=15) as client:
        yield client


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


# ---- sign-in throttling -----------------------------------------------------------------------


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
