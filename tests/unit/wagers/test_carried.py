"""Slips after "no result": refunded (cca-1992, 000 §7.5), carried and locked (macau-2003,
002/2003 art. 3(3); online-live, 004), or carried at the player's choice (macau-2004,
002/2004 art. 3(4)). ``wagers_of_round`` lists what stands where, for settlement."""

import pytest

from sicbo.wagers.decider import StandingWager, msg_id_of, wagers_of_round
from sicbo_contracts.base import Actor
from sicbo_contracts.wagers import (
    CarriedChoice,
    CarriedSlipChosen,
    ChangeSlip,
    ChooseForCarriedSlip,
    Wager,
    WithdrawSlip,
)
from tests.unit.wagers.builders import (
    ALICE,
    AT,
    BOB,
    DEALER,
    TABLE,
    betting,
    betting_closed,
    chips,
    given,
    next_round,
    no_result,
    placed,
    refused,
    when,
)


def void_then_rerun(profile: str, consequence: str, *slips: object) -> list[object]:
    """Slips in round 1, "no result" in round 1, round 2 (the re-run) open for betting."""
    return [
        *betting(profile),
        *slips,
        betting_closed(1),
        no_result(1, consequence),
        *next_round(2, profile),
    ]


def withdraw(slip: str = "s-1", round_no: int = 2, actor: Actor = ALICE) -> WithdrawSlip:
    return WithdrawSlip(
        command_id="w-1", table=TABLE, actor=actor, round=round_no, player="alice", slip_id=slip
    )


def change(wagers: list[Wager], round_no: int = 2) -> ChangeSlip:
    return ChangeSlip(
        command_id="c-1",
        table=TABLE,
        actor=ALICE,
        round=round_no,
        player="alice",
        slip_id="s-1",
        wagers=wagers,
    )


def choose(
    choice: CarriedChoice,
    wagers: list[Wager] | None = None,
    *,
    round_no: int = 2,
    actor: Actor = ALICE,
    player: str = "alice",
    slip: str = "s-1",
) -> ChooseForCarriedSlip:
    return ChooseForCarriedSlip(
        command_id="ch-1",
        table=TABLE,
        actor=actor,
        round=round_no,
        player=player,
        slip_id=slip,
        choice=choice,
        wagers=wagers or [],
    )


BIG = [chips("big", 200)]


# ---- refund: cca-1992 (000 §7.5) -----------------------------------------------------------------


def test_refund_policy_carries_nothing_cca_1992() -> None:
    state = given(void_then_rerun("cca-1992", "refund", placed("s-1", BIG)))
    assert wagers_of_round(state, 1) == [StandingWager("s-1", "alice", 0, BIG[0], False)]
    assert wagers_of_round(state, 2) == []
    refused(state, withdraw(), "round:", "stands in round 1")


# ---- locked: macau-2003 and online-live ----------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "cite"), [("macau-2003", "002/2003 art. 3(3)"), ("online-live", "004")]
)
def test_a_carried_slip_is_locked(profile: str, cite: str) -> None:
    state = given(void_then_rerun(profile, "carry-over-locked", placed("s-1", BIG)))
    assert wagers_of_round(state, 2) == [StandingWager("s-1", "alice", 0, BIG[0], True)]
    refused(state, withdraw(), "locked", cite)
    refused(state, withdraw(actor=DEALER), "locked", cite)
    refused(state, change([chips("small", 200)]), "locked", cite)
    refused(state, choose(CarriedChoice.CANCEL), "locked", cite)


def test_the_rerun_takes_new_slips_beside_the_carried_ones_002_2003_art_3_3() -> None:
    new = placed("s-2", [chips("small", 100)], actor=BOB, player="bob", round_no=2)
    state = given(void_then_rerun("macau-2003", "carry-over-locked", placed("s-1", BIG)), new)
    assert [(w.slip_id, w.carried) for w in wagers_of_round(state, 2)] == [
        ("s-1", True),
        ("s-2", False),
    ]


def test_the_void_round_still_lists_its_slips_for_its_settlement() -> None:
    state = given(void_then_rerun("online-live", "carry-over-locked", placed("s-1", BIG)))
    assert wagers_of_round(state, 1) == [StandingWager("s-1", "alice", 0, BIG[0], False)]


def test_a_withdrawn_slip_is_not_carried() -> None:
    state = given(betting("macau-2003"), placed("s-1", BIG))
    gone = when(state, withdraw(round_no=1))
    state = given(
        betting("macau-2003"),
        placed("s-1", BIG),
        gone,
        betting_closed(1),
        no_result(1, "carry-over-locked"),
        next_round(2, "macau-2003"),
    )
    assert wagers_of_round(state, 1) == [] and wagers_of_round(state, 2) == []


def test_a_second_no_result_carries_again() -> None:
    facts = [
        *void_then_rerun("macau-2003", "carry-over-locked", placed("s-1", BIG)),
        betting_closed(2),
        no_result(2, "carry-over-locked"),
        *next_round(3, "macau-2003"),
    ]
    state = given(facts)
    assert wagers_of_round(state, 2) == [StandingWager("s-1", "alice", 0, BIG[0], True)]
    assert wagers_of_round(state, 3) == [StandingWager("s-1", "alice", 0, BIG[0], True)]
    refused(state, withdraw(round_no=3), "carried into round 3", "locked")


# ---- player's choice: macau-2004 (002/2004 art. 3(4)) --------------------------------------------


def rerun_2004(*more: object) -> list[object]:
    return [*void_then_rerun("macau-2004", "player-choice", placed("s-1", BIG)), *more]


def test_cancel_a_carried_slip() -> None:
    state = given(rerun_2004())
    events = when(state, choose(CarriedChoice.CANCEL))
    assert events == [
        CarriedSlipChosen(
            table=TABLE,
            actor=ALICE,
            at=AT,
            round=2,
            slip_id="s-1",
            player="alice",
            choice=CarriedChoice.CANCEL,
            before=BIG,
            after=[],
        )
    ]
    after = given(rerun_2004(*events))
    assert wagers_of_round(after, 2) == []
    assert wagers_of_round(after, 1) == [StandingWager("s-1", "alice", 0, BIG[0], False)]
    refused(after, choose(CarriedChoice.KEEP), "cancelled")


def test_keep_a_carried_slip() -> None:
    events = when(given(rerun_2004()), choose(CarriedChoice.KEEP))
    assert events[0].after == BIG and events[0].choice is CarriedChoice.KEEP
    kept = given(rerun_2004(*events))
    assert wagers_of_round(kept, 2) == [StandingWager("s-1", "alice", 0, BIG[0], True)]
    refused(kept, choose(CarriedChoice.KEEP), "already kept")


@pytest.mark.parametrize(
    "new", [[chips("big", 100)], [chips("big", 500), chips("odd", 100)]], ids=["reduced", "more"]
)
def test_change_a_carried_slip_reduced_or_not(new: list[Wager]) -> None:
    events = when(given(rerun_2004()), choose(CarriedChoice.CHANGE, new))
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
    refused(given(rerun_2004()), choose(CarriedChoice.CHANGE, new), *words)


def test_cancel_or_keep_take_no_wagers() -> None:
    refused(given(rerun_2004()), choose(CarriedChoice.CANCEL, BIG), "only a change")


def test_withdraw_or_change_a_carried_2004_slip_points_to_the_choice() -> None:
    state = given(rerun_2004())
    refused(state, withdraw(), "ChooseForCarriedSlip", "002/2004 art. 3(4)")
    refused(state, change([chips("small", 200)]), "ChooseForCarriedSlip")


def test_the_choice_is_made_while_the_rerun_takes_bets() -> None:
    closed = given(rerun_2004(betting_closed(2)))
    refused(closed, choose(CarriedChoice.CANCEL), "betting is closed", "000 §3.9")
    before_rerun = given(void_then_rerun("macau-2004", "player-choice", placed("s-1", BIG))[:-2])
    refused(before_rerun, choose(CarriedChoice.CANCEL), "round:")


def test_the_choice_is_the_players_or_a_dealers_for_them() -> None:
    state = given(rerun_2004())
    refused(state, choose(CarriedChoice.CANCEL, actor=BOB, player="bob"), code="forbidden")
    assert when(state, choose(CarriedChoice.CANCEL, actor=DEALER))


def test_choose_for_a_slip_that_was_not_carried() -> None:
    state = given(rerun_2004(placed("s-2", BIG, round_no=2)))
    refused(state, choose(CarriedChoice.CANCEL, slip="s-2"), "not carried", "002/2004 art. 3(4)")


def test_each_choice_is_a_new_slip_version() -> None:
    state = given(rerun_2004())
    first = msg_id_of(state, choose(CarriedChoice.KEEP))
    state = given(rerun_2004(*when(state, choose(CarriedChoice.KEEP))))
    second = msg_id_of(state, choose(CarriedChoice.CHANGE, [chips("big", 300)]))
    assert (first, second) == (f"{TABLE}/s-1#v2", f"{TABLE}/s-1#v3")
