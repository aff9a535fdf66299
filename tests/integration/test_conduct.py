"""A supervisor's powers over a person with a prohibited device (000 §8.1, §8.3) on the
session's floor: the services as separate processes on a real nats-server, each command sent
on its sender's subject (the supervisor's, the dealer's, the player's).

- 000 §8.3.2: an excluded player's slip is refused naming the clause at ``$.player``, also
  when a dealer places it for them, and they take no seat; lifted, they play again.
- the supervisor's terminal sends them through the web gateway; a dealer's may not;
- 000 §8.3.1: a player's wagers declared void are settled void by the settlement service and
  the dispute replay MATCHes; after "no result" they are not carried into the re-run.
"""

from __future__ import annotations

from collections.abc import Sequence

import httpx
import msgspec
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.replay.report import MATCH, round_report
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.lifecycle import ExcludePlayer, LiftExclusion, TakeSeat, VoidPlayerWagers
from sicbo_contracts.replies import Accepted, Rejected
from sicbo_contracts.settlement import WagerOutcome, WagerResult
from sicbo_contracts.wagers import PlaceSlip, Wager
from tests.integration.conftest import DEALER, SUPERVISOR, Floor, new_id
from tests.integration.test_gateway import accepted, error_of, send, sign_in
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    no_result,
    ok,
    open_round,
    open_table,
    place,
    settlement_of,
    wait_completed,
)

DEVICE = "phone filming the shaker at seat 3 (000 §8.1)"
BIG = [Wager(bet="big", stake=200)]


def slip(table: str, player: str, *, by: Actor | None = None) -> PlaceSlip:
    return PlaceSlip(
        command_id=new_id("slip"),
        table=table,
        actor=by or Actor(id=player, role=Role.PLAYER),
        round=1,
        player=player,
        wagers=BIG,
    )


def refused_at_player(reply: object, clause: str) -> None:
    assert isinstance(reply, Rejected), reply
    assert reply.code == "refused" and reply.field == "$.player", reply
    assert clause in reply.reason, reply.reason


async def replay_matches(store: EventStore, table: str, n: int) -> None:
    report = round_report(await store.read(f"sicbo.evt.{table}.>"), table, n)
    assert report.status == MATCH, (report.problems, report.wagers)
    assert report.problems == [] and report.invariants == []


async def test_000_8_3_2_an_excluded_player_is_refused_until_the_exclusion_is_lifted(
    floor: Floor, nc: NATS, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "cca-1992")
    await open_round(floor, nc, table_id, 1)
    exclude = ExcludePlayer(
        command_id=new_id(), table=table_id, actor=SUPERVISOR, player="eve", reason=DEVICE
    )
    # Only a supervisor may (the dealer's credential may not even send it).
    as_dealer = await floor.send(nc, msgspec.structs.replace(exclude, actor=DEALER))
    assert isinstance(as_dealer, Rejected) and as_dealer.code == "forbidden", as_dealer
    assert (await ok(floor, nc, exclude)).events == ["table.player-excluded.v1"]

    refused_at_player(await floor.send(nc, slip(table_id, "eve")), "000 §8.3.2")
    refused_at_player(await floor.send(nc, slip(table_id, "eve", by=DEALER)), "000 §8.3.2")
    seat = TakeSeat(command_id=new_id(), table=table_id, actor=DEALER, player="eve", seat=1)
    refused_at_player(await floor.send(nc, seat), "000 §8.3.2")
    await place(floor, nc, table_id, 1, "ann", BIG)  # the others play on

    lift = LiftExclusion(
        command_id=new_id(), table=table_id, actor=SUPERVISOR, player="eve", reason="a hearing aid"
    )
    assert (await ok(floor, nc, lift)).events == ["table.exclusion-lifted.v1"]
    assert isinstance(await floor.send(nc, slip(table_id, "eve")), Accepted)
    assert isinstance(await floor.send(nc, seat), Accepted)


async def void(floor: Floor, nc: NATS, table: str, n: int, player: str) -> None:
    command = VoidPlayerWagers(
        command_id=new_id(), table=table, actor=SUPERVISOR, round=n, player=player, reason=DEVICE
    )
    assert (await ok(floor, nc, command)).events == ["round.player-wagers-voided.v1"]


def results(got: Sequence[WagerResult]) -> list[tuple[str, str, int]]:
    return [(r.player, r.outcome, r.returned) for r in got]


async def test_000_8_3_1_voided_wagers_are_settled_void_and_replay_matches(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "cca-1992")
    await open_round(floor, nc, table_id, 1)
    await place(floor, nc, table_id, 1, "ann", BIG)
    await place(floor, nc, table_id, 1, "eve", BIG)
    await close_and_uncover(floor, nc, table_id, 1)
    await void(floor, nc, table_id, 1, "eve")
    await confirm(floor, nc, table_id, 1, (4, 5, 6))  # big wins
    await wait_completed(store, table_id, 1)
    got = await settlement_of(store, table_id, 1)
    assert results(got.results) == [
        ("ann", WagerOutcome.WIN, 400),
        ("eve", WagerOutcome.VOID, 200),  # her stake back, not the win
    ]
    assert got.summaries[0].voided == ["eve"]
    await replay_matches(store, table_id, 1)


async def test_000_8_3_1_voided_wagers_are_not_carried_into_the_rerun(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """macau-2003: after "no result" ann's slip stands in the re-run (002/2003 art. 3(3)); eve's,
    voided, is returned in the void round and not paid again."""
    await open_table(floor, nc, table_id, "macau-2003")
    await open_round(floor, nc, table_id, 1)
    await place(floor, nc, table_id, 1, "ann", BIG)
    await place(floor, nc, table_id, 1, "eve", BIG)
    await void(floor, nc, table_id, 1, "eve")
    await close_and_uncover(floor, nc, table_id, 1)
    await no_result(floor, nc, table_id, 1)
    await wait_completed(store, table_id, 1)
    assert results((await settlement_of(store, table_id, 1)).results) == [
        ("ann", WagerOutcome.CARRIED, 0),
        ("eve", WagerOutcome.VOID, 200),
    ]
    await open_round(floor, nc, table_id, 2)
    await close_and_uncover(floor, nc, table_id, 2)
    await confirm(floor, nc, table_id, 2, (4, 5, 6))
    await wait_completed(store, table_id, 2)
    assert results((await settlement_of(store, table_id, 2)).results) == [
        ("ann", WagerOutcome.WIN, 400)
    ]
    await replay_matches(store, table_id, 1)
    await replay_matches(store, table_id, 2)


async def test_000_8_3_the_supervisors_terminal_sends_the_powers_through_the_gateway(
    web: httpx.AsyncClient, floor: Floor, nc: NATS, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "cca-1992")
    exclude = {"type": "table.exclude-player.v1", "player": "eve", "reason": DEVICE}
    await sign_in(web, "ana", "1111")  # a dealer
    error_of(await send(web, table_id, exclude), 403, "forbidden")
    await sign_in(web, "sofia", "3333")  # a supervisor
    await accepted(web, table_id, exclude)
    seat = {"type": "table.take-seat.v1", "player": "eve", "seat": 1}
    body = error_of(await send(web, table_id, seat), 409, "refused")
    assert body["field"] == "$.player" and "000 §8.3.2" in str(body["reason"]), body
    await accepted(web, table_id, {**exclude, "type": "table.lift-exclusion.v1"})
    await accepted(web, table_id, seat)
    await open_round(floor, nc, table_id, 1)
    void = {"type": "round.void-player-wagers.v1", "round": 1, "player": "eve", "reason": DEVICE}
    await accepted(web, table_id, void)
