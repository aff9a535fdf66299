"""``sicbo replay verify`` audits the log, not only the payouts (DESIGN.md "Replay and money").

Rounds are played by the session floor's services (separate processes, a real nats-server, no
accounts); then events are forged into that table's log with raw appends on the subjects an
attacker would pick, as a floor without accounts lets anyone do: a slip after "no more bets"
(000 §3.9) that settlement then pays, an event on a foreign aggregate, a round started while
the previous one is still in play (002 art. 4), a second settlement. The settlement of every
round still matches its recomputation; ``sicbo replay verify`` (run as a process) exits 1 and
names each forged event by its stream sequence.
"""

from __future__ import annotations

import json
import subprocess
import sys

import msgspec
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.replay.report import MATCH, round_report
from sicbo.shell.codec import encode
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.lifecycle import RoundStarted, SeatTaken
from sicbo_contracts.settlement import RoundSettled
from sicbo_contracts.subjects import Aggregate, round_filter, subject_of, table_filter
from sicbo_contracts.wagers import SlipPlaced, Wager
from tests.integration.conftest import DEALER, Floor
from tests.integration.test_settlement import (
    close_and_uncover,
    confirm,
    open_round,
    open_table,
    place,
    play,
    wait_completed,
    wait_for,
)


def sicbo(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sicbo.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


async def forge(store: EventStore, event: object, aggregate: Aggregate) -> int:
    """A raw append, no expectation, no msg id: what a floor without accounts lets through."""
    return (await store.append(subject_of(event, aggregate), encode(event))).seq


async def test_verify_names_each_event_forged_into_a_played_log(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    table = table_id
    await open_table(floor, nc, table, "cca-1992")
    for n in (1, 2):
        slips = [("ann", [Wager(bet="big", stake=200)]), ("bob", [Wager(bet="small", stake=300)])]
        await play(floor, nc, table, n, slips, (2, 3, 5))
        await wait_completed(store, table, n)
    clean = sicbo("replay", "verify", "--table", table, "--nats", floor.nats_url)
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "log invariants: none broken" in clean.stdout

    # (a) 000 §3.9: a slip stored after "no more bets"; settlement does not pay it.
    await open_round(floor, nc, table, 3)
    await place(floor, nc, table, 3, "ann", [Wager(bet="big", stake=200)])
    await close_and_uncover(floor, nc, table, 3)
    mallory = Actor(id="mallory", role=Role.PLAYER)
    stored = await store.read(round_filter(table, Aggregate.LIFECYCLE, 3))
    late_slip = SlipPlaced(
        table=table,
        actor=mallory,
        at=stored[-1].time,
        round=3,
        slip_id="forged-late",
        player="mallory",
        wagers=[Wager(bet="big", stake=5_000)],
    )
    late = await forge(store, late_slip, Aggregate.BETS)
    await confirm(floor, nc, table, 3, (4, 5, 6))
    await wait_completed(store, table, 3)
    paid = round_report(await store.read(table_filter(table)), table, 3)
    assert paid.status == MATCH and "forged-late" not in {w.slip_id for w in paid.wagers}
    assert {w.slip_id for w in paid.wagers}  # ann's slip is paid
    assert [f.seq for f in paid.invariants] == [late]

    # (b) a lifecycle event on the bets aggregate, where the lifecycle never reads it.
    seat = SeatTaken(table=table, actor=DEALER, at=stored[-1].time, player="eve", seat=3)
    foreign = await forge(store, seat, Aggregate.BETS)

    # (c) 002 art. 4: a round started while the previous one is still in play.
    await open_round(floor, nc, table, 4)
    early_start = RoundStarted(
        table=table, actor=DEALER, at=stored[-1].time, round=5, tumbles=3, paytable="cca-1992@v1"
    )
    early = await forge(store, early_start, Aggregate.LIFECYCLE)

    # (d) a second settlement of round 1 (a copy of its summary).
    summary = await wait_for(store, round_filter(table, Aggregate.SETTLE, 1), "round-settled-v1")
    again = msgspec.json.decode(summary.data, type=RoundSettled)
    second = await forge(store, again, Aggregate.SETTLE)

    failed = sicbo("replay", "verify", "--table", table, "--nats", floor.nats_url)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    out = failed.stdout
    assert f"VIOLATION seq {late} {table} round 3 (betting, bets.slip-placed.v1)" in out
    assert f"VIOLATION seq {foreign} {table} round 0 (subject, table.seat-taken.v1)" in out
    assert f"VIOLATION seq {early} {table} round 5 (round-order, round.started.v1)" in out
    assert f"VIOLATION seq {second} {table} round 1 (settlement, settle.round-settled.v1)" in out
    assert "round 4 is not completed" in out and "round 1 is settled again" in out
    assert "log invariants: 4 broken" in out

    as_json = sicbo("replay", "verify", "--table", table, "--json", "--nats", floor.nats_url)
    assert as_json.returncode == 1
    found = {(v["seq"], v["check"]) for v in json.loads(as_json.stdout)["violations"]}
    assert found == {
        (late, "betting"),
        (foreign, "subject"),
        (early, "round-order"),
        (second, "settlement"),
    }
    disputed = sicbo("replay", "round", table, "3", "--json", "--nats", floor.nats_url)
    assert disputed.returncode == 1
    report = json.loads(disputed.stdout)
    assert report["status"] == MATCH and [f["seq"] for f in report["invariants"]] == [late]
