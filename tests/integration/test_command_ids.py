"""Command ids are the caller's: a reused id never passes for a duplicate of another command.

The server dedupes ``Nats-Msg-Id`` across the whole stream, so the floor scopes it by table and
service, and records a digest of each command: only the same command again is a duplicate.
"""

from __future__ import annotations

from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo_contracts.lifecycle import CloseBetting
from sicbo_contracts.replies import Accepted, Rejected
from tests.integration.conftest import DEALER, Floor
from tests.integration.test_wagers import open_betting, open_table, slip


async def test_a_players_slip_id_does_not_swallow_the_dealers_no_more_bets(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    await open_betting(floor, nc, table_id, 1)
    placed = await floor.send(nc, slip(table_id, 1, slip_id="nomore-1"))
    assert isinstance(placed, Accepted) and not placed.duplicate
    close = CloseBetting(command_id="nomore-1", table=table_id, actor=DEALER, round=1)
    closed = await floor.send(nc, close)
    assert isinstance(closed, Accepted) and not closed.duplicate, closed
    late = await floor.send(nc, slip(table_id, 1, player="bob"))
    assert isinstance(late, Rejected) and "closed" in late.reason
    types = [e.subject.rsplit(".", 1)[1] for e in await store.read(f"sicbo.evt.{table_id}.>")]
    assert "round-betting-closed-v1" in types


async def test_a_slip_id_reused_by_another_player_is_refused_not_called_a_duplicate(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id)
    await open_betting(floor, nc, table_id, 1)
    first = await floor.send(nc, slip(table_id, 1, player="alice", slip_id="lucky-7"))
    assert isinstance(first, Accepted)
    again = await floor.send(nc, slip(table_id, 1, player="alice", slip_id="lucky-7"))
    assert isinstance(again, Accepted) and again.duplicate  # the same slip, retried
    other = await floor.send(nc, slip(table_id, 1, player="bob", slip_id="lucky-7"))
    assert isinstance(other, Rejected) and other.field == "$.command_id", other
    assert "already used" in other.reason
    slips = await store.read(f"sicbo.evt.{table_id}.bets.>")
    assert len(slips) == 1
