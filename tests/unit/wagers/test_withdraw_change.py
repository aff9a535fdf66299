"""WithdrawSlip / ChangeSlip: by the slip's player or a dealer, only before "no more bets"
(000 §3.9), never after a withdrawal; a change is checked like a new slip."""

import pytest

from sicbo_contracts.base import Actor
from sicbo_contracts.wagers import ChangeSlip, SlipChanged, SlipWithdrawn, Wager, WithdrawSlip
from tests.unit.wagers.builders import (
    ALICE,
    AT,
    BOB,
    DEALER,
    INSPECTOR,
    TABLE,
    betting,
    betting_closed,
    chips,
    colour,
    given,
    issued,
    placed,
    refused,
    when,
)


def withdraw(
    slip: str = "s-1",
    *,
    actor: Actor = ALICE,
    player: str = "alice",
    round_no: int = 1,
    command_id: str = "w-1",
) -> WithdrawSlip:
    return WithdrawSlip(
        command_id=command_id, table=TABLE, actor=actor, round=round_no, player=player, slip_id=slip
    )


def change(
    wagers: list[Wager],
    slip: str = "s-1",
    *,
    actor: Actor = ALICE,
    player: str = "alice",
    round_no: int = 1,
) -> ChangeSlip:
    return ChangeSlip(
        command_id="c-1",
        table=TABLE,
        actor=actor,
        round=round_no,
        player=player,
        slip_id=slip,
        wagers=wagers,
    )


def test_the_player_withdraws_their_slip_before_no_more_bets() -> None:
    state = given(betting(), placed("s-1", [chips("big", 200)]))
    assert when(state, withdraw()) == [
        SlipWithdrawn(
            table=TABLE,
            actor=ALICE,
            at=AT,
            round=1,
            slip_id="s-1",
            player="alice",
            before=[chips("big", 200)],
        )
    ]


def test_a_dealer_withdraws_a_slip_for_its_player() -> None:
    state = given(betting(), placed())
    assert when(state, withdraw(actor=DEALER))[0].actor == DEALER


def test_withdrawing_someone_elses_slip_is_forbidden() -> None:
    state = given(betting(), placed("s-1"))
    # Bob names himself: the slip is Alice's.
    refused(state, withdraw(actor=BOB, player="bob"), "'alice''s", code="forbidden")
    # Bob names Alice: he may not act for her.
    refused(state, withdraw(actor=BOB, player="alice"), "may not act for", code="forbidden")


def test_an_inspector_cannot_withdraw() -> None:
    refused(given(betting(), placed()), withdraw(actor=INSPECTOR), code="forbidden")


def test_withdraw_after_no_more_bets_000_3_9() -> None:
    state = given(betting(), placed(), betting_closed(1))
    refused(state, withdraw(), "betting is closed", "000 §3.9")


def test_withdraw_twice() -> None:
    state = given(betting(), placed(), when(given(betting(), placed()), withdraw()))
    refused(state, withdraw(command_id="w-2"), "slip_id:", "withdrawn")


def test_withdraw_an_unknown_slip() -> None:
    refused(given(betting()), withdraw("nope"), "slip_id:", "no slip 'nope'")


def test_withdraw_naming_another_round() -> None:
    refused(given(betting(), placed()), withdraw(round_no=2), "round:", "stands in round 1")


def test_the_player_changes_their_slip_before() -> None:
    state = given(betting(), placed("s-1", [chips("big", 200)]))
    after = [chips("small", 300), chips("total:10", 100)]
    assert when(state, change(after)) == [
        SlipChanged(
            table=TABLE,
            actor=ALICE,
            at=AT,
            round=1,
            slip_id="s-1",
            player="alice",
            before=[chips("big", 200)],
            after=after,
        )
    ]


@pytest.mark.parametrize(
    ("wagers", "words"),
    [
        ([chips("big"), chips("odd")], ["wagers[1].bet:", "not offered"]),
        ([chips("big", 50)], ["wagers[0].stake:", "below the table minimum"]),
        ([chips("big", 20_000)], ["wagers[0].stake:", "above the table maximum"]),
        ([chips("big", 155)], ["wagers[0].stake:", "units of 10"]),
        ([colour("blue", 500)], ["wagers[0].color:", "issued to bob", "000 §3.6"]),
        ([chips("big")], ["already stands so"]),
        ([], ["at least one"]),
    ],
)
def test_a_change_is_checked_like_a_new_slip(wagers: list[Wager], words: list[str]) -> None:
    state = given(betting(), issued("bob", "blue", 100), placed("s-1", [chips("big")]))
    refused(state, change(wagers), *words)


def test_change_after_no_more_bets_or_after_withdrawal() -> None:
    closed = given(betting(), placed(), betting_closed(1))
    refused(closed, change([chips("small")]), "betting is closed", "000 §3.9")
    gone = given(betting(), placed(), when(given(betting(), placed()), withdraw()))
    refused(gone, change([chips("small")]), "withdrawn")


def test_changing_someone_elses_slip_is_forbidden() -> None:
    state = given(betting(), placed("s-1"))
    refused(state, change([chips("small")], actor=BOB, player="bob"), code="forbidden")
