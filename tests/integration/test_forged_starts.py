"""A forged start of an old round does not wedge a table (against the session floor's real
services): another table's round 1 filed under this table's subject, and this table's own
round 1 started again, are reported by ``sicbo replay verify`` and change nothing of play:
the round in progress is closed, settled and completed, and the next one starts."""

from __future__ import annotations

import msgspec
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo_contracts.lifecycle import RoundStarted
from sicbo_contracts.subjects import Aggregate, round_filter
from sicbo_contracts.wagers import Wager
from tests.integration.conftest import Floor
from tests.integration.test_replay_invariants import sicbo
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    open_round,
    open_table,
    place_many,
    play,
    wait_completed,
    wait_for,
)


async def test_a_forged_start_of_an_old_round_does_not_stop_the_table(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    table = table_id
    await open_table(floor, nc, table, "cca-1992")
    slips = [("ann", [Wager(bet="big", stake=200)])]
    for n in (1, 2):
        await play(floor, nc, table, n, slips, (2, 3, 5))
        await wait_completed(store, table, n)
    await open_round(floor, nc, table, 3)

    first = await wait_for(store, round_filter(table, Aggregate.LIFECYCLE, 1), "round-started-v1")
    started = msgspec.json.decode(first.data, type=RoundStarted)
    # Another table's round 1 under this table's round-1 subject, and round 1 again as this
    # table's own: raw appends, as a user with the floor's rights could make them.
    foreign = msgspec.json.encode(msgspec.structs.replace(started, table=f"{table}x"))
    misfiled = (await store.append(first.subject, foreign)).seq
    again = (await store.append(first.subject, first.data)).seq

    await place_many(floor, nc, table, 3, slips)  # betting is still open for round 3
    await close_and_uncover(floor, nc, table, 3)
    await confirm(floor, nc, table, 3, (4, 5, 6))
    await wait_completed(store, table, 3)
    await play(floor, nc, table, 4, slips, (1, 2, 3))
    await wait_completed(store, table, 4)

    verified = sicbo("replay", "verify", "--table", table, "--nats", floor.nats_url)
    assert verified.returncode == 1, verified.stdout + verified.stderr
    out = verified.stdout
    assert f"VIOLATION seq {misfiled} {table} round 1 (subject, round.started.v1)" in out
    assert f"VIOLATION seq {again} {table} round 1 (round-order, round.started.v1)" in out
    assert "0 mismatched rounds" in out
