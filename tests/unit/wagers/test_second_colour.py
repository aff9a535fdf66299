"""A second colour for one player (000 §3.8): "at the discretion of a game supervisor ...
provided that as a result, no other player is precluded from wagering with color checks".

The dealer issues a player's first colour (000 §3.7) and more of a colour they hold; only a
supervisor issues a further one, and only while the colours of the table's set left free
cover every seat whose player holds none (TableConfig.check_colors; docs/rules.md)."""

from sicbo_contracts.base import Role
from tests.support.common import DEALER, SUPERVISOR
from tests.support.lifecycle import table_opened
from tests.support.wagers import LIMITS, issue, issued, redeemed, refused, when


def _table(colors: int | None = 10, seats: int = 7) -> list[object]:
    return [table_opened(limits=LIMITS, check_colors=colors, seats=seats)]


def test_a_second_colour_is_issued_by_a_game_supervisor_000_3_8() -> None:
    history = [*_table(), issued("alice", "red", 250)]
    [event] = when(history, issue("alice", "blue", 250, by=SUPERVISOR))
    assert (event.color, event.actor.role) == ("blue", Role.SUPERVISOR)


def test_the_dealer_does_not_issue_a_second_colour_000_3_8() -> None:
    history = [*_table(), issued("alice", "red", 250)]
    refused(
        history,
        issue("alice", "blue", 250, by=DEALER),
        "color:",
        "'red'",
        "game supervisor",
        "000 §3.8",
        code="forbidden",
    )


def test_more_of_a_colour_held_is_the_dealers_even_with_two_colours_000_3_7() -> None:
    history = [*_table(), issued("alice", "red", 250), issued("alice", "blue", 250, by=SUPERVISOR)]
    assert when(history, issue("alice", "red", 250, 5, by=DEALER))
    assert when(history, issue("alice", "blue", 250, 5, by=DEALER))
    refused(history, issue("alice", "red", 250, by=SUPERVISOR), "000 §3.7", code="forbidden")


def test_a_colour_given_up_makes_the_next_one_a_first_colour_000_3_7_3_8() -> None:
    history = [*_table(), issued("alice", "red", 250, 20), redeemed("alice", "red", 20, 5_000)]
    assert when(history, issue("alice", "blue", 100, by=DEALER))


def test_a_second_colour_that_leaves_a_free_seat_without_a_colour_is_refused_000_3_8() -> None:
    # 7 seats, alice and bob hold a colour: 5 seats may still want one. A set of 7 colours
    # with red and green in use leaves 4 once alice takes blue: one seat would be precluded.
    scene = [issued("alice", "red", 250), issued("bob", "green", 100)]
    refused(
        [*_table(colors=7), *scene],
        issue("alice", "blue", 250, by=SUPERVISOR),
        "color:",
        "4 of the table's 7 colours",
        "5 other seat(s)",
        "precluded",
        "000 §3.8",
    )
    # A set of 8 leaves 5: every other seat keeps a colour.
    assert when([*_table(colors=8), *scene], issue("alice", "blue", 250, by=SUPERVISOR))


def test_a_second_colour_at_a_full_table_whose_players_all_hold_one_000_3_8() -> None:
    scene = [*_table(colors=3, seats=2), issued("alice", "red", 250), issued("bob", "green", 100)]
    assert when(scene, issue("alice", "blue", 250, by=SUPERVISOR))


def test_a_second_colour_needs_the_tables_number_of_colours_000_3_8() -> None:
    refused(
        [*_table(colors=None), issued("alice", "red", 250)],
        issue("alice", "blue", 250, by=SUPERVISOR),
        "color:",
        "TableConfig.check_colors",
        "precluded",
        "000 §3.8",
    )


def test_a_second_colour_shared_by_consent_takes_no_colour_from_the_set_000_3_6_3_8() -> None:
    scene = [*_table(colors=2, seats=2), issued("alice", "red", 250), issued("bob", "blue", 250)]
    refused(scene, issue("alice", "blue", 250, by=SUPERVISOR), "color:", "bob", "000 §3.6")
    assert when(scene, issue("alice", "blue", 250, by=SUPERVISOR, shared=True))
