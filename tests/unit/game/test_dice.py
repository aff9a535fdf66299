import pytest

from sicbo.game.dice import all_rolls, announcement, make_roll
from sicbo.game.errors import InvalidDice


def test_roll_is_sorted_and_announced_lowest_to_highest_000_5_3() -> None:
    roll = make_roll([6, 1, 4])
    assert roll == (1, 4, 6)
    assert announcement(roll) == "1 4 6, total 11"


def test_there_are_56_distinct_results() -> None:
    assert len(all_rolls()) == 56


@pytest.mark.parametrize(
    "values",
    [[0, 1, 2], [1, 2, 7], [1, 2], [1, 2, 3, 4], [1.0, 2, 3], [True, 2, 3], ["1", 2, 3], "123"],
)
def test_bad_dice_are_refused(values: object) -> None:
    with pytest.raises(InvalidDice):
        make_roll(values)  # type: ignore[arg-type]
