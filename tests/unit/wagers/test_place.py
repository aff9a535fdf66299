"""PlaceSlip: when betting is open (000 §3.9), all wagers valid or none (bets, limits, media)."""

from datetime import timedelta

import pytest
from msgspec.structs import replace

from sicbo_contracts.base import Actor, Limits
from sicbo_contracts.lifecycle import BettingClosed, LimitsChanged, Uncovered
from sicbo_contracts.wagers import Medium, Wager
from tests.support.common import (
    BOB,
    DEALER,
    EARLIER,
    INSPECTOR,
    NOW,
    OPERATOR,
    SERVICE,
    SUPERVISOR,
    TABLE,
)
from tests.support.lifecycle import (
    betting_closed,
    fault_cleared,
    override,
    round_started,
    suspended,
    table_closed,
    table_opened,
    uncovered,
)
from tests.support.media import token_issued
from tests.support.wagers import (
    LIMITS,
    betting,
    chips,
    color,
    issued,
    place,
    placed,
    promo,
    refused,
    when,
)


def test_a_slip_is_placed_while_betting_is_open() -> None:
    wagers = [chips("big", 100), chips("total:9", 250), chips("triple:6", 10_000)]
    assert when(betting(), place("s-1", wagers)) == [placed("s-1", wagers)]


def test_a_dealer_places_a_slip_for_a_player_000_3_10() -> None:
    events = when(betting(), place(by=DEALER, player="alice"))
    assert events == [placed(by=DEALER, player="alice")]


@pytest.mark.parametrize("who", [INSPECTOR, SUPERVISOR, OPERATOR, SERVICE])
def test_only_players_and_dealers_place_bets(who: Actor) -> None:
    refused(betting(), place(by=who), who.role.value, "000 §3.10", code="forbidden")


def test_a_player_cannot_place_a_slip_for_another_player() -> None:
    refused(betting(), place(by=BOB, player="alice"), "player:", code="forbidden")


# ---- betting must be open (000 §3.9, 004 countdown) ----------------------------------------------


def test_no_round_started() -> None:
    refused(table_opened(limits=LIMITS), place(), "round:", "no round has started")


def test_a_slip_for_another_round_than_the_open_one() -> None:
    refused(betting(), place(round_no=2), "round:", "current round", "is 1")


def test_before_place_your_bets() -> None:
    refused([table_opened(limits=LIMITS), round_started(1)], place(), "not open yet", "000 §5.1")


@pytest.mark.parametrize(
    "ended",
    [betting_closed(1), uncovered(1)],
)
def test_after_no_more_bets_000_3_9(ended: BettingClosed | Uncovered) -> None:
    refused([*betting(), ended], place(), "betting is closed", "000 §3.9")


def test_at_a_closed_table() -> None:
    refused([*betting(), table_closed()], place(), "not open")


def test_online_countdown_slip_before_closes_at_is_taken() -> None:
    history = betting("online-live", closes_at=NOW + timedelta(seconds=1))
    assert when(history, place()) == [placed()]


@pytest.mark.parametrize("late", [timedelta(0), timedelta(milliseconds=1), timedelta(minutes=3)])
def test_online_countdown_slip_at_or_after_closes_at_is_refused_004(late: timedelta) -> None:
    """The timer's CloseBetting may lag: the time rule holds without it."""
    history = betting("online-live", closes_at=NOW)
    refused(history, place(), "betting is closed", "countdown", "004", at=NOW + late)


def test_suspended_table_takes_no_slip_000_7_7() -> None:
    refused([*betting(), suspended(1)], place(), "suspended", "000 §7.7")
    assert when([*betting(), suspended(1), fault_cleared()], place()) == [placed()]


def test_a_slip_id_is_used_once() -> None:
    history = [*betting(), placed("s-1")]
    refused(history, place("s-1", [chips("small")]), "command_id:", "already exists")


# ---- bets: the catalogue and the round's paytable ------------------------------------------------


@pytest.mark.parametrize("bet", ["lucky-seven", "total:3", "combo:5-2", "single:7", "double"])
def test_unknown_bet(bet: str) -> None:
    refused(betting(), place(wagers=[chips(bet)]), "wagers[0].bet:", "catalogue")


@pytest.mark.parametrize("bet", ["odd", "even", "three:1-2-3", "four:1-2-3-4", "all-odd"])
def test_bet_not_offered_by_cca_1992(bet: str) -> None:
    refused(
        betting("cca-1992"),
        place(wagers=[chips(bet)]),
        "wagers[0].bet:",
        "not offered under 'cca-1992'",
    )


def test_odd_is_offered_by_macau_2004() -> None:
    history = betting("macau-2004")
    assert when(history, place(wagers=[chips("odd")])) == [placed(wagers=[chips("odd")])]


def test_double_not_offered_by_macau_2003() -> None:
    refused(
        betting("macau-2003"),
        place(wagers=[chips("double:3")]),
        "wagers[0].bet:",
        "not offered under 'macau-2003'",
    )


def test_the_whole_slip_is_refused_naming_the_bad_wager() -> None:
    wagers = [chips("big"), chips("small"), chips("odd"), chips("total:9")]
    error = refused(betting(), place(wagers=wagers), "wagers[2].bet:", "'odd'")
    assert "wagers[0]" not in error.reason


# ---- stakes: the table sign (000 §4.1, §4.4) -----------------------------------------------------


@pytest.mark.parametrize("stake", [0, 1, 99])
def test_stake_below_the_table_minimum(stake: int) -> None:
    # Stake 0 never passes the contract on the wire; built in code it still is refused here.
    refused(
        betting(),
        place(wagers=[chips(stake=stake)]),
        "wagers[0].stake:",
        "below the table minimum 100",
        "000 §4.1",
    )


def test_stake_above_the_table_maximum() -> None:
    refused(
        betting(),
        place(wagers=[chips(stake=10_010)]),
        "wagers[0].stake:",
        "above the table maximum 10000",
        "000 §4.4",
    )


@pytest.mark.parametrize("stake", [105, 111, 9_999])
def test_stake_above_the_minimum_not_in_units(stake: int) -> None:
    refused(
        betting(),
        place(wagers=[chips("small"), chips(stake=stake)]),
        "wagers[1].stake:",
        "units of 10",
        "000 §4.1",
    )


@pytest.mark.parametrize("stake", [100, 110, 9_990, 10_000])
def test_stakes_in_units_within_the_limits(stake: int) -> None:
    assert when(betting(), place(wagers=[chips(stake=stake)]))


def test_changed_limits_apply_to_the_next_slip() -> None:
    raised = LimitsChanged(
        table=TABLE,
        actor=SUPERVISOR,
        at=EARLIER,
        before=Limits(minimum=100, maximum=10_000, unit=10),
        after=Limits(minimum=500, maximum=50_000),
        reason="notice posted 20 minutes before",
    )
    refused([*betting(), raised], place(wagers=[chips(stake=400)]), "below the table minimum 500")
    assert when([*betting(), raised], place(wagers=[chips(stake=20_001)]))


def test_a_players_own_sign_lets_them_over_the_maximum_000_4_4() -> None:
    mine = override("alice", Limits(minimum=100, maximum=100_000, unit=100))
    history = [*betting(), mine]
    assert when(history, place(wagers=[chips(stake=50_000)]))
    refused(history, place(wagers=[chips(stake=100_100)]), "this player's own", "000 §4.4")
    refused(history, place(wagers=[chips(stake=150)]), "units of 100")
    # Bob plays under the table sign still.
    refused(
        history, place("s-2", [chips(stake=50_000)], by=BOB, player="bob"), "table maximum 10000"
    )


def test_a_players_own_sign_comes_down_with_the_table() -> None:
    mine = override("alice", Limits(minimum=100, maximum=100_000))
    history = [*betting(), mine, table_closed(), *betting(round_no=2)]
    refused(history, place(wagers=[chips(stake=50_000)], round_no=2), "table maximum")


# ---- media: chips, colour checks, promotional tokens (000 §1.1, §3.2-3.8) ------------------------


def test_colour_checks_of_the_player_at_their_marker_value() -> None:
    history = [*betting(), issued("alice", "red", 250)]
    wagers = [color("big", 500, "red"), color("small", 250, "red")]
    assert when(history, place(wagers=wagers)) == [placed(wagers=wagers)]


def test_colour_check_wager_without_a_colour() -> None:
    wager = Wager(bet="big", stake=500, medium=Medium.COLOR)
    refused(
        [*betting(), issued("alice", "red", 250)],
        place(wagers=[wager]),
        "wagers[0].color:",
        "names its colour",
    )


def test_colour_not_issued_at_this_table_000_3_4() -> None:
    # Issued at another table: that table's log, not this one's, holds the ColorChecksIssued.
    refused(
        betting(), place(wagers=[color("big", 500, "red")]), "wagers[0].color:", "not", "000 §3.4"
    )


def test_colour_of_another_player_000_3_6() -> None:
    history = [*betting(), issued("bob", "red", 250)]
    refused(
        history,
        place(wagers=[color("big", 500, "red")]),
        "wagers[0].color:",
        "bob",
        "not to 'alice'",
        "000 §3.6",
    )


def test_colour_stake_not_a_whole_number_of_checks_000_3_7() -> None:
    history = [*betting(), issued("alice", "red", 250)]
    refused(
        history,
        place(wagers=[color("big", 300, "red")]),
        "wagers[0].stake:",
        "valued 250",
        "000 §3.7",
    )


@pytest.mark.parametrize("medium", [Medium.PROMO, Medium.CHIPS])
def test_chips_or_promo_with_a_colour(medium: Medium) -> None:
    wager = Wager(bet="big", stake=100, medium=medium, color="red")
    refused(
        [*betting(), issued("alice", "red", 100)],
        place(wagers=[wager]),
        "wagers[0].color:",
        f"a {medium.value} wager has none",
        "000 §3.2",
    )


def test_a_promotional_token_wager_000_1_1() -> None:
    wager = promo("small", 200, "tk-1")
    history = [*betting(), token_issued("tk-1", "alice", 200)]
    assert when(history, place(wagers=[wager])) == [placed(wagers=[wager])]


def test_an_empty_slip_built_in_code() -> None:
    refused(betting(), place(wagers=[]), "wagers:", "at least one")


def test_a_command_for_another_table() -> None:
    history = betting()
    refused(history, replace(place(), table="T9"), "table 'T9'")
