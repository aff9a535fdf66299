"""004 "Cara Bermain": a due countdown is sent until the log answers it, whatever a try hits.

A try that raises (a connection lost mid-request, a node failing over) used to end the
countdown: the round stayed open until a lifecycle replica restarted. The log's answer is
what ends it: accepted, or refused for good (closed by hand, never opened).
"""

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast

import pytest

from sicbo.lifecycle import countdown
from sicbo.lifecycle.countdown import Countdown, Deadline
from sicbo.shell.bootstrap import Runtime
from sicbo_contracts.replies import Accepted, Rejected, Reply

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


@dataclass
class Connected:
    is_connected: bool = True


@dataclass
class Handler:
    """Answers each try with the next of ``outcomes`` (an exception is raised)."""

    outcomes: list[Reply | Exception]
    tries: list[tuple[str, str, bool]] = field(default_factory=list)

    async def handle(self, raw: bytes, table: str, sender: str, *, in_process: bool) -> Reply:
        self.tries.append((table, sender, in_process))
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return outcome


@dataclass
class Bucket:
    deleted: list[str] = field(default_factory=list)

    async def delete(self, key: str) -> None:
        self.deleted.append(key)


def due(handler: Handler) -> Countdown:
    runtime = Runtime(
        nc=cast(Any, Connected()),
        store=cast(Any, None),
        clock=lambda: NOW,
        handler=cast(Any, handler),
    )
    return Countdown(runtime)


DEADLINE = Deadline(table="t1", round=3, closes_at=NOW)


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(countdown, "RETRY_SECONDS", 0.0)
    monkeypatch.setattr(countdown, "WATCH_RETRY_SECONDS", 0.0)


async def test_004_a_try_that_raises_is_tried_again_until_the_log_takes_the_close() -> None:
    accepted = Accepted(command_id="countdown-t1-3", events=["betting-closed.v1"], seq=9)
    handler = Handler(
        [
            ConnectionResetError("connection lost mid-request"),
            Rejected(command_id="countdown-t1-3", code="unavailable", reason="failing over"),
            accepted,
        ]
    )
    bucket = Bucket()
    await due(handler)._close(cast(Any, bucket), "t1.3", DEADLINE)
    assert len(handler.tries) == 3
    assert handler.tries[0] == ("t1", "countdown", True)  # the lifecycle to itself
    assert bucket.deleted == ["t1.3"]  # answered: the deadline is done with


async def test_004_a_refusal_for_good_ends_the_countdown_without_trying_again() -> None:
    closed_by_hand = Rejected(command_id="countdown-t1-3", code="invalid-state", reason="closed")
    handler = Handler([closed_by_hand, ConnectionResetError("never reached")])
    bucket = Bucket()
    await due(handler)._close(cast(Any, bucket), "t1.3", DEADLINE)
    assert len(handler.tries) == 1
    assert bucket.deleted == ["t1.3"]
