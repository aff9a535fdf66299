"""evolve/fold: the state follows the round's phases from the lifecycle events."""

from sicbo.dice.state import DiceState, Entry, Phase, RoundState, evolve, initial_state
from tests.support.common import DEALER, TABLE, Fact
from tests.support.dice import confirmed, current, entered, given, next_round, uncovered_round
from tests.support.lifecycle import (
    betting_closed,
    betting_opened,
    fault_cleared,
    round_started,
    suspended,
    table_opened,
    uncovered,
)


def test_initial_state_knows_only_the_table() -> None:
    assert initial_state(TABLE) == DiceState(table=TABLE)


def test_the_phase_follows_the_round_000_5_1_to_5_2() -> None:
    state = given([table_opened()])
    phases = []
    events: list[Fact] = [round_started(), betting_opened(), betting_closed(), uncovered()]
    for event in events:
        state = evolve(state, event)
        assert state.round is not None
        phases.append(state.round.phase)
    assert phases == [Phase.STARTED, Phase.BETTING_OPEN, Phase.BETTING_CLOSED, Phase.UNCOVERED]


def test_table_config_second_person_confirmation_is_taken_from_table_opened() -> None:
    assert given([table_opened(second_person_confirmation=True)]).second_person_confirmation
    assert not given([table_opened()]).second_person_confirmation


def test_a_new_round_starts_clean() -> None:
    history = [*uncovered_round(1), entered((1, 2, 3)), confirmed((1, 2, 3)), *next_round(2)]
    assert given(history).round == RoundState(number=2, phase=Phase.UNCOVERED)


def test_events_of_another_round_change_nothing() -> None:
    state = given(uncovered_round(2))
    assert evolve(state, entered((1, 2, 3), 1)) == state


def test_suspension_and_fault_clearance_are_tracked() -> None:
    assert given([*uncovered_round(), suspended()]).suspended
    assert not given([*uncovered_round(), suspended(), fault_cleared()]).suspended


def test_the_entry_records_who_pressed_the_buttons() -> None:
    entry = current([*uncovered_round(), entered((3, 2, 1))]).entry
    assert entry == Entry(dice=(3, 2, 1), by=DEALER.id)


def test_a_round_started_again_leaves_the_round_in_play() -> None:
    """A start of a round already started (forged into the log) neither ends the round being
    played nor makes an old one current: its dice are still entered."""
    history: list[Fact] = [
        table_opened(),
        round_started(3),
        betting_opened(3),
        betting_closed(3),
        uncovered(3),
    ]
    playing = given(history)
    for again in (1, 3):
        assert given([*history, round_started(again)]) == playing
    assert playing.round is not None and playing.round.number == 3
