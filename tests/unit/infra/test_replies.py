"""Answers go to inboxes only (issue 25 item 1): a request asking for its answer elsewhere is
not answered, and one line names its subject, sender and reply subject."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from sicbo.infra.replies import answer, misdirected


class Request:
    def __init__(self, subject: str, reply: str) -> None:
        self.subject, self.reply = subject, reply
        self.answered: list[bytes] = []

    async def respond(self, data: bytes) -> None:
        self.answered.append(data)


async def test_an_inbox_is_answered_and_nothing_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    msg: Any = Request("sicbo.svc.lifecycle.ping", "_INBOX.dealer.x1")
    with caplog.at_level(logging.WARNING, "sicbo.infra.replies"):
        assert not misdirected(msg)
        await answer(msg, b"ok")
    assert msg.answered == [b"ok"] and caplog.records == []


async def test_an_answer_asked_on_a_stream_subject_is_logged_once_and_not_sent(
    caplog: pytest.LogCaptureFixture,
) -> None:
    msg: Any = Request("sicbo.cmd.T1.lifecycle.dealer", "sicbo.evt.T1.settle.1.x")
    with caplog.at_level(logging.WARNING, "sicbo.infra.replies"):
        await answer(msg, b"refused")
    assert msg.answered == []
    (record,) = caplog.records
    text = record.getMessage()
    assert "sicbo.cmd.T1.lifecycle.dealer" in text and "sender dealer" in text
    assert "'sicbo.evt.T1.settle.1.x'" in text
