"""The board's queries over a log: bad queries, and reads bounded to the rounds needed."""

from typing import Any, cast

import msgspec
import pytest

from sicbo.board.queries import FIRST_READ, BoardQueries
from sicbo.board.readmodel import TableReadModel
from sicbo.eventstore.store import EventStore
from sicbo_contracts.board import Recall, StatsBoard
from sicbo_contracts.replies import Rejected
from tests.support.common import TABLE
from tests.support.floor import Floor
from tests.support.stream import FakeStore
from tests.support.wagers import chips


def queries(store: FakeStore) -> BoardQueries:
    return BoardQueries(cast(EventStore, store))


def long_table(rounds: int, *, void_every: int = 0) -> Floor:
    floor = Floor("cca-1992")
    for n in range(1, rounds + 1):
        slips = [("ann", [chips("big", 100)])]
        if void_every and n % void_every:
            floor.no_result(slips)
        else:
            floor.result(((n % 6) + 1, (n % 5) + 1, 3), slips)
    return floor


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        (b"{", None, "malformed JSON"),
        (b'{"limit": 10, "player": "ann"}', "$.player", "unknown field `player`"),
        (b'{"limit": 0}', "$.limit", "Expected `int` >= 1"),
        (b'{"limit": 51}', "$.limit", "Expected `int` <= 50"),
        (b'{"limit": "ten"}', "$.limit", "Expected `int`, got `str`"),
        (b"[]", "$", "Expected `object`"),
    ],
)
async def test_a_bad_stats_query_gets_a_clear_error(
    raw: bytes, field: str | None, words: str
) -> None:
    store = FakeStore([])
    got = await queries(store).stats(TABLE, raw)
    assert isinstance(got, Rejected) and got.code == "invalid"
    assert words in got.reason and got.field == field
    assert store.reads == [] and store.lookups == 0  # refused before reading anything


async def test_a_bad_recall_query_gets_a_clear_error() -> None:
    got = await queries(FakeStore([])).recall(TABLE, b'{"limit": 11}')
    assert isinstance(got, Rejected) and got.field == "$.limit"
    assert "<= 10" in got.reason and got.reason.startswith("invalid recall query")


async def test_a_table_that_is_no_table_id_is_refused() -> None:
    got = await queries(FakeStore([])).stats("a.b", b"{}")
    assert isinstance(got, Rejected) and got.code == "invalid" and "table id" in got.reason


async def test_an_empty_query_asks_for_the_full_board() -> None:
    floor = long_table(3)
    got = await queries(FakeStore(floor.stored())).stats(TABLE, b"")
    assert isinstance(got, StatsBoard) and got.limit == 50 and len(got.results) == 3


async def test_a_long_table_is_loaded_from_its_last_rounds_only() -> None:
    floor = long_table(300)
    store = FakeStore(floor.stored())
    board = await queries(store).stats(TABLE, b"{}")
    whole = TableReadModel.of_log(TABLE, floor.stored())
    assert board == whole.stats()
    lc, everything = store.reads
    # The lifecycle of the last 64 rounds, then every event from the 10th last round on.
    first_lc = min(e.seq for e in store.events if ".lc.237.round-started" in e.subject)
    first_all = min(e.seq for e in store.events if ".lc.291.round-started" in e.subject)
    assert lc[:2] == (f"sicbo.evt.{TABLE}.lc.>", first_lc - 1)
    assert everything[:2] == (f"sicbo.evt.{TABLE}.>", first_all - 1)
    assert FIRST_READ == 300 - 237 + 1


async def test_loading_reaches_further_back_while_voids_hide_the_results() -> None:
    floor = long_table(300, void_every=3)  # one round in three has a result
    store = FakeStore(floor.stored())
    board = await queries(store).stats(TABLE, b"{}")
    assert board == TableReadModel.of_log(TABLE, floor.stored()).stats()
    assert len(board.results) == 50
    lc_reads = [r for r in store.reads if r[0].endswith(".lc.>")]
    assert len(lc_reads) == 2  # 64 rounds hold 21 results; 256 hold 85


async def test_the_model_is_caught_up_with_what_the_log_gained() -> None:
    floor = long_table(30)
    store = FakeStore(floor.stored())
    board = queries(store)
    assert isinstance(await board.recall(TABLE, b"{}"), Recall)
    mark = floor.stored()[-1].seq
    n = floor.result((6, 6, 6), [("bob", [chips("any-triple", 100)])])
    floor.correct(3, (4, 4, 3), (1, 1, 1))  # a late correction of an old round
    store.extend(floor.stored())
    store.reads.clear()
    recall = await board.recall(TABLE, b'{"limit": 2}')
    stats = await board.stats(TABLE, b"{}")
    last = floor.stored()[-1].seq
    assert store.reads == [
        (f"sicbo.evt.{TABLE}.>", mark, last - mark),  # what the log gained, nothing older
        (f"sicbo.evt.{TABLE}.>", last, 0),
    ]
    assert isinstance(recall, Recall) and [r.round for r in recall.rounds] == [n - 1, n]
    assert isinstance(stats, StatsBoard)
    assert stats == TableReadModel.of_log(TABLE, floor.stored()).stats()
    assert stats.results[2].dice == (1, 1, 1) and stats.results[2].corrected


async def test_a_model_many_rounds_behind_is_loaded_again() -> None:
    floor = long_table(5)
    store = FakeStore(floor.stored())
    board = queries(store)
    await board.stats(TABLE, b"{}")
    for n in range(6, 30):
        floor.result((n % 6 + 1, 2, 2))
    store.extend(floor.stored())
    store.reads.clear()
    got = await board.stats(TABLE, b"{}")
    assert got == TableReadModel.of_log(TABLE, floor.stored()).stats()
    assert [r[0] for r in store.reads] == [f"sicbo.evt.{TABLE}.lc.>", f"sicbo.evt.{TABLE}.>"]


async def test_a_table_without_rounds_has_an_empty_board_then_fills() -> None:
    store = FakeStore([])
    board = queries(store)
    empty = await board.stats("nobody", b"{}")
    assert isinstance(empty, StatsBoard) and empty.results == [] and empty.as_of == 0
    floor = long_table(2)
    store.extend(floor.stored())
    got = await board.stats(TABLE, b"{}")
    assert isinstance(got, StatsBoard) and [r.round for r in got.results] == [1, 2]


async def test_the_store_being_down_is_unavailable_not_a_crash() -> None:
    class Down(FakeStore):
        async def last_sequence(self, filter_subject: str) -> int:
            from sicbo.eventstore.errors import StoreError

            raise StoreError("no Direct Get reply from SICBO")

    got: Any = await queries(Down([])).stats(TABLE, b"{}")
    assert isinstance(got, Rejected) and got.code == "unavailable"
    assert msgspec.json.decode(msgspec.json.encode(got))["type"] == "rejected.v1"


async def test_a_gap_in_the_rounds_does_not_take_the_board_down() -> None:
    """Rounds are numbered without gaps, unless a start far ahead was forged into the log
    (round 1000 after round 80: the lifecycle goes on from it, replay verify reports it): the
    board still answers, from the rounds there are."""
    floor = long_table(80)
    floor.next_round = 1000
    for n in range(12):
        floor.result(((n % 6) + 1, 2, 3), [("ann", [chips("small", 100)])])
    store = FakeStore(floor.stored())
    board = queries(store)
    stats = await board.stats(TABLE, b"{}")
    assert isinstance(stats, StatsBoard), stats
    assert stats == TableReadModel.of_log(TABLE, floor.stored()).stats()
    assert [r.round for r in stats.results][-3:] == [1009, 1010, 1011]
    recall = await board.recall(TABLE, b"{}")
    assert isinstance(recall, Recall), recall
    assert [r.round for r in recall.rounds] == list(range(1002, 1012))
    assert recall == TableReadModel.of_log(TABLE, floor.stored()).recall()
