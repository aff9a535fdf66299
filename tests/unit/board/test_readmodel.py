"""The per-table read model: dedupe, incremental folding, what it must hold, what it forgets."""

import random

from sicbo.board.readmodel import MARGIN, TableReadModel
from tests.support.common import TABLE
from tests.support.floor import Floor
from tests.support.wagers import chips


def busy_table(rounds: int, seed: int = 3) -> Floor:
    rng = random.Random(seed)
    floor = Floor("online-live")
    for _ in range(rounds):
        slips = [(f"p{rng.randrange(5)}", [chips(rng.choice(["big", "small", "odd"]), 100)])]
        roll = rng.random()
        if roll < 0.1:
            floor.no_result(slips, consequence="carry-over-locked")
        elif roll < 0.15:
            floor.cancelled(slips)
        else:
            n = floor.result((rng.randint(1, 6), rng.randint(1, 6), rng.randint(1, 6)), slips)
            if roll > 0.95:
                floor.correct(n, floor.log.facts(n).dice, (6, 6, 6))  # type: ignore[arg-type]
    return floor


def test_an_event_read_twice_is_held_once() -> None:
    floor = busy_table(5)
    stored = floor.stored()
    model = TableReadModel.of_log(TABLE, stored)
    again = TableReadModel.of_log(TABLE, stored + stored[3:10])
    assert again.stats() == model.stats() and again.recall() == model.recall()


def test_folding_in_pieces_equals_folding_the_whole_log() -> None:
    floor = busy_table(70)
    stored = floor.stored()
    whole = TableReadModel.of_log(TABLE, stored)
    model = TableReadModel(TABLE)
    for start in range(0, len(stored), 37):
        model.extend(stored[start : start + 37])
        model.stats()
        model.recall()  # folds memoised mid-way must not stick
    assert model.stats() == whole.stats() and model.recall() == whole.recall()
    assert model.mark == stored[-1].seq


def test_more_history_is_missing_while_fewer_than_50_results_are_held() -> None:
    floor = busy_table(70)
    stored = floor.stored()
    assert not TableReadModel.of_log(TABLE, stored).missing()
    recent = TableReadModel(TABLE, lowest=40, full_from=40)
    recent.extend(stored)
    assert recent.missing()  # rounds 40..70 hold fewer than 50 results, and older ones exist


def test_recall_is_missing_rounds_held_without_their_bets() -> None:
    floor = busy_table(70)
    model = TableReadModel(TABLE, lowest=1, full_from=65)
    model.extend(floor.stored())
    assert model.missing()  # the last 10 rounds with an outcome start before round 65


def test_trim_keeps_every_round_an_answer_needs() -> None:
    floor = busy_table(120)
    model = TableReadModel.of_log(TABLE, floor.stored())
    stats, recall = model.stats(), model.recall()
    model.trim()
    oldest = stats.results[0].round
    assert model.lowest == oldest - MARGIN == model.rounds()[0]
    assert model.stats() == stats and model.recall() == recall and not model.missing()
    # A round forgotten is never brought back by a late event of it.
    model.extend(floor.stored())
    assert model.rounds()[0] == model.lowest


def test_the_void_rounds_carried_into_a_round_are_its_chain() -> None:
    floor = Floor("online-live")
    floor.result((1, 2, 3))
    first = floor.no_result([("ann", [chips("big", 100)])], consequence="carry-over-locked")
    second = floor.no_result(consequence="carry-over-locked")
    rerun = floor.result((4, 5, 6))
    model = TableReadModel.of_log(TABLE, floor.stored())
    assert model.chain(rerun) == [first, second, rerun]
    assert model.chain(first) == [first]
    (carried,) = model.recall().rounds[-1].wagers
    assert (carried.player, carried.carried_in) == ("ann", True)
