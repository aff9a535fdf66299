"""A refusal is decided again on a fresher state at most twice: under a flood the table's log
always has more, and a slip out of phase is answered "refused" with its rule, not "conflict"
("send the same command again" would not help)."""

from datetime import UTC, datetime
from typing import Any, cast

import msgspec

from sicbo.eventstore.store import EventStore
from sicbo.shell.commands import REFUSAL_RECHECKS, CommandHandler
from sicbo.wagers.service import SPEC
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.replies import Rejected
from sicbo_contracts.wagers import PlaceSlip, Wager
from tests.support.common import TABLE
from tests.support.log import Log
from tests.support.stream import FakeStore, StoredLog
from tests.support.wagers import chips


class Flooded(FakeStore):
    """The stream leader always holds more of the table's log than was read (a flood of
    other slips): a refusal on what was read could always be stale."""

    async def last_sequence(self, filter_subject: str) -> int:
        self.lookups += 1
        return 10**9


def closed_round() -> StoredLog:
    log = Log(profile="online-live").start(1)
    log.slip(1, "ann", chips("big", 100))
    log.close(1)  # "no more bets" (000 §3.9)
    return StoredLog(log)


async def test_000_3_9_a_late_slip_under_a_flood_is_refused_not_a_conflict() -> None:
    store = Flooded(closed_round().stored())
    handler: CommandHandler[Any] = CommandHandler(
        SPEC, cast(EventStore, store), lambda: datetime(2026, 12, 1, tzinfo=UTC)
    )
    slip = PlaceSlip(
        command_id="late-1",
        table=TABLE,
        actor=Actor(id="bob", role=Role.PLAYER),
        round=1,
        player="bob",
        wagers=[Wager(bet="big", stake=100)],
    )
    reply = await handler.handle(msgspec.json.encode(slip), TABLE, "player")
    assert isinstance(reply, Rejected) and reply.code == "refused", reply
    assert "000 §3.9" in reply.reason or "closed" in reply.reason
    # the reason's message key and parameters go with it, for a page in the player's language
    assert reply.reason_key == "wager.closed" and reply.reason_params == {"round": 1}
    assert store.lookups == REFUSAL_RECHECKS  # the leader asked once per recheck, then it stood
