"""Every answer of the gateway is JSON that says what to do, whatever failed behind it."""

import json
from typing import cast

import httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from sicbo.eventstore.errors import StoreError
from sicbo.gateway.connection import Connected
from sicbo.gateway.floor import GatewayFloor, Unavailable
from sicbo.gateway.http import guarded, json_response, not_found, page, read_body


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
    assert body["reason_key"] == "http.log-slow"  # for the page, in its reader's language


async def test_no_service_answering_is_a_503_to_retry() -> None:
    got = await ask(app_raising(Unavailable("no service answers on x")), "GET", "/api/thing")
    assert got.status_code == 503 and got.headers["retry-after"] == "1"
    assert got.json() == {
        "code": "unavailable",
        "reason": "no service answers on x",
        "field": None,
        "reason_key": "http.unavailable",  # an error without its own key has its code's
        "reason_params": {},
    }


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
        "reason_key": "http.not-found",
        "reason_params": {},
    }
    wrong = await ask(app, "DELETE", "/api/thing")
    assert wrong.status_code == 405 and wrong.json()["code"] == "method"
    assert wrong.json()["reason_key"] == "http.method"


async def test_a_browser_lost_on_a_path_gets_a_page_with_the_way_back() -> None:
    transport = httpx.ASGITransport(app=app_raising(KeyError()))
    async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:
        page = await client.get("/tables/x/nope<b>", headers={"accept": "text/html"})
        api = await client.get("/api/nope", headers={"accept": "text/html"})
        tool = await client.get("/tables/x/nope")
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "is not a page of this floor" in page.text and 'href="/"' in page.text
    # The path is shown escaped, never as markup.
    assert "nope&lt;b&gt;" in page.text and "nope<b>" not in page.text
    # The API and a client that asks for no page keep the JSON answer.
    assert api.json()["code"] == "not-found" and tool.json()["code"] == "not-found"


class OpenedTables:
    """A floor with only these tables ever opened (page() asks nothing else of it)."""

    def __init__(self, *tables: str) -> None:
        self.tables = set(tables)

    async def opened(self, table: str) -> bool:
        return table in self.tables


def pages_of(*tables: str) -> Starlette:
    floor: Connected[GatewayFloor] = Connected()
    floor.set(cast(GatewayFloor, OpenedTables(*tables)))
    return Starlette(
        routes=[Route("/tables/{table}/play", guarded(page("play.html", floor)))],
        exception_handlers={404: not_found, 405: not_found},
    )


async def test_a_page_of_a_table_never_opened_says_so_and_links_back() -> None:
    transport = httpx.ASGITransport(app=pages_of("open-1"))
    async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:
        known = await client.get("/tables/open-1/play")
        unknown = await client.get("/tables/nope/play")
        marked = await client.get("/tables/a%3Cb%3E/play")
        malay = await client.get("/tables/nope/play?lang=ms")
    assert known.status_code == 200 and 'id="layout"' in known.text
    assert unknown.status_code == 404 and unknown.headers["content-type"].startswith("text/html")
    assert "Table nope has never been opened on this floor" in unknown.text
    assert 'href="/"' in unknown.text and "Loading" not in unknown.text
    # The page's script can say the same in the reader's language: the message's key and values.
    assert 'data-message="notfound.table"' in unknown.text
    assert 'data-args="{&quot;table&quot;: &quot;nope&quot;}"' in unknown.text
    # An id no table can have is shown escaped, never looked up or taken as markup.
    assert marked.status_code == 400 and "a&lt;b&gt;" in marked.text and "a<b>" not in marked.text
    assert "Meja nope tidak pernah dibuka" in malay.text and 'lang="ms"' in malay.text


async def test_a_hole_typed_in_an_address_stays_as_typed() -> None:
    transport = httpx.ASGITransport(app=app_raising(KeyError()))
    async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:
        page_ = await client.get("/x/{heading}", headers={"accept": "text/html"})
    assert "The address /x/{heading} is not a page" in page_.text


def app_reading_bodies() -> Starlette:
    async def handler(request: Request) -> Response:
        return json_response(await read_body(request))

    return Starlette(routes=[Route("/api/thing", guarded(handler), methods=["POST"])])


@pytest.mark.parametrize(
    ("body", "says"),
    [
        (b'{"pin": ' + b"9" * 5000 + b"}", "digits"),  # past Python's int conversion limit
        (b"[" * 2000 + b"]" * 2000, "nested too deeply"),  # under 64 KiB, past the recursion
        (b'{"stake": NaN}', "NaN is not a JSON value"),
        (b'{"stake": -Infinity}', "-Infinity is not a JSON value"),
        (b'{"stake": 1e400}', "the number 1e400 is too large"),
        (b'{"pin": "\xff"}', "utf-8"),
        (b'{"pin":', "not JSON"),
    ],
)
async def test_a_body_that_is_not_json_is_a_400_saying_why(body: bytes, says: str) -> None:
    transport = httpx.ASGITransport(app=app_reading_bodies())
    async with httpx.AsyncClient(transport=transport, base_url="http://gw") as client:
        got = await client.post("/api/thing", content=body)
    assert got.status_code == 400, got.text
    assert got.json()["code"] == "invalid" and got.json()["reason_key"] == "http.not-json"
    assert says in got.json()["reason"]
