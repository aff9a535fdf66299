"""Only the gateway's own pages change anything: every state-changing request (POST, PUT,
PATCH, DELETE, and the WebSocket upgrade) must come from the gateway's own origin, or from one
of the configured origins, as its ``Origin`` header says (or, without one, its ``Referer``).
Anything else is refused with 403 before any route sees it, so nothing reaches the floor. The
cookies' SameSite=Strict stays as a second wall; this one holds in browsers that ignore it.

The check is pure (:func:`refusal`); :class:`SameOrigin` is the ASGI middleware around it.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_DEFAULT_PORTS = {"http": 80, "https": 443}


def origin_of(url: str) -> str | None:
    """``scheme://host[:port]`` of a URL, lower case, the scheme's own port left out; None
    for anything that is not an http(s) URL with a host (``null`` among them)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    if ":" in host:  # IPv6
        host = f"[{host}]"
    return (
        f"{scheme}://{host}"
        if port in (None, _DEFAULT_PORTS[scheme])
        else f"{scheme}://{host}:{port}"
    )


def allowed_origins(origins: Iterable[str]) -> frozenset[str]:
    """The configured origins, normalised; a value that is no origin is an error here."""
    normalised = set()
    for origin in origins:
        found = origin_of(origin)
        if found is None:
            raise ValueError(f"{origin!r} is not an origin (https://host[:port])")
        normalised.add(found)
    return frozenset(normalised)


def refusal(
    origin: str | None, referer: str | None, own: str | None, allowed: frozenset[str]
) -> str | None:
    """Why a state-changing request is refused (None: it may go on). ``own``: the gateway's
    origin as the request addressed it; ``allowed``: the configured origins, which, when
    given, are the only ones (a DNS-rebound name is then no origin of the gateway's)."""
    # An empty header is no header (a proxy may leave one so); the Referer must then do.
    sent, header = (origin, "Origin") if origin else (referer or None, "Referer")
    if sent is None:
        return "a request that changes anything must say where it comes from (Origin)"
    found = origin_of(sent)
    accepted = allowed if allowed else frozenset({own} if own else ())
    if found is None or found not in accepted:
        return f"{header} {sent[:100]!r} is not this gateway's: only its own pages may do this"
    return None


class SameOrigin:
    """ASGI middleware: :func:`refusal` on every state-changing request and WebSocket upgrade.
    ``https_only``: the gateway is reached over https (TLS ends at the ingress)."""

    def __init__(self, app: ASGIApp, *, allowed: frozenset[str], https_only: bool) -> None:
        self.app = app
        self.allowed = allowed
        self.https_only = https_only

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket" or (kind == "http" and scope["method"] in STATE_CHANGING):
            headers = Headers(scope=scope)
            why = refusal(
                headers.get("origin"),
                headers.get("referer"),
                self._own(scope, headers),
                self.allowed,
            )
            if why is not None:
                await self._refuse(scope, receive, send, why)
                return
        await self.app(scope, receive, send)

    def _own(self, scope: Scope, headers: Headers) -> str | None:
        host = headers.get("host")
        if not host:
            return None
        secure = self.https_only or scope.get("scheme") in ("https", "wss")
        return origin_of(f"{'https' if secure else 'http'}://{host}")

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, why: str) -> None:
        body = {"code": "cross-origin", "error": "cross-origin", "reason": why, "field": "origin"}
        response = JSONResponse(body, status_code=403)
        if scope["type"] == "http":
            await response(scope, receive, send)
        elif "websocket.http.response" in scope.get("extensions", {}):
            await WebSocket(scope, receive, send).send_denial_response(response)
        else:
            await send({"type": "websocket.close", "code": 1008})  # answered 403 by the server


class HostsServed:
    """ASGI middleware: with origins configured, a request for any other ``Host`` is refused
    (400, Starlette's :class:`TrustedHostMiddleware`): a DNS-rebound name reads nothing.
    The health probe is exempt: Kubernetes asks it by the pod's address."""

    def __init__(self, app: ASGIApp, *, hosts: Iterable[str], exempt: str = "/healthz") -> None:
        self.app = app
        self.checked = TrustedHostMiddleware(app, allowed_hosts=list(hosts))
        self.exempt = exempt

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("path") == self.exempt:
            await self.app(scope, receive, send)
        else:
            await self.checked(scope, receive, send)


def hosts_of(origins: Iterable[str]) -> list[str]:
    """The host names of the configured origins (what ``Host`` may say, any port)."""
    return sorted({urlsplit(o).hostname or "" for o in origins} - {""})
