"""A browser page as a table's layout controller (000 §2.3).

The illumination service asks ``sicbo.layout.<table>.light`` to light the winning spots; while a
display page is connected, the gateway answers for it: the request goes down the page's
WebSocket, the page lights the spots and reads back from its DOM what is lit, and that goes back
as the LayoutReport, so a spot the page failed to show is an illumination fault like a dark
lamp. No answer within the service's deadline is a fault too. The page answers only while its
sign-in stands: once it ends (signed out, expired, revoked) the socket is closed with 4401 at
the next request.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable

import msgspec
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from starlette.websockets import WebSocket, WebSocketDisconnect

from sicbo.illumination.illuminator import DEFAULT_DEADLINE
from sicbo.infra.replies import answer as answer_on_inbox
from sicbo.infra.replies import misdirected
from sicbo_contracts.illumination import LayoutReport, LightLayout
from sicbo_contracts.subjects import layout_light, layout_ping

#: How long a page has to light what it was asked: no longer than the service waits.
LIGHT_SECONDS = DEFAULT_DEADLINE
_light = msgspec.json.Decoder(LightLayout)
_encode = msgspec.json.Encoder().encode


async def serve_display(ws: WebSocket, nc: NATS, table: str, granted: Callable[[], bool]) -> None:
    """Answer the table's light requests and pings for the page until it goes away, or
    ``granted`` says its sign-in has ended."""
    loop = asyncio.get_running_loop()
    ended = asyncio.Event()

    async def still_granted() -> bool:
        if granted():
            return True
        if not ended.is_set():
            ended.set()
            with contextlib.suppress(Exception):
                await ws.close(code=4401, reason="the display's sign-in has ended")
        return False

    pending: dict[str, asyncio.Future[list[str]]] = {}

    async def answer(msg: Msg, request: LightLayout) -> None:
        lit = loop.create_future()
        pending[request.request_id] = lit
        try:
            await ws.send_json(
                {
                    "type": "light",
                    "request_id": request.request_id,
                    "round": request.round,
                    "spots": request.spots,
                }
            )
            spots = await asyncio.wait_for(lit, LIGHT_SECONDS)
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            return  # no report: the illumination service's deadline makes it a fault
        finally:
            pending.pop(request.request_id, None)
        report = LayoutReport(
            request_id=request.request_id, table=table, round=request.round, lit=spots
        )
        await answer_on_inbox(msg, _encode(report))

    tasks: set[asyncio.Task[None]] = set()

    async def on_light(msg: Msg) -> None:
        if misdirected(msg):
            return
        try:
            request = _light.decode(msg.data)
        except msgspec.DecodeError:
            return
        if request.table == table and msg.reply and await still_granted():
            task = loop.create_task(answer(msg, request))
            tasks.add(task)
            task.add_done_callback(tasks.discard)

    async def on_ping(msg: Msg) -> None:
        if msg.reply and await still_granted():
            await answer_on_inbox(msg, b'{"ok":true}')

    subs = [
        await nc.subscribe(layout_light(table), cb=on_light),
        await nc.subscribe(layout_ping(table), cb=on_ping),
    ]
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            message = page_message(frame.get("text"))
            if isinstance(message, str):  # said, and the page stays the controller
                await ws.send_json({"type": "error", "reason": message})
                continue
            if message.get("type") != "lit":
                continue
            lit = pending.get(str(message.get("request_id")))
            spots = message.get("lit")
            if lit is not None and not lit.done() and isinstance(spots, list):
                lit.set_result([str(s) for s in spots])
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        for sub in subs:
            with contextlib.suppress(Exception):
                await sub.unsubscribe()
        for task in tasks:
            task.cancel()


def page_message(text: str | None) -> dict[str, object] | str:
    """A page's message as a JSON object, or why it is none (a binary frame, text that is not
    JSON or nested past the parser, a JSON array): the page is told and the socket stays open,
    since closing it would leave the table's lamps unanswered (a fault, the table suspended)."""
    if text is None:
        return "a message is a text frame of JSON, not binary"
    try:
        message = json.loads(text)
    except RecursionError:
        return "the message is nested too deeply"
    except ValueError as err:
        return f"the message is not JSON: {err}"
    if not isinstance(message, dict):
        return 'a message is a JSON object: {"type": "lit", "request_id", "lit": [...]}'
    return message
