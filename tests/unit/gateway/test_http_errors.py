"""Every answer of the gateway is JSON that says what to do, whatever failed behind it."""

import json

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sicbo.eventstore.errors import StoreError
from sicbo.gateway.floor import Unavailable
from sicbo.gateway.http import guarded, not_found


def app_raising(err: Exception) -> Starlette:
    async def handler(request: Request) -> Response:
        raise err

    return Starlette(
        routes=[Route("/api/thing", guarded(handler), methods=["GET"])],
        exception_handlers={404: not_found, 405: not_found},
    )


async def ask(app: Starlette, method: str, path: str) -> httpx.Response:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:
        return await client.request(method, path)


@pytest.mark.parametrize(
    "err",
    [StoreError("no Direct Get reply on $JS.API.DIRECT.GET.SICBO"), TimeoutError()],
)
async def test_a_log_that_does_not_answer_is_a_503_to_retry(err: Exception) -> None:
    got = await ask(app_raising(err), "GET", "/api/thing")
    assert got.status_code == 503 and got.headers["retry-after"] == "1"
    body = got.json()
    assert body["code"] == "unavailable" and "ask again" in body["reason"]


async def test_no_service_answering_is_a_503_to_retry() -> None:
    got = await ask(app_raising(Unavailable("no service answers on x")), "GET", "/api/thing")
    assert got.status_code == 503 and got.headers["retry-after"] == "1"
    assert got.json() == {"code": "unavailable", "reason": "no service answers on x", "field": None}


async def test_a_bug_is_a_json_500_not_a_traceback() -> None:
    got = await ask(app_raising(KeyError("oops")), "GET", "/api/thing")
    assert got.status_code == 500 and got.json()["code"] == "internal"


async def test_unknown_paths_and_methods_answer_json() -> None:
    app = app_raising(KeyError())
    missing = await ask(app, "GET", "/api/nope")
    assert missing.status_code == 404
    assert json.loads(missing.text) == {
        "code": "not-found",
        "reason": "no such path: /api/nope",
        "field": None,
    }
    wrong = await ask(app, "DELETE", "/api/thing")
    assert wrong.status_code == 405 and wrong.json()["code"] == "method"
