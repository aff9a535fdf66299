"""Promotional tokens against a real nats-server, the services running as separate processes
(000 §1.1: issued by the casino operator, one free wager in the amount on the token, forfeited
after a valid result; docs/rules.md: a void round returns it for another wager).

One table plays three rounds: two slips racing with the same token (exactly one is stored, the
media msg id), a refunded round that returns the token, a settled round that uses it up, and a
third round that refuses it. Replay then matches every settlement and finds nothing in the log.
"""

from __future__ import annotations

import asyncio

from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.replay.report import MATCH, round_report
from sicbo.replay.verify import verify
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.replies import Accepted, Rejected
from sicbo_contracts.settlement import WagerOutcome
from sicbo_contracts.wagers import IssuePromoToken, Medium, PlaceSlip, Wager
from tests.integration.conftest import DEALER, OPERATOR, Floor, new_id
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    no_result,
    ok,
    open_round,
    open_table,
    settlement_of,
    wait_completed,
)

ANN = Actor(id="ann", role=Role.PLAYER)


def token_wager(token: str, stake: int = 100, bet: str = "big") -> Wager:
    return Wager(bet=bet, stake=stake, medium=Medium.PROMO, token=token)


def slip(table: str, n: int, wager: Wager, *, by: Actor = ANN, player: str = "ann") -> PlaceSlip:
    return PlaceSlip(
        command_id=new_id("slip"), table=table, actor=by, round=n, player=player, wagers=[wager]
    )


async def refused(floor: Floor, nc: NATS, command: PlaceSlip, *words: str) -> None:
    reply = await floor.send(nc, command)
    assert isinstance(reply, Rejected) and reply.code == "refused", reply
    assert all(w in reply.reason for w in words), reply.reason


async def test_a_token_is_staked_once_returned_by_a_void_round_and_used_by_a_valid_one_000_1_1(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    table = table_id
    await open_table(floor, nc, table, "cca-1992")  # 000 §7.5: "no result" refunds
    for token, player in (("tk-ann", "ann"), ("tk-bob", "bob")):
        issue = IssuePromoToken(
            command_id=new_id(), table=table, actor=OPERATOR, token=token, player=player, amount=100
        )
        await ok(floor, nc, issue)
    # Only the casino operator issues tokens: the dealer's NATS sender may not.
    dealer_issue = IssuePromoToken(
        command_id=new_id(), table=table, actor=DEALER, token="tk-x", player="ann", amount=100
    )
    forbidden = await floor.send(nc, dealer_issue)
    assert isinstance(forbidden, Rejected) and forbidden.code == "forbidden", forbidden

    # Round 1: two slips with ann's token race (hers and the dealer's for her): one stands.
    await open_round(floor, nc, table, 1)
    replies = await asyncio.gather(
        floor.send(nc, slip(table, 1, token_wager("tk-ann"))),
        floor.send(nc, slip(table, 1, token_wager("tk-ann", bet="small"), by=DEALER)),
    )
    assert sorted(type(r).__name__ for r in replies) == ["Accepted", "Rejected"], replies
    loser = next(r for r in replies if isinstance(r, Rejected))
    assert "wagers[0].token:" in loser.reason and "already stands on slip" in loser.reason
    await refused(floor, nc, slip(table, 1, token_wager("tk-bob")), "issued to 'bob'")
    await refused(floor, nc, slip(table, 1, token_wager("tk-9")), "no promotional token 'tk-9'")
    await close_and_uncover(floor, nc, table, 1)
    await no_result(floor, nc, table, 1)
    await wait_completed(store, table, 1)
    voided = await settlement_of(store, table, 1)
    assert [(r.medium, r.outcome, r.returned) for r in voided.results] == [
        ("promo", WagerOutcome.VOID, 100)
    ]

    # Round 2: the void round returned it; at its face amount only; a valid result uses it.
    await open_round(floor, nc, table, 2)
    await refused(floor, nc, slip(table, 2, token_wager("tk-ann", 200)), "wagers[0].stake:")
    accepted = await floor.send(nc, slip(table, 2, token_wager("tk-ann")))
    assert isinstance(accepted, Accepted), accepted
    await close_and_uncover(floor, nc, table, 2)
    await confirm(floor, nc, table, 2, (2, 3, 5))  # small: the big token wager loses
    await wait_completed(store, table, 2)
    [lost] = (await settlement_of(store, table, 2)).results
    assert (lost.outcome, lost.returned) == (WagerOutcome.LOSE, 0)

    # Round 3: forfeited after a valid result, win or lose (000 §1.1).
    await open_round(floor, nc, table, 3)
    await refused(floor, nc, slip(table, 3, token_wager("tk-ann")), "is used", "000 §1.1")

    log = await store.read(f"sicbo.evt.{table}.>")
    stakes = [e for e in log if e.subject.endswith("slip-placed-v1")]
    assert len(stakes) == 2, [e.subject for e in log]  # one per round, none refused stored
    assert all(b"tk-ann" in e.data for e in stakes)
    for n in (1, 2):
        report = round_report(log, table, n)
        assert report.status == MATCH and not report.invariants, (
            report.problems,
            report.invariants,
        )
    result = verify(log, table=table)
    assert result.ok, (result.violations, result.mismatches)
