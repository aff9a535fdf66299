"""The statistics board (004 "the previous 50 rounds"): counts by each profile's rules."""

import pytest

from sicbo.board.readmodel import TableReadModel
from sicbo.board.stats import BOARD_BETS, round_line, wins
from sicbo.game.bets import parse_bet
from sicbo.game.dice import all_rolls
from sicbo.game.evaluation import pay_for
from sicbo.game.profiles import PROFILE_IDS, load_paytable
from sicbo_contracts.board import BoardVoid, StatsBoard
from sicbo_contracts.settlement import SettlementBasis
from tests.support.common import TABLE
from tests.support.floor import Floor
from tests.support.wagers import chips

#: small 6 even | big 15 odd | triple 6 | big 17 odd | small 4 even | triple 9
SEQUENCE = [(1, 2, 3), (4, 5, 6), (2, 2, 2), (6, 6, 5), (1, 1, 2), (3, 3, 3)]


def board_of(floor: Floor, limit: int = 50) -> StatsBoard:
    return TableReadModel.of_log(TABLE, floor.stored()).stats(limit)


def played(profile: str, sequence: list[tuple[int, int, int]] = SEQUENCE) -> Floor:
    floor = Floor(profile)
    for dice in sequence:
        floor.result(dice, [("ann", [chips("big", 100)])])
    return floor


def counts(board: StatsBoard) -> tuple[int, int, int, int, int]:
    return board.big, board.small, board.odd, board.even, board.triples


def test_online_live_a_triple_is_neither_big_small_odd_nor_even_004() -> None:
    board = board_of(played("online-live"))
    assert counts(board) == (2, 2, 2, 2, 2)
    triples = [r for r in board.results if r.triple]
    assert [(r.dice, r.big, r.small, r.odd, r.even) for r in triples] == [
        ((2, 2, 2), False, False, False, False),
        ((3, 3, 3), False, False, False, False),
    ]


def test_macau_2004_odd_and_even_stand_on_a_triple_002_2004_art_7() -> None:
    board = board_of(played("macau-2004"))
    # big/small still lose on a triple; 2-2-2 is even and 3-3-3 odd by the article's text.
    assert counts(board) == (2, 2, 3, 3, 2)
    by_round = {r.round: r for r in board.results}
    assert (by_round[3].even, by_round[3].odd, by_round[3].small) == (True, False, False)
    assert (by_round[6].odd, by_round[6].even, by_round[6].big) == (True, False, False)


@pytest.mark.parametrize("profile", ["cca-1992", "macau-2003"])
def test_profiles_without_odd_even_show_the_parity_of_the_total(profile: str) -> None:
    board = board_of(played(profile))
    assert counts(board) == (2, 2, 3, 3, 2)


@pytest.mark.parametrize("profile", PROFILE_IDS)
def test_the_board_agrees_with_the_game_library_on_every_roll(profile: str) -> None:
    paytable = load_paytable(profile)
    for roll in all_rolls():
        for kind in BOARD_BETS:
            bet = parse_bet(kind.value)
            if paytable.offers(bet):
                assert wins(paytable, bet, roll) == (pay_for(paytable, bet, roll) is not None)


def test_results_in_order_with_histogram_and_faces() -> None:
    board = board_of(played("online-live"))
    assert [r.round for r in board.results] == [1, 2, 3, 4, 5, 6]
    assert [r.dice for r in board.results] == [tuple(sorted(d)) for d in SEQUENCE]
    assert [r.total for r in board.results] == [6, 15, 6, 17, 4, 9]
    assert list(board.totals) == list(range(3, 19))
    assert {t: c for t, c in board.totals.items() if c} == {4: 1, 6: 2, 9: 1, 15: 1, 17: 1}
    assert board.faces == {1: 3, 2: 5, 3: 4, 4: 1, 5: 2, 6: 3}
    assert sum(board.faces.values()) == 3 * len(board.results)
    assert all(r.paytable == "online-live@v1" for r in board.results)


def test_the_window_is_the_last_50_results_and_the_voids_since_its_oldest() -> None:
    floor = Floor("cca-1992")
    for n in range(1, 61):
        if n in (5, 30, 55):
            floor.no_result([("ann", [chips("big", 100)])])
        else:
            floor.result(((n % 6) + 1, 2, 3))
    board = board_of(floor)
    assert len(board.results) == 50 and board.limit == 50
    rounds = [r.round for r in board.results]
    # 57 results (rounds 5, 30 and 55 were void): the last 50 start at round 9.
    assert rounds == [n for n in range(9, 61) if n not in (30, 55)]
    assert [(v.round, v.basis) for v in board.voids] == [
        (30, SettlementBasis.NO_RESULT),
        (55, SettlementBasis.NO_RESULT),
    ]
    assert board.voids[0].reason == "dice-not-flat"
    assert sum(board.totals.values()) == 50
    smaller = board_of(floor, limit=5)
    assert [r.round for r in smaller.results] == [56, 57, 58, 59, 60]
    assert smaller.voids == []


def test_fewer_results_than_the_limit_lists_every_void() -> None:
    floor = Floor("cca-1992")
    floor.no_result()
    floor.result((1, 1, 1))
    floor.invalidated([("eve", [chips("triple:6", 100)])], "eve")
    floor.cancelled()
    board = board_of(floor)
    assert [r.round for r in board.results] == [2]
    assert board.voids == [
        BoardVoid(round=1, basis=SettlementBasis.NO_RESULT, reason="dice-not-flat"),
        BoardVoid(round=3, basis=SettlementBasis.INVALIDATED, reason="fraud"),
        BoardVoid(round=4, basis=SettlementBasis.CANCELLED, reason="no quick fix"),
    ]


def test_a_corrected_result_counts_with_its_corrected_dice() -> None:
    floor = Floor("cca-1992")
    n = floor.result((5, 5, 4), [("ann", [chips("single:6", 100)])])
    floor.correct(n, (5, 5, 4), (6, 5, 4))
    board = board_of(floor)
    (result,) = board.results
    assert (result.dice, result.total, result.big, result.corrected) == ((4, 5, 6), 15, True, True)
    assert board.faces[6] == 1 and board.totals[14] == 0 and board.totals[15] == 1


def test_a_result_invalidated_before_completion_is_void_000_8_4() -> None:
    floor = Floor("cca-1992")
    n = floor.result((6, 6, 6), settle=False)
    floor.log.invalidate(n)
    board = board_of(floor)
    assert board.results == [] and board.triples == 0
    assert [(v.round, v.basis) for v in board.voids] == [(n, SettlementBasis.INVALIDATED)]


def test_a_result_cancelled_after_settlement_is_void_004() -> None:
    floor = Floor("online-live")
    n = floor.result((1, 2, 4), [("ann", [chips("small", 100)])])
    floor.cancel_after_result(n)
    board = board_of(floor)
    assert board.results == []
    assert board.voids == [
        BoardVoid(round=n, basis=SettlementBasis.CANCELLED, reason="no quick fix")
    ]


def test_a_round_being_played_is_not_on_the_board() -> None:
    floor = played("online-live", [(1, 2, 3)])
    floor.in_progress([("ann", [chips("big", 100)])])
    board = board_of(floor)
    assert [r.round for r in board.results] == [1] and board.voids == []


def test_a_round_line_folds_only_its_own_round() -> None:
    floor = played("cca-1992", [(1, 2, 3), (4, 5, 6)])
    line = round_line(TABLE, 2, floor.stored())
    assert line is not None
    assert (line.round, line.dice, line.basis, line.paytable) == (
        2,
        (4, 5, 6),
        SettlementBasis.RESULT,
        "cca-1992@v1",
    )
    assert round_line(TABLE, 3, floor.stored()) is None


def test_an_empty_table_has_an_empty_board() -> None:
    board = TableReadModel(TABLE).stats()
    assert board.results == [] and board.voids == [] and counts(board) == (0, 0, 0, 0, 0)
    assert set(board.totals.values()) == {0} and set(board.faces.values()) == {0}
