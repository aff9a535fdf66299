"""The statistics board (004) and game recall (AGCO 13.1) through the board service, against
the real server: rounds played by the floor's services, then asked for on
``sicbo.qry.<table>.stats`` and ``sicbo.qry.<table>.recall``."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import msgspec
import pytest
from nats.aio.client import Client as NATS

from sicbo.board.readmodel import TableReadModel
from sicbo.eventstore.store import EventStore
from sicbo_contracts.board import BoardVoid, Recall, StatsBoard
from sicbo_contracts.replies import Rejected
from sicbo_contracts.settlement import SettlementBasis, WagerOutcome
from sicbo_contracts.subjects import Aggregate, recall_query, round_filter, stats_query
from sicbo_contracts.wagers import Wager
from tests.integration.conftest import Floor
from tests.integration.test_settlement import (
    close_and_uncover,
    correct,
    invalidate,
    no_result,
    open_round,
    open_table,
    place,
    play,
    wait_completed,
    wait_for,
)

Out = WagerOutcome


async def ask(nc: NATS, subject: str, query: bytes, answer: Any) -> Any:
    msg = await nc.request(subject, query, timeout=10)
    return msgspec.json.decode(msg.data, type=answer | Rejected)


async def stats(nc: NATS, table: str, query: bytes = b"{}") -> StatsBoard:
    got = await ask(nc, stats_query(table), query, StatsBoard)
    assert isinstance(got, StatsBoard), got
    return got


async def recall(nc: NATS, table: str, query: bytes = b"{}") -> Recall:
    got = await ask(nc, recall_query(table), query, Recall)
    assert isinstance(got, Recall), got
    return got


async def void_round(
    floor: Floor, nc: NATS, table: str, n: int, slips: list[tuple[str, list[Wager]]]
) -> None:
    await open_round(floor, nc, table, n)
    for player, wagers in slips:
        await place(floor, nc, table, n, player, wagers)
    await close_and_uncover(floor, nc, table, n)


async def played_cca_table(floor: Floor, nc: NATS, store: EventStore, table: str) -> int:
    """Five rounds of cca-1992: a result, a no result, a triple, a corrected result, a round
    invalidated for fraud. Returns the correction's stream sequence."""
    await open_table(floor, nc, table, "cca-1992")
    await play(
        floor,
        nc,
        table,
        1,
        [("ann", [Wager(bet="big", stake=200)]), ("bob", [Wager(bet="small", stake=300)])],
        (6, 4, 5),
    )
    await wait_completed(store, table, 1)
    await void_round(floor, nc, table, 2, [("ann", [Wager(bet="big", stake=200)])])
    await no_result(floor, nc, table, 2)
    await wait_completed(store, table, 2)
    await play(floor, nc, table, 3, [("eve", [Wager(bet="any-triple", stake=100)])], (2, 2, 2))
    await wait_completed(store, table, 3)
    slips = [
        ("ann", [Wager(bet="single:5", stake=100), Wager(bet="total:15", stake=100)]),
        ("bob", [Wager(bet="single:6", stake=100)]),
    ]
    await play(floor, nc, table, 4, slips, (5, 5, 4))
    await wait_completed(store, table, 4)
    await correct(floor, nc, table, 4, (6, 5, 4))
    corrected = await wait_for(
        store, round_filter(table, Aggregate.LIFECYCLE, 4), "result-corrected-v1"
    )
    await wait_for(store, round_filter(table, Aggregate.SETTLE, 4), "settle-adjusted-v1")
    await void_round(
        floor,
        nc,
        table,
        5,
        [("ann", [Wager(bet="big", stake=100)]), ("eve", [Wager(bet="triple:6", stake=100)])],
    )
    await invalidate(floor, nc, table, 5, "eve")
    await wait_completed(store, table, 5)
    return corrected.seq


async def test_the_board_and_recall_of_played_rounds(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    correction_seq = await played_cca_table(floor, nc, store, table_id)
    board = await stats(nc, table_id)
    assert [(r.round, r.dice, r.total, r.corrected) for r in board.results] == [
        (1, (4, 5, 6), 15, False),
        (3, (2, 2, 2), 6, False),
        (4, (4, 5, 6), 15, True),  # corrected from 4-5-5
    ]
    # cca-1992: a triple is neither big nor small (000 §3.1.1-2); odd/even show the parity.
    assert (board.big, board.small, board.odd, board.even, board.triples) == (2, 0, 2, 1, 1)
    assert {t: c for t, c in board.totals.items() if c} == {6: 1, 15: 2}
    assert board.faces == {1: 0, 2: 3, 3: 0, 4: 2, 5: 2, 6: 2}
    assert board.voids == [
        BoardVoid(round=2, basis=SettlementBasis.NO_RESULT, reason="dice-not-flat"),
        BoardVoid(round=5, basis=SettlementBasis.INVALIDATED, reason="fraud"),
    ]
    assert board.as_of >= correction_seq

    got = await recall(nc, table_id)
    assert [(r.round, r.basis) for r in got.rounds] == [
        (1, SettlementBasis.RESULT),
        (2, SettlementBasis.NO_RESULT),
        (3, SettlementBasis.RESULT),
        (4, SettlementBasis.RESULT),
        (5, SettlementBasis.INVALIDATED),
    ]
    first, void, triple, corrected, invalidated = got.rounds
    assert all(r.settled and r.completed for r in got.rounds)
    assert [(w.player, w.bet, w.stake, w.medium, w.outcome, w.returned) for w in first.wagers] == [
        ("ann", "big", 200, "chips", Out.WIN, 400),
        ("bob", "small", 300, "chips", Out.LOSE, 0),
    ]
    assert (first.staked, first.returned, first.house_result) == (500, 400, 100)
    assert void.void is not None and void.void.consequence == "refund"
    assert [(w.outcome, w.returned) for w in void.wagers] == [(Out.VOID, 200)]
    assert [(w.bet, w.outcome, w.returned) for w in triple.wagers] == [
        ("any-triple", Out.WIN, 100 + 31 * 100)
    ]
    assert (corrected.dice, corrected.final_dice) == ((4, 5, 5), (4, 5, 6))
    assert [(c.seq, c.before, c.after) for c in corrected.corrections] == [
        (correction_seq, (4, 5, 5), (4, 5, 6))
    ]
    (adjustment,) = corrected.adjustments
    assert (adjustment.correction_seq, adjustment.delta) == (correction_seq, 2000)
    assert [(w.bet, w.returned, w.final_returned) for w in corrected.wagers] == [
        ("single:5", 300, 200),
        ("total:15", 0, 1900),
        ("single:6", 0, 200),
    ]
    assert corrected.returned == 2300
    assert invalidated.void is not None and invalidated.void.forfeits == ["eve"]
    assert [(w.player, w.outcome, w.returned) for w in invalidated.wagers] == [
        ("ann", Out.VOID, 100),
        ("eve", Out.FORFEIT, 0),
    ]
    latest_two = await recall(nc, table_id, b'{"limit": 2}')
    assert latest_two.rounds == [corrected, invalidated]

    # The service catches up with a round played after the last answer.
    await play(floor, nc, table_id, 6, [], (1, 1, 2))
    await wait_completed(store, table_id, 6)
    later = await stats(nc, table_id)
    assert [r.round for r in later.results] == [1, 3, 4, 6] and later.as_of > board.as_of
    assert (later.small, later.even) == (1, 1 + 1)
    assert [r.round for r in (await recall(nc, table_id)).rounds] == [1, 2, 3, 4, 5, 6]


async def test_online_live_triples_and_carried_wagers(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "online-live")
    await play(floor, nc, table_id, 1, [("ann", [Wager(bet="odd", stake=100)])], (3, 3, 3))
    await wait_completed(store, table_id, 1)
    await void_round(floor, nc, table_id, 2, [("ann", [Wager(bet="big", stake=100)])])
    await no_result(floor, nc, table_id, 2)  # 004: re-shake, the wagers stay
    await wait_completed(store, table_id, 2)
    await play(floor, nc, table_id, 3, [("bob", [Wager(bet="small", stake=100)])], (6, 5, 4))
    await wait_completed(store, table_id, 3)
    board = await stats(nc, table_id)
    # 004: odd and even lose on a triple too.
    assert [(r.round, r.triple, r.odd, r.even) for r in board.results] == [
        (1, True, False, False),
        (3, False, True, False),
    ]
    assert (board.big, board.small, board.odd, board.even, board.triples) == (1, 0, 1, 0, 1)
    assert [(v.round, v.basis) for v in board.voids] == [(2, SettlementBasis.NO_RESULT)]
    got = await recall(nc, table_id)
    one, two, three = got.rounds
    assert [(w.outcome, w.returned) for w in one.wagers] == [(Out.LOSE, 0)]
    assert two.void is not None and two.void.consequence == "carry-over-locked"
    assert [(w.player, w.outcome) for w in two.wagers] == [("ann", Out.CARRIED)]
    assert [(w.player, w.carried_in, w.outcome, w.returned) for w in three.wagers] == [
        ("ann", True, Out.WIN, 200),
        ("bob", False, Out.LOSE, 0),
    ]


@pytest.mark.parametrize(
    ("kind", "query", "field", "words"),
    [
        ("stats", b'{"limit": 1', None, "malformed JSON"),
        ("stats", b"not json", None, "malformed JSON"),
        ("stats", b'{"limit": 5, "predict": true}', "$.predict", "unknown field `predict`"),
        ("stats", b'{"limit": 0}', "$.limit", ">= 1"),
        ("stats", b'{"limit": 51}', "$.limit", "<= 50"),
        ("recall", b'{"limit": 11}', "$.limit", "<= 10"),
        ("recall", b'{"limit": 1.5}', "$.limit", "Expected `int`"),
        ("recall", b'{"round": 3}', "$.round", "unknown field `round`"),
    ],
)
async def test_a_bad_query_gets_a_clear_error(
    floor: Floor, nc: NATS, table_id: str, kind: str, query: bytes, field: str | None, words: str
) -> None:
    subject = stats_query(table_id) if kind == "stats" else recall_query(table_id)
    got = await ask(nc, subject, query, StatsBoard if kind == "stats" else Recall)
    assert isinstance(got, Rejected), got
    assert got.code == "invalid" and got.field == field and words in got.reason, got.reason
    assert f"{kind} query" in got.reason


async def test_a_table_never_played_has_an_empty_board(
    floor: Floor, nc: NATS, table_id: str
) -> None:
    board = await stats(nc, table_id)
    assert board.results == [] and board.voids == [] and board.triples == 0
    assert (await recall(nc, table_id)).rounds == []


async def sicbo(floor: Floor, *args: str) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "sicbo.cli.main",
        *args,
        "--nats",
        floor.nats_url,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_the_cli_prints_the_board_and_the_recall(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    await open_table(floor, nc, table_id, "macau-2004")
    await play(floor, nc, table_id, 1, [("ann", [Wager(bet="even", stake=100)])], (2, 2, 2))
    await wait_completed(store, table_id, 1)
    code, out, _ = await sicbo(floor, "board", "stats", table_id, "--json")
    assert code == 0
    board = msgspec.json.decode(out, type=StatsBoard)
    # macau-2004 art. 7 names only big and small: 2-2-2 stands as even.
    assert [(r.dice, r.even, r.small) for r in board.results] == [((2, 2, 2), True, False)]
    code, out, _ = await sicbo(floor, "board", "stats", table_id)
    assert code == 0 and "big 0" in out and "triples 1" in out and "Past results only" in out
    code, out, _ = await sicbo(floor, "board", "recall", table_id, "--limit", "1")
    assert code == 0 and "round 1 (macau-2004@v1)" in out and "even" in out
    code, out, _ = await sicbo(floor, "board", "recall", table_id, "--json")
    assert code == 0
    (r,) = msgspec.json.decode(out, type=Recall).rounds
    assert [(w.bet, w.outcome, w.returned) for w in r.wagers] == [("even", Out.WIN, 200)]
    code, _, err = await sicbo(floor, "board", "stats", "not.a.table")
    assert code == 2 and "not a table id: 'not.a.table'" in err


async def test_a_long_table_shows_its_last_50_results_as_the_whole_log_does(
    floor: Floor, nc: NATS, store: EventStore, table_id: str
) -> None:
    """70 rounds, four of them void: the service loads the table from the lifecycle of its
    last 64 rounds and the histories recall needs, and answers what a fold of the whole log
    answers."""
    await open_table(floor, nc, table_id, "cca-1992")
    for n in range(1, 71):
        if n % 17 == 0:
            await void_round(floor, nc, table_id, n, [])
            await no_result(floor, nc, table_id, n)
        else:
            await play(floor, nc, table_id, n, [], ((n % 6) + 1, (n * 5) % 6 + 1, 3))
        await wait_completed(store, table_id, n)
    board = await stats(nc, table_id)
    whole = TableReadModel.of_log(table_id, await store.read(f"sicbo.evt.{table_id}.>"))
    assert board == whole.stats()
    assert len(board.results) == 50 and board.results[-1].round == 70
    assert [v.round for v in board.voids] == [34, 51, 68]
    assert await recall(nc, table_id) == whole.recall()
