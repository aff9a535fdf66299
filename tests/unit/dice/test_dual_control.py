"""Dual control (``TableConfig.dual_control``, GLI-19 §4.18.4): a supervisor's correction is a
proposal until a second, different supervisor approves it with the same dice."""

from tests.support.common import SUPERVISOR, SUPERVISOR_2
from tests.support.dice import (
    DICE,
    approve,
    confirmed,
    correct,
    corrected,
    dual_control_opened,
    entered,
    manual_mode_entered,
    manual_mode_left,
    next_round,
    proposed,
    refused,
    reject,
    rejected,
    when,
)
from tests.support.lifecycle import completed, invalidated

CONFIRMED = [
    dual_control_opened(),
    *next_round(1),
    entered((4, 1, 1)),
    confirmed((4, 1, 1)),
    manual_mode_entered(),
]
PROPOSED = [*CONFIRMED, proposed((1, 1, 4), (1, 4, 4), "dealer pressed 1 for a 4")]


def test_a_correction_is_only_proposed_and_changes_nothing_yet_gli_19_4_18_4() -> None:
    [event] = when(CONFIRMED, correct((4, 4, 1), "dealer pressed 1 for a 4"))
    assert event == proposed((1, 1, 4), (1, 4, 4), "dealer pressed 1 for a 4")
    state = DICE.given(*CONFIRMED, event)
    assert state.round is not None and state.round.result == (1, 1, 4)
    assert [r.number for r in state.proposals] == [1]


def test_a_second_supervisor_approves_and_the_correction_takes_effect_gli_19_4_18_4() -> None:
    [event] = when(PROPOSED, approve((4, 1, 4), by=SUPERVISOR_2))
    assert event == corrected(
        (1, 1, 4), (1, 4, 4), "dealer pressed 1 for a 4", by=SUPERVISOR_2, proposed_by=SUPERVISOR
    )
    state = DICE.given(*PROPOSED, event)
    assert state.round is not None and state.round.result == (1, 4, 4) and not state.proposals


def test_the_proposer_does_not_approve_their_own_correction() -> None:
    refused(PROPOSED, approve((1, 4, 4), by=SUPERVISOR), "another supervisor must approve")


def test_the_approval_must_name_the_proposed_dice() -> None:
    refused(PROPOSED, approve((1, 4, 5), by=SUPERVISOR_2), "not the proposed 1-4-4")


def test_nothing_to_approve_without_a_proposal() -> None:
    refused(CONFIRMED, approve((1, 4, 4), by=SUPERVISOR_2), "no correction of round 1 waits")


def test_one_proposal_per_round_at_a_time() -> None:
    refused(PROPOSED, correct((5, 5, 5), "other", by=SUPERVISOR_2), "waits for approval")


def test_a_proposal_is_rejected_and_the_result_stands() -> None:
    [event] = when(PROPOSED, reject("the camera shows 1-1-4", by=SUPERVISOR_2))
    assert event == rejected((1, 4, 4), "the camera shows 1-1-4", by=SUPERVISOR_2)
    state = DICE.given(*PROPOSED, event)
    assert state.round is not None and state.round.result == (1, 1, 4) and not state.proposals
    refused([*PROPOSED, event], approve((1, 4, 4), by=SUPERVISOR_2), "no correction")


def test_the_proposer_withdraws_their_proposal() -> None:
    [event] = when(PROPOSED, reject("my mistake", by=SUPERVISOR))
    assert event == rejected((1, 4, 4), "my mistake", by=SUPERVISOR)


def test_an_approval_needs_manual_mode_gli_19_c_6_8_o() -> None:
    """Manual mode is not left while a proposal waits; a log that left it anyway approves
    nothing."""
    refused(
        [*PROPOSED, manual_mode_left()], approve((1, 4, 4), by=SUPERVISOR_2), "not in manual mode"
    )


def test_an_earlier_round_is_corrected_by_two_supervisors() -> None:
    played_on = [completed(), *next_round(2), entered((6, 6, 2), 2), confirmed((6, 6, 2), 2)]
    history = [*CONFIRMED, *played_on]
    [proposal] = when(history, correct((1, 1, 5), "camera", 1))
    assert proposal == proposed((1, 1, 4), (1, 1, 5), "camera", 1)
    [event] = when([*history, proposal], approve((5, 1, 1), 1, by=SUPERVISOR_2))
    assert event == corrected(
        (1, 1, 4), (1, 1, 5), "camera", 1, by=SUPERVISOR_2, proposed_by=SUPERVISOR
    )


def test_a_proposal_for_a_round_invalidated_since_is_not_approved_000_8_4() -> None:
    refused([*PROPOSED, invalidated()], approve((1, 4, 4), by=SUPERVISOR_2), "invalidated")
