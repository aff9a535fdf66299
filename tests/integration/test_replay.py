"""Dispute replay and settlement audit against a real log (issue: settlement and replay).

This module runs a floor of its own (its own nats-server): ``sicbo replay verify`` reads the
WHOLE log, which must hold only what the floor's services wrote, plus, at the end, one table
whose settlement this test forges with the event store directly.

(b) the replay of a round equals its recorded settlement, for rounds of every profile, a "no
result" round of every policy, an invalidation with a forfeit and a corrected result;
(c) ``sicbo replay verify`` exits 0 on that log, and non-zero once a wrong settlement is in it.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import msgspec
import nats
import pytest
from nats.aio.client import Client as NATS

from sicbo.eventstore.records import Expect
from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo.provisioning import provision
from sicbo.replay.report import MATCH, round_report
from sicbo.settlement.engine import settle
from sicbo.settlement.facts import TableLog
from sicbo.settlement.settler import SETTLEMENT_ACTOR
from sicbo.shell.codec import encode
from sicbo_contracts.base import Actor, Limits, Role
from sicbo_contracts.dice import ResultConfirmed
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    RoundStarted,
    TableConfig,
    TableOpened,
)
from sicbo_contracts.settlement import RoundSettled, SettlementVoided, WagersSettled
from sicbo_contracts.subjects import EVENT_STREAM, Aggregate, round_filter, subject_of
from sicbo_contracts.wagers import (
    CarriedChoice,
    ChooseForCarriedSlip,
    IssueColorChecks,
    IssuePromoToken,
    Medium,
    SlipPlaced,
    Wager,
)
from tests.integration.conftest import DEALER, OPERATOR, Floor, new_id
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    correct,
    invalidate,
    no_result,
    ok,
    open_round,
    open_table,
    place,
    play,
    random_wagers,
    settlement_of,
    wait_completed,
    wait_for,
)

PROFILES = ("cca-1992", "macau-2003", "macau-2004", "online-live")
#: One consequence of "no result" per profile's policy (000 §7.5; 002 art. 3(3)(4); 004).
POLICIES = {
    "cca-1992": "refund",
    "macau-2003": "carry-over-locked",
    "macau-2004": "player-choice",
    "online-live": "carry-over-locked",
}


class ReplayFloor:
    def __init__(self, floor: Floor, nc: NATS, store: EventStore) -> None:
        self.floor, self.nc, self.store = floor, nc, store
        self.url = floor.nats_url
        self.rounds: list[tuple[str, int]] = []  # every (table, round) played here


@pytest.fixture(scope="module")
async def rf(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[ReplayFloor]:
    tmp = tmp_path_factory.mktemp("replay-floor")
    with LocalNatsServer(tmp / "nats") as server:
        nc = await nats.connect(server.url)
        procs: list[ServiceProcess] = []
        try:
            (await provision(nc)).raise_for_conflicts()
            for service, replicas in (
                ("lifecycle", 1),
                ("dice", 1),
                ("wagers", 1),
                ("settlement", 2),
            ):
                for n in range(replicas):
                    log = tmp / f"{service}-{n}.log"
                    procs.append(ServiceProcess(service, server.url, log_path=log).start())
            for proc in procs:
                await proc.wait_ready()
            yield ReplayFloor(Floor(server.url, {}, tmp), nc, EventStore(nc, EVENT_STREAM))
        finally:
            for proc in procs:
                proc.stop()
            await nc.close()


async def replayed(rf: ReplayFloor, table: str, n: int) -> None:
    """The dispute replay of the round equals its recorded settlement, wager by wager."""
    await wait_completed(rf.store, table, n)
    rf.rounds.append((table, n))
    report = round_report(await rf.store.read(f"sicbo.evt.{table}.>"), table, n)
    assert report.status == MATCH, (
        report.problems,
        [w for w in report.wagers if w.status != MATCH],
    )
    assert report.problems == [] and report.pending_corrections == []
    assert all(w.status == MATCH for w in report.wagers)
    recorded = await settlement_of(rf.store, table, n)
    assert len(report.wagers) == len(recorded.results)
    assert report.returned == sum(r.returned for r in recorded.results) + sum(
        a.delta for a in recorded.adjustments
    )


def sicbo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sicbo.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


# ---- (b) dispute replay equals the recorded settlement --------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
async def test_replay_of_a_round_of_every_profile(rf: ReplayFloor, profile: str) -> None:
    table = f"p-{profile}"
    rng = random.Random(profile)
    await open_table(rf.floor, rf.nc, table, profile)
    await ok(
        rf.floor,
        rf.nc,
        IssueColorChecks(
            command_id=new_id(),
            table=table,
            actor=DEALER,
            player="cat",
            color="red",
            marker_value=50,
            count=100,
        ),
    )
    for n in (1, 2):
        slips = [(f"p{i}", random_wagers(profile, 12, rng)) for i in range(10)]
        tokens = [f"tk-{n}-a", f"tk-{n}-b"]  # 000 §1.1: issued by the operator, used once
        for token in tokens:
            await ok(
                rf.floor,
                rf.nc,
                IssuePromoToken(
                    command_id=new_id(),
                    table=table,
                    actor=OPERATOR,
                    token=token,
                    player="tok",
                    amount=100,
                ),
            )
        slips.append(
            (
                "tok",
                [
                    Wager(bet="big", stake=100, medium=Medium.PROMO, token=tokens[0]),
                    Wager(bet="small", stake=100, medium=Medium.PROMO, token=tokens[1]),
                ],
            )
        )
        slips.append(("cat", [Wager(bet="big", stake=150, medium=Medium.COLOR, color="red")]))
        await play(rf.floor, rf.nc, table, n, slips, (rng.randint(1, 6), 4, rng.randint(1, 6)))
        await replayed(rf, table, n)


@pytest.mark.parametrize("profile", PROFILES)
async def test_replay_of_a_no_result_round_of_every_policy(rf: ReplayFloor, profile: str) -> None:
    """The void round (refunded or carried) and the re-run that settles what was carried."""
    table = f"nr-{profile}"
    await open_table(rf.floor, rf.nc, table, profile)
    await open_round(rf.floor, rf.nc, table, 1)
    kept = await place(rf.floor, rf.nc, table, 1, "ann", [Wager(bet="big", stake=200)])
    changed = await place(rf.floor, rf.nc, table, 1, "bob", [Wager(bet="small", stake=300)])
    await close_and_uncover(rf.floor, rf.nc, table, 1)
    await no_result(rf.floor, rf.nc, table, 1)
    await replayed(rf, table, 1)
    first = await settlement_of(rf.store, table, 1)
    assert first.summaries[0].consequence == POLICIES[profile]
    await open_round(rf.floor, rf.nc, table, 2)
    if POLICIES[profile] == "player-choice":  # 002/2004 art. 3(4): reduced, or kept
        await ok(
            rf.floor,
            rf.nc,
            ChooseForCarriedSlip(
                command_id=new_id(),
                table=table,
                actor=Actor(id="bob", role=Role.PLAYER),
                round=2,
                player="bob",
                slip_id=changed,
                choice=CarriedChoice.CHANGE,
                wagers=[Wager(bet="small", stake=100)],
            ),
        )
    await place(rf.floor, rf.nc, table, 2, "cat", [Wager(bet="total:11", stake=100)])
    await close_and_uncover(rf.floor, rf.nc, table, 2)
    await confirm(rf.floor, rf.nc, table, 2, (5, 4, 2))
    await replayed(rf, table, 2)
    rerun = await settlement_of(rf.store, table, 2)
    carried = {r.slip_id for r in rerun.results if r.carried_in}
    if POLICIES[profile] == "refund":
        assert carried == set() and [r.outcome for r in first.results] == ["void", "void"]
    else:
        assert carried == {kept, changed}
        assert {r.outcome for r in first.results} == {"carried"}


async def test_replay_of_an_invalidation_with_a_forfeit(rf: ReplayFloor) -> None:
    table = "inv-cca"
    await open_table(rf.floor, rf.nc, table, "cca-1992")
    await open_round(rf.floor, rf.nc, table, 1)
    await place(rf.floor, rf.nc, table, 1, "ann", [Wager(bet="big", stake=200)])
    await place(
        rf.floor,
        rf.nc,
        table,
        1,
        "eve",
        [Wager(bet="triple:6", stake=500), Wager(bet="any-triple", stake=100)],
    )
    await close_and_uncover(rf.floor, rf.nc, table, 1)
    await confirm(rf.floor, rf.nc, table, 1, (6, 6, 6))
    await wait_completed(rf.store, table, 1)
    # 000 §8.4 after the round was paid: the supervisor invalidates its outcome for eve's
    # fraud; settlement compensates what the dice paid (000 §8.5: ann refunded, eve forfeits).
    await invalidate(rf.floor, rf.nc, table, 1, "eve")
    settle_filter = round_filter(table, Aggregate.SETTLE, 1)
    stored_void = await wait_for(rf.store, settle_filter, "settle-voided-v1")
    void = msgspec.json.decode(stored_void.data, type=SettlementVoided)
    assert sorted((a.player, a.after.outcome, a.after.returned) for a in void.adjustments) == [
        ("ann", "void", 200),
        ("eve", "forfeit", 0),
        ("eve", "forfeit", 0),
    ]
    lifecycle = await rf.store.read(round_filter(table, Aggregate.LIFECYCLE, 1))
    [invalidated] = [e for e in lifecycle if e.subject.endswith("round-invalidated-v1")]
    assert void.cancel_seq == invalidated.seq
    report = round_report(await rf.store.read(f"sicbo.evt.{table}.>"), table, 1)
    assert report.status == MATCH and report.problems == [], report.problems
    assert report.voided_by == invalidated.seq and report.returned == 200
    rf.rounds.append((table, 1))
    await open_round(rf.floor, rf.nc, table, 2)
    await place(rf.floor, rf.nc, table, 2, "ann", [Wager(bet="big", stake=200)])
    await place(rf.floor, rf.nc, table, 2, "eve", [Wager(bet="triple:6", stake=500)])
    await close_and_uncover(rf.floor, rf.nc, table, 2)
    await invalidate(rf.floor, rf.nc, table, 2, "eve")  # before any result: surely settled void
    await replayed(rf, table, 2)
    got = await settlement_of(rf.store, table, 2)
    assert [(r.player, r.outcome, r.returned) for r in got.results] == [
        ("ann", "void", 200),
        ("eve", "forfeit", 0),
    ]


async def test_replay_of_a_corrected_round(rf: ReplayFloor) -> None:
    table = "corr-cca"
    rng = random.Random(5)
    await open_table(rf.floor, rf.nc, table, "cca-1992")
    slips = [(f"p{i}", random_wagers("cca-1992", 20, rng)) for i in range(10)]
    await play(rf.floor, rf.nc, table, 1, slips, (2, 5, 5))
    await wait_completed(rf.store, table, 1)
    await correct(rf.floor, rf.nc, table, 1, (2, 5, 6))
    await wait_for(rf.store, round_filter(table, Aggregate.SETTLE, 1), "settle-adjusted-v1")
    await replayed(rf, table, 1)
    report = round_report(await rf.store.read(f"sicbo.evt.{table}.>"), table, 1)
    assert report.dice == (2, 5, 5) and report.final_dice == (2, 5, 6)
    assert any(w.adjusted for w in report.wagers)


async def test_replay_of_an_earlier_round_corrected_after_later_rounds_gli_19_4_18_4(
    rf: ReplayFloor,
) -> None:
    """Round 1 corrected in manual mode after rounds 2 and 3 were played and paid: its replay
    MATCHes, and the later rounds' too (verify below checks the whole log, manual mode in it)."""
    table = "corr-early"
    rng = random.Random(7)
    await open_table(rf.floor, rf.nc, table, "cca-1992")
    for n, dice in ((1, (2, 5, 5)), (2, (1, 1, 3)), (3, (4, 4, 6))):
        slips = [(f"p{i}", random_wagers("cca-1992", 10, rng)) for i in range(5)]
        await play(rf.floor, rf.nc, table, n, slips, dice)
        await wait_completed(rf.store, table, n)
    await correct(rf.floor, rf.nc, table, 1, (2, 5, 6))
    await wait_for(rf.store, round_filter(table, Aggregate.SETTLE, 1), "settle-adjusted-v1")
    for n in (1, 2, 3):
        await replayed(rf, table, n)
    report = round_report(await rf.store.read(f"sicbo.evt.{table}.>"), table, 1)
    assert report.dice == (2, 5, 5) and report.final_dice == (2, 5, 6)
    assert any(w.adjusted for w in report.wagers)


async def test_replay_round_command_prints_the_report(rf: ReplayFloor) -> None:
    table, n = rf.rounds[0]
    as_json = sicbo("replay", "round", table, str(n), "--json", "--nats", rf.url)
    assert as_json.returncode == 0, as_json.stderr
    report = json.loads(as_json.stdout)
    assert report["status"] == MATCH and report["wagers"] and report["history"]
    assert {
        "slip_id",
        "player",
        "bet",
        "stake",
        "medium",
        "outcome",
        "recorded",
        "recomputed",
        "status",
    } <= set(report["wagers"][0])
    table_view = sicbo("replay", "round", table, str(n), "--nats", rf.url)
    assert table_view.returncode == 0 and "MATCH" in table_view.stdout
    missing = sicbo("replay", "round", table, "999", "--nats", rf.url)
    assert missing.returncode == 2


# ---- (c) the audit of the whole log ------------------------------------------------------------


async def forge_wrong_settlement(store: EventStore, table: str) -> None:
    """A fresh table's round, stored with the event store, settled with a wager overpaid.

    The round's events and the forged settlement are one atomic batch, so the settlement
    service sees the confirmed result only once the (wrong) settlement exists: it leaves it as
    it is (a round is settled once) and only completes the round. ``as_of`` is left 0: replay
    then folds the log up to the settlement's first message."""
    at = datetime.now(UTC)
    dealer = Actor(id="dealer-9", role=Role.DEALER)
    config = TableConfig(profile="cca-1992", limits=Limits(minimum=100, maximum=100_000))
    lc = [
        TableOpened(table=table, actor=OPERATOR, at=at, config=config, paytable="cca-1992@v1"),
        RoundStarted(table=table, actor=dealer, at=at, round=1, tumbles=3, paytable="cca-1992@v1"),
        BettingOpened(table=table, actor=dealer, at=at, round=1),
    ]
    slip = SlipPlaced(
        table=table,
        actor=Actor(id="mallory", role=Role.PLAYER),
        at=at,
        round=1,
        slip_id="forged-1",
        player="mallory",
        wagers=[Wager(bet="big", stake=1000), Wager(bet="triple:1", stake=100)],
    )
    result = [
        BettingClosed(table=table, actor=dealer, at=at, round=1),
        ResultConfirmed(
            table=table,
            actor=dealer,
            at=at,
            round=1,
            dice=(1, 2, 3),
            total=6,
            entered_by="dealer-9",
        ),
    ]
    table_log = TableLog(table)
    for seq, event in enumerate([*lc, slip, *result], start=1):
        table_log.add(seq, event)
    facts = table_log.facts(1)
    assert facts is not None
    honest = settle(facts, actor=SETTLEMENT_ACTOR, at=at)
    part = honest[0]
    assert isinstance(part, WagersSettled) and isinstance(honest[-1], RoundSettled)
    big = part.wagers[0]  # big loses on 1-2-3 ... recorded as a win
    forged_wager = msgspec.structs.replace(big, outcome="win", winnings=1000, returned=2000)
    forged = [
        msgspec.structs.replace(part, wagers=[forged_wager, *part.wagers[1:]]),
        msgspec.structs.replace(honest[-1], returned=2000, house_result=-900, as_of=0),
    ]
    items = [(subject_of(e, Aggregate.LIFECYCLE), encode(e)) for e in lc]
    items.append((subject_of(slip, Aggregate.BETS), encode(slip)))
    items += [(subject_of(e, Aggregate.LIFECYCLE), encode(e)) for e in result]
    items += [(subject_of(e, Aggregate.SETTLE), encode(e)) for e in forged]
    await store.append_batch(items, expect=Expect(f"sicbo.evt.{table}.>", 0))


async def test_verify_passes_on_the_log_then_fails_on_a_forged_settlement(rf: ReplayFloor) -> None:
    assert len(rf.rounds) >= 10  # the rounds of the tests above, all completed
    passed = sicbo("replay", "verify", "--nats", rf.url)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "0 mismatched rounds" in passed.stdout and "wagers/s" in passed.stdout
    assert "MISMATCH" not in passed.stdout
    since = sicbo("replay", "verify", "--since", datetime.now(UTC).isoformat(), "--nats", rf.url)
    assert since.returncode == 0 and "verified 0 rounds" in since.stdout

    await forge_wrong_settlement(rf.store, "forged")
    await wait_completed(rf.store, "forged", 1)  # completed, not settled again
    assert len((await settlement_of(rf.store, "forged", 1)).summaries) == 1
    failed = sicbo("replay", "verify", "--nats", rf.url)
    assert failed.returncode == 1, failed.stdout
    assert "MISMATCH forged round 1" in failed.stdout
    assert "wager forged-1#0: recorded 2000 (settled 2000), recomputed 0" in failed.stdout
    one_table = sicbo("replay", "verify", "--table", rf.rounds[0][0], "--nats", rf.url)
    assert one_table.returncode == 0, one_table.stdout
    disputed = sicbo("replay", "round", "forged", "1", "--json", "--nats", rf.url)
    assert disputed.returncode == 1
    assert json.loads(disputed.stdout)["status"] == "MISMATCH"
