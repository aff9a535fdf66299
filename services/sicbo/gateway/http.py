"""The HTTP side shared by every route: errors as JSON, bodies read within bounds, table ids
checked (and tables opened), services' replies passed on with the status their code means, the
static pages."""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Awaitable, Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
from starlette.requests import HTTPConnection, Request
from starlette.responses import FileResponse, JSONResponse, Response

from sicbo.eventstore.errors import StoreError
from sicbo.gateway.floor import GatewayFloor, Unavailable
from sicbo.gateway.missing_page import missing_page
from sicbo_contracts.base import tag_of
from sicbo_contracts.replies import Rejected

if TYPE_CHECKING:  # connection.py imports this module
    from sicbo.gateway.connection import Connected

#: A slip of 200 wagers (the contract's most) is about 10 KiB.
MAX_BODY = 64 * 1024
log = logging.getLogger(__name__)
STATIC = Path(str(resources.files("sicbo.gateway").joinpath("static")))
ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
_encode = msgspec.json.Encoder().encode


#: The message key of a gateway error that names none of its own, one per code whose errors
#: a sentence for the code says all of, so a page writes them in its reader's language
#: (static/i18n: "reason.<key>"). Not "invalid" nor "refused": their English names the field
#: and what is wrong with it (a translated "not valid" would say less), unless the error gives
#: its own key.
CODE_KEYS = {
    "forbidden": "http.forbidden",
    "not-found": "http.not-found",
    "method": "http.method",
    "too-large": "http.too-large",
    "unavailable": "http.unavailable",
    "internal": "http.internal",
    "signed-out": "session.signed-out",
}


class ApiError(Exception):
    """A refusal of the HTTP API: its status, a stable code, a reason in English (programs,
    logs), the field; ``key`` and ``params`` the reason as a message key for the pages, as a
    service's Rejected.reason_key/reason_params (by default the code's, CODE_KEYS)."""

    def __init__(
        self,
        status: int,
        code: str,
        reason: str,
        field: str | None = None,
        headers: Mapping[str, str] | None = None,
        *,
        key: str | None = None,
        params: Mapping[str, int | str] | None = None,
    ) -> None:
        super().__init__(reason)
        self.status, self.code, self.reason, self.field = status, code, reason, field
        self.headers = headers
        self.key = key or CODE_KEYS.get(code)
        self.params: dict[str, int | str] = dict(params or {})

    def response(self) -> JSONResponse:
        body: dict[str, Any] = {"code": self.code, "reason": self.reason, "field": self.field}
        if self.key:
            body |= {"reason_key": self.key, "reason_params": self.params}
        return JSONResponse(body, status_code=self.status, headers=self.headers)


def error(status: int, code: str, reason: str, **more: Any) -> JSONResponse:
    """An error answer (``field=``, ``headers=`` as :class:`ApiError` takes them)."""
    return ApiError(status, code, reason, **more).response()


def json_response(value: Any, status: int = 200) -> Response:
    return Response(_encode(value), status_code=status, media_type="application/json")


def table_id(value: str, field: str = "table") -> str:
    """A table id as the contracts allow it (it goes into NATS subjects)."""
    if not 1 <= len(value) <= 32 or not set(value) <= ID_CHARS:
        # Its start only: the address is whatever anyone typed, thousands of characters too.
        shown = repr(value[:40]) + ("…" if len(value) > 40 else "")
        why = f"table id {shown}: 1-32 of A-Z a-z 0-9 _ -"
        raise ApiError(400, "invalid", why, field, key="http.table-id")
    return value


def table_of(request: HTTPConnection) -> str:
    return table_id(str(request.path_params["table"]))


async def opened_table(table: str, floor: GatewayFloor) -> str:
    """404 for a table never opened: the services keep a read model per table asked about,
    so anonymous pages must not make them one for every id typed in a URL."""
    if not await floor.opened(table):
        why = f"table {table} has never been opened"
        raise ApiError(404, "not-found", why, key="http.never-opened", params={"table": table})
    return table


async def read_body(request: Request) -> dict[str, Any]:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise ApiError(413, "too-large", f"the body is over {MAX_BODY // 1024} KiB")
    try:
        body = json.loads(raw or b"null", parse_constant=_not_json_constant, parse_float=_finite)
    except RecursionError:
        why = "the body is not JSON the gateway reads: nested too deeply"
        raise ApiError(400, "invalid", why, key="http.not-json") from None
    except ValueError as err:
        # Not JSON, not UTF-8 (both ValueErrors), NaN/Infinity (not JSON: RFC 8259 §6), or
        # an integer of more digits than Python converts (4,300): a client's fault, a 400.
        why = f"the body is not JSON: {err}"
        raise ApiError(400, "invalid", why, key="http.not-json") from None
    if not isinstance(body, dict):
        raise ApiError(400, "invalid", "the body must be a JSON object", key="http.not-json")
    return body


def _not_json_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value (RFC 8259 numbers are finite)")


def _finite(text: str) -> float:
    """A JSON number as a float; one past a float's range (1e400) is refused here, where it
    was read as infinity and passed on as ``Infinity``, which is no JSON."""
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text} is too large")
    return value


_STATUS_OF_CODE = {"invalid": 400, "forbidden": 403, "unavailable": 503}


def reply_response(raw: bytes) -> Response:
    """A service's reply, passed on with the HTTP status its code means."""
    reply = json.loads(raw)
    status = 200
    if reply.get("type") == tag_of(Rejected):
        status = _STATUS_OF_CODE.get(reply.get("code"), 409)
    return Response(raw, status_code=status, media_type="application/json")


def page(
    name: str, floor: Connected[GatewayFloor] | None = None
) -> Callable[[Request], Awaitable[Response]]:
    """The static page ``name``; a table's page (given ``floor``) only for a table ever opened:
    for any other id, a 404 page saying so, with the way back to the floor (never a page that
    would sit at "Loading…" beside an error)."""

    async def page(request: Request) -> Response:
        if "table" in request.path_params:
            table = str(request.path_params["table"])
            # An id no table can have is never looked up (it would go into a NATS subject).
            if not 1 <= len(table) <= 32 or not set(table) <= ID_CHARS:
                return missing_page(request, "notfound.table", status=400, table=table)
            if floor is not None and not await floor.get().opened(table):
                return missing_page(request, "notfound.table", table=table)
        return FileResponse(STATIC / name, headers={"cache-control": "no-cache"})

    return page


def guarded(
    handler: Callable[[Request], Awaitable[Response]],
) -> Callable[[Request], Awaitable[Response]]:
    async def guarded(request: Request) -> Response:
        try:
            return await handler(request)
        except ApiError as err:
            return err.response()
        except Unavailable as err:
            return error(503, "unavailable", str(err), headers=RETRY_SOON)
        except (StoreError, TimeoutError) as err:  # the log did not answer (in time)
            reason = f"the floor's log did not answer ({err}); ask again in a moment"
            return error(503, "unavailable", reason, headers=RETRY_SOON, key="http.log-slow")
        except Exception as err:  # a bug: an answer all the same, and the trace in the log
            log.exception("%s %s failed", request.method, request.url.path)
            return error(500, "internal", f"the gateway failed on this request ({err!r})")

    return guarded


#: What a 503 tells the page: the floor is starting or busy, try again shortly.
RETRY_SOON = {"Retry-After": "1"}


async def not_found(request: Request, exc: Exception) -> Response:
    """Unknown paths and methods answer JSON, saying which; a browser asking for a page that
    is not one gets a page saying so, with the way back to the floor."""
    status = getattr(exc, "status_code", 404)
    path = request.url.path
    if status == 404 and _wants_page(request):
        return missing_page(request, "notfound.path", path=path)
    what = "no such path" if status == 404 else f"{request.method} is not allowed here"
    return error(status, "not-found" if status == 404 else "method", f"{what}: {path}")


def _wants_page(request: Request) -> bool:
    """A browser's navigation (it accepts HTML) to anything but the API or a static file."""
    path = request.url.path
    if path.startswith(("/api/", "/static/")) or request.method != "GET":
        return False
    return "text/html" in request.headers.get("accept", "")
