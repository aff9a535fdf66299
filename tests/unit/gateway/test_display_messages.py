"""A layout page that sends what is no message is told why, and stays the table's layout
controller: the socket was dropped without a close frame (a binary frame, text that is not
JSON), which would leave the lamps unanswered, a fault that suspends the table."""

from typing import Any, cast

from starlette.websockets import WebSocket

from sicbo.gateway.displays import serve_display


class Subscription:
    async def unsubscribe(self) -> None:
        return None


class QuietNats:
    """Subscriptions that never deliver: only the page's messages are at stake here."""

    async def subscribe(self, subject: str, cb: Any) -> Subscription:
        return Subscription()


class Page:
    """The page's side of the socket: the frames it sends, then it goes away."""

    def __init__(self, frames: list[dict[str, Any]]) -> None:
        self.frames = [*frames, {"type": "websocket.disconnect", "code": 1000}]
        self.answers: list[Any] = []

    async def receive(self) -> dict[str, Any]:
        return self.frames.pop(0)

    async def send_json(self, data: Any) -> None:
        self.answers.append(data)


def text(value: str) -> dict[str, Any]:
    return {"type": "websocket.receive", "text": value}


async def test_what_is_no_message_is_answered_and_the_page_stays_connected() -> None:
    page = Page(
        [
            {"type": "websocket.receive", "bytes": b"\xff\xfe"},
            text("not json"),
            text("[" * 100_000),
            text("[1]"),
            text('{"type": "lit", "request_id": "none", "lit": []}'),  # no such request: quiet
            text("{"),
        ]
    )
    await serve_display(cast(WebSocket, page), QuietNats(), "T1", lambda: True)  # type: ignore[arg-type]
    reasons = [a["reason"] for a in page.answers]
    assert [a["type"] for a in page.answers] == ["error"] * 5
    for reason, says in zip(
        reasons,
        ["text frame of JSON", "not JSON", "nested too deeply", "a JSON object", "not JSON"],
        strict=True,
    ):
        assert says in reason
    assert page.frames == []  # every frame read: the page was served to its last
