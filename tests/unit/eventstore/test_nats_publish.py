"""The services' publish writes nats-py's own bytes (sicbo.eventstore.nats_publish): the same
protocol command, or the same refusal, for every header name and value."""

from __future__ import annotations

import asyncio
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from nats import errors
from nats.aio.client import Client

from sicbo.eventstore import nats_publish

EDGE_CASES: list[dict[str, Any]] = [
    {},
    {"Nats-Msg-Id": "t1/wagers/c-1", "Nats-Expected-Last-Subject-Sequence": "12"},
    {"Nats-Expected-Last-Subject-Sequence-Subject": "sicbo.evt.t1.lifecycle.>"},
    {" padded ": "  both sides  ", "\tTab\t": "\tv\t"},
    {"": "empty name skipped", "   ": "blank name skipped", "kept": "yes"},
    {"crlf": "a\r\nb", "cr": "\ra\r", "lf": "\n\nx\n", "only": "\r\n"},
    {"unicode-value": "café ☃ \u2028 line sep", "ws": "\u3000ideographic\u3000"},
    {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"},
    {"bad name": "x"},
    {"bad:name": "x"},
    {"café": "x"},
    {"a": "1", "bad\x00": "2"},
    {"\u2003em-spaced\u2003": "unicode whitespace stripped from the name"},
]

NAME_CHARS = st.sampled_from([*list("aZ09-_.!#~|"), " ", "\t", ":", "\x00", "é", "\u2003", "\r"])
VALUE_CHARS = st.sampled_from([*list("aZ09 -:/>"), "\t", "\r", "\n", "\x0b", "é", "☃", "\u2028"])
names = st.lists(NAME_CHARS, max_size=12).map("".join)
values = st.lists(VALUE_CHARS, max_size=30).map("".join)
header_dicts = st.dictionaries(names, values, max_size=6)


class Recorder:
    """Just enough of a client for ``_send_publish``: the queued commands, no connection."""

    def __init__(self) -> None:
        self.stats = {"out_msgs": 0, "out_bytes": 0}
        self._flush_queue = None
        self._pending: list[bytes] = []  # never filled: the burst write is not reached
        self.sent: list[bytes] = []

    async def _send_command(self, cmd: bytes, priority: bool = False) -> None:
        self.sent.append(bytes(cmd))


def publish_with(method: Any, headers: dict[str, Any] | None) -> tuple[str, Any]:
    """What ``method`` queues for a publish with ``headers``, or the error it raises."""
    client = Recorder()
    try:
        asyncio.run(method(client, "sicbo.evt.t1.bets.slip", "_INBOX.x", b'{"a":1}', 7, headers))
    except (errors.Error, UnicodeEncodeError) as err:
        return ("raised", (type(err), str(err)))
    return ("sent", (client.sent, client.stats))


def assert_same(headers: dict[str, Any] | None) -> None:
    ours = publish_with(nats_publish.send_publish, headers)
    assert ours == publish_with(nats_publish.library_send_publish, headers), headers


def test_edge_cases_are_published_as_the_library_does() -> None:
    assert_same(None)
    for headers in EDGE_CASES:
        assert_same(headers)
        assert_same(headers)  # again: the names remembered valid give the same bytes


def test_a_bad_name_is_refused_even_after_a_good_one() -> None:
    ours = publish_with(nats_publish.send_publish, {"ok": "1", "not ok": "2"})
    assert ours[0] == "raised" and ours[1][0] is errors.BadHeaderError


@settings(max_examples=2000, deadline=None)
@given(header_dicts)
def test_random_headers_are_published_as_the_library_does(headers: dict[str, str]) -> None:
    assert_same(headers)


def test_installed_over_the_pinned_version_only() -> None:
    before = Client._send_publish
    try:
        assert nats_publish.install() is True
        assert Client._send_publish is nats_publish.send_publish
    finally:
        Client._send_publish = before  # type: ignore[method-assign]
