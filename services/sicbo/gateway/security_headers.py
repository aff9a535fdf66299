"""The headers every answer of the gateway carries (issue 25 item 6): its pages run only their
own scripts, are never framed (no clickjacking of a terminal's buttons), and say nothing of
where a person came from.

- ``Content-Security-Policy``: scripts from the gateway itself only, never inline nor
  ``eval``; styles may be inline (the pages' bars and grids set widths in ``style``); no
  plugin, no ``<base>``, forms post to the gateway only, ``frame-ancestors 'none'``;
- ``X-Frame-Options: DENY`` for browsers older than ``frame-ancestors``;
- ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``.

One ASGI middleware, for HTTP answers and WebSocket denials alike (set where the answer
starts, so a route never forgets it).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data: blob:",
        "media-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
_NAMES = {name for name, _ in HEADERS}


class SecurityHeaders:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.http.response.start"):
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _NAMES]
                message["headers"] = [*kept, *HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)
