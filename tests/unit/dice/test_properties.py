"""Properties of the dice capture decider over every result (hypothesis)."""

from hypothesis import given as for_all
from hypothesis import strategies as st

from sicbo_contracts.base import Dice
from sicbo_contracts.dice import DiceEntered
from tests.support.dice import confirm, confirmed, dice_read, enter, entered, uncovered_round, when

dice = st.tuples(st.integers(1, 6), st.integers(1, 6), st.integers(1, 6))


def _permute(d: Dice, order: list[int]) -> Dice:
    return (d[order[0]], d[order[1]], d[order[2]])


@for_all(dice, st.permutations(range(3)))
def test_any_order_of_the_same_dice_is_announced_the_same_000_5_3(
    d: Dice, order: list[int]
) -> None:
    """000 §5.3: the announcement is lowest to highest and the total, whatever the order the
    buttons were pressed in; the echo is what was pressed."""
    shuffled = _permute(d, order)
    [first] = when(uncovered_round(), enter(d))
    [second] = when(uncovered_round(), enter(shuffled))
    assert isinstance(first, DiceEntered) and isinstance(second, DiceEntered)
    assert first.announced == second.announced == tuple(sorted(d))
    assert first.total == second.total == sum(d)
    assert second.dice == shuffled


@for_all(dice, st.permutations(range(3)))
def test_a_reading_in_any_order_of_the_entered_dice_agrees(d: Dice, order: list[int]) -> None:
    """Results are multisets: the reader's order never holds a round."""
    history = [*uncovered_round(), dice_read(_permute(d, order)), entered(d)]
    assert when(history, confirm()) == [confirmed(d)]
