"""PlaceSlip: when betting is open (000 §3.9), all wagers valid or none (bets, limits, media)."""

from datetime import timedelta

import pytest
from msgspec.structs import replace

from sicbo_contracts.base import Actor, Limits
from sicbo_contracts.lifecycle import (
    BettingClosed,
    FaultCleared,
    LimitsChanged,
    TableSuspended,
    Uncovered,
)
from sicbo_contracts.wagers import Medium, Wager
from tests.unit.wagers.builders import (
    AT,
    BOB,
    DEALER,
    EARLIER,
    INSPECTOR,
    OPERATOR,
    SERVICE,
    SUPERVISOR,
    TABLE,
    betting,
    betting_closed,
    betting_opened,
    chips,
    colour,
    given,
    issued,
    override,
    place,
    placed,
    refused,
    round_started,
    table_closed,
    table_opened,
    when,
)


def test_a_slip_is_placed_while_betting_is_open() -> None:
    wagers = [chips("big", 100), chips("total:9", 250), chips("triple:6", 10_000)]
    assert when(given(betting()), place("s-1", wagers)) == [placed("s-1", wagers)]


def test_a_dealer_places_a_slip_for_a_player_000_3_10() -> None:
    events = when(given(betting()), place(actor=DEALER, player="alice"))
    assert events == [placed(actor=DEALER, player="alice")]


@pytest.mark.parametrize("who", [INSPECTOR, SUPERVISOR, OPERATOR, SERVICE])
def test_only_players_and_dealers_place_bets(who: Actor) -> None:
    refused(given(betting()), place(actor=who), who.role.value, "000 §3.10", code="forbidden")


def test_a_player_cannot_place_a_slip_for_another_player() -> None:
    refused(given(betting()), place(actor=BOB, player="alice"), "player:", code="forbidden")


# ---- betting must be open (000 §3.9, 004 countdown) ----------------------------------------------


def test_no_round_started() -> None:
    refused(given(table_opened()), place(), "round:", "no round has started")


def test_a_slip_for_another_round_than_the_open_one() -> None:
    refused(given(betting()), place(round_no=2), "round:", "current round", "is 1")


def test_before_place_your_bets() -> None:
    refused(given(table_opened(), round_started(1)), place(), "not open yet", "000 §5.1")


@pytest.mark.parametrize(
    "ended",
    [betting_closed(1), Uncovered(table=TABLE, actor=DEALER, at=EARLIER, round=1)],
)
def test_after_no_more_bets_000_3_9(ended: BettingClosed | Uncovered) -> None:
    refused(given(betting(), ended), place(), "betting is closed", "000 §3.9")


def test_at_a_closed_table() -> None:
    refused(given(betting(), table_closed()), place(), "not open")


def test_online_countdown_slip_before_closes_at_is_taken() -> None:
    state = given(
        table_opened("online-live"),
        round_started(1, "online-live"),
        betting_opened(1, closes_at=AT + timedelta(seconds=1)),
    )
    assert when(state, place()) == [placed()]


@pytest.mark.parametrize("late", [timedelta(0), timedelta(milliseconds=1), timedelta(minutes=3)])
def test_online_countdown_slip_at_or_after_closes_at_is_refused_004(late: timedelta) -> None:
    """The timer's CloseBetting may lag: the time rule holds without it."""
    state = given(
        table_opened("online-live"),
        round_started(1, "online-live"),
        betting_opened(1, closes_at=AT),
    )
    refused(state, place(), "betting is closed", "countdown", "004", at=AT + late)


def test_suspended_table_takes_no_slip_000_7_7() -> None:
    fault = TableSuspended(
        table=TABLE,
        actor=DEALER,
        at=EARLIER,
        equipment="lamps",
        detail="dark",
        round=1,
        policy="suspend-table",
    )
    state = given(betting(), fault)
    refused(state, place(), "suspended", "000 §7.7")
    cleared = FaultCleared(
        table=TABLE, actor=INSPECTOR, at=EARLIER, detail="ok", suspended_since=EARLIER
    )
    assert when(given(betting(), fault, cleared), place()) == [placed()]


def test_a_slip_id_is_used_once() -> None:
    state = given(betting(), placed("s-1"))
    refused(state, place("s-1", [chips("small")]), "command_id:", "already exists")


# ---- bets: the catalogue and the round's paytable ------------------------------------------------


@pytest.mark.parametrize("bet", ["lucky-seven", "total:3", "combo:5-2", "single:7", "double"])
def test_unknown_bet(bet: str) -> None:
    refused(given(betting()), place(wagers=[chips(bet)]), "wagers[0].bet:", "catalogue")


@pytest.mark.parametrize("bet", ["odd", "even", "three:1-2-3", "four:1-2-3-4", "all-odd"])
def test_bet_not_offered_by_cca_1992(bet: str) -> None:
    refused(
        given(betting("cca-1992")),
        place(wagers=[chips(bet)]),
        "wagers[0].bet:",
        "not offered under 'cca-1992'",
    )


def test_odd_is_offered_by_macau_2004() -> None:
    state = given(betting("macau-2004"))
    assert when(state, place(wagers=[chips("odd")])) == [placed(wagers=[chips("odd")])]


def test_double_not_offered_by_macau_2003() -> None:
    refused(
        given(betting("macau-2003")),
        place(wagers=[chips("double:3")]),
        "wagers[0].bet:",
        "not offered under 'macau-2003'",
    )


def test_the_whole_slip_is_refused_naming_the_bad_wager() -> None:
    wagers = [chips("big"), chips("small"), chips("odd"), chips("total:9")]
    error = refused(given(betting()), place(wagers=wagers), "wagers[2].bet:", "'odd'")
    assert "wagers[0]" not in error.reason


# ---- stakes: the table sign (000 §4.1, §4.4) -----------------------------------------------------


@pytest.mark.parametrize("stake", [0, 1, 99])
def test_stake_below_the_table_minimum(stake: int) -> None:
    # Stake 0 never passes the contract on the wire; built in code it still is refused here.
    refused(
        given(betting()),
        place(wagers=[chips(stake=stake)]),
        "wagers[0].stake:",
        "below the table minimum 100",
        "000 §4.1",
    )


def test_stake_above_the_table_maximum() -> None:
    refused(
        given(betting()),
        place(wagers=[chips(stake=10_010)]),
        "wagers[0].stake:",
        "above the table maximum 10000",
        "000 §4.4",
    )


@pytest.mark.parametrize("stake", [105, 111, 9_999])
def test_stake_above_the_minimum_not_in_units(stake: int) -> None:
    refused(
        given(betting()),
        place(wagers=[chips("small"), chips(stake=stake)]),
        "wagers[1].stake:",
        "units of 10",
        "000 §4.1",
    )


@pytest.mark.parametrize("stake", [100, 110, 9_990, 10_000])
def test_stakes_in_units_within_the_limits(stake: int) -> None:
    assert when(given(betting()), place(wagers=[chips(stake=stake)]))


def test_changed_limits_apply_to_the_next_slip() -> None:
    raised = LimitsChanged(
        table=TABLE,
        actor=SUPERVISOR,
        at=EARLIER,
        before=Limits(minimum=100, maximum=10_000, unit=10),
        after=Limits(minimum=500, maximum=50_000),
        reason="notice posted 20 minutes before",
    )
    refused(
        given(betting(), raised), place(wagers=[chips(stake=400)]), "below the table minimum 500"
    )
    assert when(given(betting(), raised), place(wagers=[chips(stake=20_001)]))


def test_a_players_own_sign_lets_them_over_the_maximum_000_4_4() -> None:
    mine = override("alice", Limits(minimum=100, maximum=100_000, unit=100))
    state = given(betting(), mine)
    assert when(state, place(wagers=[chips(stake=50_000)]))
    refused(state, place(wagers=[chips(stake=100_100)]), "this player's own", "000 §4.4")
    refused(state, place(wagers=[chips(stake=150)]), "units of 100")
    # Bob plays under the table sign still.
    refused(
        state, place("s-2", [chips(stake=50_000)], actor=BOB, player="bob"), "table maximum 10000"
    )


def test_a_players_own_sign_comes_down_with_the_table() -> None:
    mine = override("alice", Limits(minimum=100, maximum=100_000))
    state = given(betting(), mine, table_closed(), betting(n=2))
    refused(state, place(wagers=[chips(stake=50_000)], round_no=2), "table maximum")


# ---- media: chips, colour checks, promotional tokens (000 §1.1, §3.2-3.8) ------------------------


def test_colour_checks_of_the_player_at_their_marker_value() -> None:
    state = given(betting(), issued("alice", "red", 250))
    wagers = [colour("red", 500), colour("red", 250, "small")]
    assert when(state, place(wagers=wagers)) == [placed(wagers=wagers)]


def test_colour_check_wager_without_a_colour() -> None:
    wager = Wager(bet="big", stake=500, medium=Medium.COLOR)
    refused(
        given(betting(), issued("alice", "red", 250)),
        place(wagers=[wager]),
        "wagers[0].color:",
        "names its colour",
    )


def test_colour_not_issued_at_this_table_000_3_4() -> None:
    # Issued at another table: that table's log, not this one's, holds the ColorChecksIssued.
    refused(
        given(betting()), place(wagers=[colour("red", 500)]), "wagers[0].color:", "not", "000 §3.4"
    )


def test_colour_of_another_player_000_3_6() -> None:
    state = given(betting(), issued("bob", "red", 250))
    refused(
        state,
        place(wagers=[colour("red", 500)]),
        "wagers[0].color:",
        "bob",
        "not to 'alice'",
        "000 §3.6",
    )


def test_colour_stake_not_a_whole_number_of_checks_000_3_7() -> None:
    state = given(betting(), issued("alice", "red", 250))
    refused(state, place(wagers=[colour("red", 300)]), "wagers[0].stake:", "valued 250", "000 §3.7")


@pytest.mark.parametrize("medium", [Medium.PROMO, Medium.CHIPS])
def test_chips_or_promo_with_a_colour(medium: Medium) -> None:
    wager = Wager(bet="big", stake=100, medium=medium, color="red")
    refused(
        given(betting(), issued("alice", "red", 100)),
        place(wagers=[wager]),
        "wagers[0].color:",
        f"a {medium.value} wager has none",
        "000 §3.2",
    )


def test_a_promotional_token_wager_000_1_1() -> None:
    wager = Wager(bet="small", stake=200, medium=Medium.PROMO)
    assert when(given(betting()), place(wagers=[wager])) == [placed(wagers=[wager])]


def test_an_empty_slip_built_in_code() -> None:
    refused(given(betting()), place(wagers=[]), "wagers:", "at least one")


def test_a_command_for_another_table() -> None:
    state = given(betting())
    refused(state, replace(place(), table="T9"), "table 'T9'")
