"""Messages of one subscription handed straight from nats-py's protocol parser to a plain
function: no ``Msg``, no subscription queue, no callback task per message (issue 16 item 2;
docs/benchmarks.md "Replay verify: the read's per-message cost").

A log read receives thousands of Direct Get replies on one inbox; nats-py 2.16 makes each one a
``Msg``, puts it on the subscription's queue and wakes a task that awaits the callback. For
such an inbox :func:`route` puts the client's ``_process_msg`` (which its parser calls for each
MSG/HMSG) behind a dispatcher: a message on a routed subscription id goes to its handler
(subject, reply subject and header block as bytes, and the payload), and nothing else is done
for it; every other message takes the library's own path. Installed only over the nats-py version it
was written against (:data:`.nats_headers.FOR_VERSION`): with any other, :func:`route` returns
False and the caller reads through the subscription's callback as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib.metadata import version

from nats.aio.client import Client as NATS

from sicbo.eventstore.nats_headers import FOR_VERSION

__all__ = ["RawHandler", "route", "unroute"]


#: Called with a message's subject, its reply subject, its header block (None: none) and its
#: payload.
RawHandler = Callable[[bytes, bytes, bytes | None, bytes], None]


ProcessMsg = Callable[[int, bytes, bytes, bytes, bytes], Awaitable[None]]

_SUPPORTED = version("nats-py") == FOR_VERSION
_ROUTES = "_sicbo_raw_routes"


def route(nc: NATS, sid: int, handler: RawHandler) -> bool:
    """Hand every message of subscription ``sid`` to ``handler`` (called in the reading task,
    in arrival order); False, and nothing done, where nats-py is not the version known."""
    if not _SUPPORTED:
        return False
    routes: dict[int, RawHandler] | None = nc.__dict__.get(_ROUTES)
    if routes is None:
        routes = {}
        setattr(nc, _ROUTES, routes)
        library: ProcessMsg = nc._process_msg  # the bound method, read before it is shadowed
        table = routes

        async def dispatch(sid: int, subject: bytes, reply: bytes, data: bytes, hdr: bytes) -> None:
            handler = table.get(sid)
            if handler is None:
                await library(sid, subject, reply, data, hdr)
                return
            nc.stats["in_msgs"] += 1  # the library's own counters, kept as it keeps them
            nc.stats["in_bytes"] += len(data)
            handler(subject, reply, hdr or None, data)

        # An instance attribute: the parser calls ``self.nc._process_msg``, which finds it first.
        nc._process_msg = dispatch  # type: ignore[method-assign,assignment]
    routes[sid] = handler
    return True


def unroute(nc: NATS, sid: int) -> None:
    routes: dict[int, RawHandler] | None = nc.__dict__.get(_ROUTES)
    if routes is not None:
        routes.pop(sid, None)
