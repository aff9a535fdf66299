"""Slips after "no result": refunded (cca-1992, 000 §7.5), carried and locked (macau-2003,
002/2003 art. 3(3); online-live, 004), or carried at the player's choice (macau-2004,
002/2004 art. 3(4)). ``wagers_of_round`` lists what stands where, for settlement."""

import pytest

from sicbo.wagers.decider import msg_id_of
from sicbo.wagers.state import StandingWager, wagers_of_round
from sicbo_contracts.wagers import (
    CarriedChoice,
    Wager,
)
from tests.support.common import BOB, DEALER, TABLE, Fact
from tests.support.lifecycle import betting_closed, completed, no_result
from tests.support.wagers import (
    betting,
    change,
    chips,
    choose,
    chosen,
    given,
    next_round,
    placed,
    refused,
    when,
    withdraw,
)


def void_then_rerun(profile: str, consequence: str, *slips: Fact) -> list[Fact]:
    """Slips in round 1, "no result" in round 1, round 2 (the re-run) open for betting."""
    return [
        *betting(profile),
        *slips,
        betting_closed(1),
        no_result(1, consequence),
        completed(1),
        *next_round(2, profile),
    ]


BIG = [chips("big", 200)]


# ---- refund: cca-1992 (000 §7.5) -----------------------------------------------------------------


def test_refund_policy_carries_nothing_cca_1992() -> None:
    history = void_then_rerun("cca-1992", "refund", placed("s-1", BIG))
    state = given(history)
    assert wagers_of_round(state, 1) == [StandingWager("s-1", "alice", 0, BIG[0], False)]
    assert wagers_of_round(state, 2) == []
    refused(history, withdraw(round_no=2), "round:", "stands in round 1")


# ---- locked: macau-2003 and online-live ----------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "cite"), [("macau-2003", "002/2003 art. 3(3)"), ("online-live", "004")]
)
def test_a_carried_slip_is_locked(profile: str, cite: str) -> None:
    history = void_then_rerun(profile, "carry-over-locked", placed("s-1", BIG))
    assert wagers_of_round(given(history), 2) == [StandingWager("s-1", "alice", 0, BIG[0], True)]
    refused(history, withdraw(round_no=2), "locked", cite)
    refused(history, withdraw(by=DEALER, round_no=2), "locked", cite)
    refused(history, change([chips("small", 200)], round_no=2), "locked", cite)
    refused(history, choose(CarriedChoice.CANCEL), "locked", cite)


def test_the_rerun_takes_new_slips_beside_the_carried_ones_002_2003_art_3_3() -> None:
    new = placed("s-2", [chips("small", 100)], by=BOB, player="bob", round_no=2)
    state = given(void_then_rerun("macau-2003", "carry-over-locked", placed("s-1", BIG)), new)
    assert [(w.slip_id, w.carried) for w in wagers_of_round(state, 2)] == [
        ("s-1", True),
        ("s-2", False),
    ]


def test_the_void_round_still_lists_its_slips_for_its_settlement() -> None:
    state = given(void_then_rerun("online-live", "carry-over-locked", placed("s-1", BIG)))
    assert wagers_of_round(state, 1) == [StandingWager("s-1", "alice", 0, BIG[0], False)]


def test_a_withdrawn_slip_is_not_carried() -> None:
    gone = when([*betting("macau-2003"), placed("s-1", BIG)], withdraw(round_no=1))
    state = given(
        betting("macau-2003"),
        placed("s-1", BIG),
        gone,
        betting_closed(1),
        no_result(1, "carry-over-locked"),
        completed(1),
        next_round(2, "macau-2003"),
    )
    assert wagers_of_round(state, 1) == [] and wagers_of_round(state, 2) == []


def test_a_second_no_result_carries_again() -> None:
    facts = [
        *void_then_rerun("macau-2003", "carry-over-locked", placed("s-1", BIG)),
        betting_closed(2),
        no_result(2, "carry-over-locked"),
        completed(2),
        *next_round(3, "macau-2003"),
    ]
    state = given(facts)
    assert wagers_of_round(state, 2) == [StandingWager("s-1", "alice", 0, BIG[0], True)]
    assert wagers_of_round(state, 3) == [StandingWager("s-1", "alice", 0, BIG[0], True)]
    refused(facts, withdraw(round_no=3), "carried into round 3", "locked")


# ---- player's choice: macau-2004 (002/2004 art. 3(4)) --------------------------------------------


def rerun_2004(*more: Fact) -> list[Fact]:
    return [*void_then_rerun("macau-2004", "player-choice", placed("s-1", BIG)), *more]


def test_cancel_a_carried_slip() -> None:
    history = rerun_2004()
    events = when(history, choose(CarriedChoice.CANCEL))
    assert events == [chosen("s-1", CarriedChoice.CANCEL, BIG, [])]
    after = rerun_2004(*events)
    assert wagers_of_round(given(after), 2) == []
    assert wagers_of_round(given(after), 1) == [StandingWager("s-1", "alice", 0, BIG[0], False)]
    refused(after, choose(CarriedChoice.KEEP), "cancelled")


def test_keep_a_carried_slip() -> None:
    events = when(rerun_2004(), choose(CarriedChoice.KEEP))
    assert events[0].after == BIG and events[0].choice is CarriedChoice.KEEP
    kept = rerun_2004(*events)
    assert wagers_of_round(given(kept), 2) == [StandingWager("s-1", "alice", 0, BIG[0], True)]
    refused(kept, choose(CarriedChoice.KEEP), "already kept")


@pytest.mark.parametrize(
    "new",
    [[chips("big", 100)], [chips("small", 200)], [chips("small", 100), chips("odd", 100)]],
    ids=["reduced", "another-bet", "split"],
)
def test_change_a_carried_slip_reduced_or_not_002_2004_art_3_4(new: list[Wager]) -> None:
    events = when(rerun_2004(), choose(CarriedChoice.CHANGE, new))
    assert events[0].before == BIG and events[0].after == new
    changed = given(rerun_2004(*events))
    assert [w.wager for w in wagers_of_round(changed, 2)] == new
    assert all(w.carried for w in wagers_of_round(changed, 2))


@pytest.mark.parametrize(
    ("new", "words"),
    [
        ([chips("lucky")], ["wagers[0].bet:"]),
        ([chips("big", 50)], ["wagers[0].stake:", "minimum"]),
        ([chips("big", 105)], ["wagers[0].stake:", "units"]),
        (BIG, ["choose keep"]),
        ([], ["a change names the new wagers"]),
    ],
)
def test_a_carried_change_is_revalidated(new: list[Wager], words: list[str]) -> None:
    refused(rerun_2004(), choose(CarriedChoice.CHANGE, new), *words)


def test_a_carried_change_does_not_raise_the_stake_002_2004_art_3_4() -> None:
    """ "在減注或不減注的情況下更改原注": changed with the stake reduced or not, never raised."""
    more = [chips("big", 200), chips("odd", 100)]
    refused(rerun_2004(), choose(CarriedChoice.CHANGE, more), "not raise it", "100 more")


def test_cancel_or_keep_take_no_wagers() -> None:
    refused(rerun_2004(), choose(CarriedChoice.CANCEL, BIG), "only a change")


def test_withdraw_or_change_a_carried_2004_slip_points_to_the_choice() -> None:
    history = rerun_2004()
    refused(history, withdraw(round_no=2), "ChooseForCarriedSlip", "002/2004 art. 3(4)")
    refused(history, change([chips("small", 200)], round_no=2), "ChooseForCarriedSlip")


def test_the_choice_is_made_while_the_rerun_takes_bets() -> None:
    closed = rerun_2004(betting_closed(2))
    refused(closed, choose(CarriedChoice.CANCEL), "betting is closed", "000 §3.9")
    before_rerun = void_then_rerun("macau-2004", "player-choice", placed("s-1", BIG))[:-2]
    refused(before_rerun, choose(CarriedChoice.CANCEL), "round:")


def test_the_choice_is_the_players_or_a_dealers_for_them() -> None:
    history = rerun_2004()
    refused(history, choose(CarriedChoice.CANCEL, by=BOB, player="bob"), code="forbidden")
    assert when(history, choose(CarriedChoice.CANCEL, by=DEALER))


def test_choose_for_a_slip_that_was_not_carried() -> None:
    history = rerun_2004(placed("s-2", BIG, round_no=2))
    refused(history, choose(CarriedChoice.CANCEL, slip="s-2"), "not carried", "002/2004 art. 3(4)")


def test_each_choice_is_a_new_slip_version() -> None:
    first = msg_id_of(given(rerun_2004()), choose(CarriedChoice.KEEP))
    kept = rerun_2004(*when(rerun_2004(), choose(CarriedChoice.KEEP)))
    second = msg_id_of(given(kept), choose(CarriedChoice.CHANGE, [chips("big", 300)]))
    assert (first, second) == (f"{TABLE}/s-1#v2", f"{TABLE}/s-1#v3")
