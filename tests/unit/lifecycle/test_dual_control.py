"""Dual control of the lifecycle (``TableConfig.dual_control``), as the dice service's for
corrections (GLI-19 §4.18.4): a supervisor's invalidation (000 §8.4) or player's own sign
(000 §4.4) is a proposal until a second, different supervisor approves it."""

from sicbo.lifecycle.state import Phase
from sicbo_contracts.base import Limits
from sicbo_contracts.lifecycle import (
    InvalidationProposed,
    InvalidationReason,
    InvalidationRejected,
    LimitsChanged,
    PlayerLimitsOverridden,
    PlayerLimitsOverrideRejected,
    RoundInvalidated,
    StartRound,
    TableClosed,
)
from tests.support.common import NOW, SUPERVISOR, SUPERVISOR_2, command, event
from tests.support.dual_control import (
    DETAIL,
    FRAUD,
    HIGH_ROLLER,
    SIGN_REASON,
    approve_invalidation,
    approve_limits,
    dual_control_opened,
    invalidate,
    invalidation_proposed,
    override,
    override_proposed,
    reject_invalidation,
    reject_limits,
)
from tests.support.lifecycle import (
    given,
    no_result,
    played_rounds,
    refused,
    round_through,
    table_opened,
    when,
)

PAID = [dual_control_opened(), *played_rounds(1, 1)]  # round 1 completed: settled and paid
PROPOSED = [*PAID, invalidation_proposed(1, "p3")]
SIGN_PROPOSED = [dual_control_opened(), override_proposed()]


# ---- invalidation (000 §8.4) ----------------------------------------------------------------


def test_an_invalidation_is_only_proposed_and_changes_nothing_yet_000_8_4() -> None:
    [proposal] = when(PAID, invalidate(1, "p3"))
    assert proposal == invalidation_proposed(1, "p3", at=NOW)
    current = given(PAID, proposal).round
    assert current is not None
    assert (current.phase, current.ended_by) == (Phase.COMPLETED, Phase.RESULT_CONFIRMED)
    assert current.pending_invalidation is not None
    assert current.pending_invalidation.by == SUPERVISOR.id


def test_a_second_supervisor_approves_and_the_round_is_invalidated_000_8_4() -> None:
    [invalidated] = when(PROPOSED, approve_invalidation(1, "p3"))
    assert invalidated == event(
        RoundInvalidated,
        SUPERVISOR_2,
        at=invalidated.at,
        round=1,
        reason=FRAUD,
        detail=DETAIL,
        forfeits=["p3"],
        proposed_by=SUPERVISOR.id,
    )
    current = given(PROPOSED, invalidated).round
    assert current is not None and current.ended_by is Phase.INVALIDATED
    assert current.pending_invalidation is None


def test_an_invalidation_before_the_result_is_proposed_too_000_8_4() -> None:
    history = [dual_control_opened(), *round_through(1, Phase.UNCOVERED)]
    [proposal] = when(history, invalidate(1, reason=InvalidationReason.BRAWL))
    assert isinstance(proposal, InvalidationProposed)
    current = given(history, proposal).round
    assert current is not None and current.phase is Phase.UNCOVERED


def test_the_proposer_does_not_approve_their_own_invalidation_000_8_4() -> None:
    refused(PROPOSED, approve_invalidation(1, "p3", by=SUPERVISOR), "another supervisor")


def test_the_approval_names_the_proposed_reason_and_forfeits_000_8_4() -> None:
    refused(
        PROPOSED,
        approve_invalidation(1, "p3", reason=InvalidationReason.RIOT),
        "reason:",
        "not the proposed fraud",
    )
    refused(PROPOSED, approve_invalidation(1, "p3", "p4"), "forfeits:", "not the proposed (p3)")


def test_nothing_to_approve_without_a_proposal_000_8_4() -> None:
    refused(PAID, approve_invalidation(1), "no invalidation of round 1 waits")


def test_one_invalidation_proposal_at_a_time_000_8_4() -> None:
    refused(PROPOSED, invalidate(1, by=SUPERVISOR_2), "waits for approval")


def test_any_supervisor_rejects_a_proposed_invalidation_and_the_outcome_stands_000_8_4() -> None:
    for by in (SUPERVISOR, SUPERVISOR_2):  # the proposer withdraws, or another rejects
        [rejected] = when(PROPOSED, reject_invalidation(1, by=by))
        assert isinstance(rejected, InvalidationRejected)
        assert (rejected.invalidation, rejected.proposed_by) == (FRAUD, SUPERVISOR.id)
        current = given(PROPOSED, rejected).round
        assert current is not None and current.ended_by is Phase.RESULT_CONFIRMED
        assert current.pending_invalidation is None
        refused([*PROPOSED, rejected], approve_invalidation(1, "p3"), "no invalidation")


def test_the_approval_checks_the_round_again_000_8_4() -> None:
    """Proposed while the round was played, then the dice were not flat: the round has no
    outcome left to invalidate when the second supervisor comes."""
    history = [dual_control_opened(), *round_through(1, Phase.UNCOVERED)]
    history += [invalidation_proposed(1, reason=InvalidationReason.BRAWL), no_result(1)]
    refused(
        history,
        approve_invalidation(1, reason=InvalidationReason.BRAWL),
        "no outcome to invalidate",
    )


def test_the_next_round_waits_for_a_proposed_invalidation_000_8_4() -> None:
    start = command(StartRound, "dealer", round=2, tumbles=3)
    refused(PROPOSED, start, "waits for a second supervisor", "000 §8.4")
    [rejected] = when(PROPOSED, reject_invalidation(1))
    assert when([*PROPOSED, rejected], start)


def test_without_dual_control_a_supervisor_invalidates_alone_000_8_4() -> None:
    history = [table_opened(), *played_rounds(1, 1)]
    [invalidated] = when(history, invalidate(1, "p3"))
    assert isinstance(invalidated, RoundInvalidated) and invalidated.proposed_by is None


# ---- a player's own sign (000 §4.4) ----------------------------------------------------------


def test_a_players_sign_is_only_proposed_and_changes_nothing_yet_000_4_4() -> None:
    [proposal] = when([dual_control_opened()], override())
    assert proposal == override_proposed(at=NOW)
    state = given(dual_control_opened(), proposal)
    assert "p1" not in state.player_limits and state.pending_limits["p1"].by == SUPERVISOR.id


def test_a_second_supervisor_approves_the_players_sign_000_4_4() -> None:
    [sign] = when(SIGN_PROPOSED, approve_limits())
    assert sign == event(
        PlayerLimitsOverridden,
        SUPERVISOR_2,
        at=sign.at,
        player="p1",
        before=None,
        after=HIGH_ROLLER,
        reason=SIGN_REASON,
        proposed_by=SUPERVISOR.id,
    )
    state = given(SIGN_PROPOSED, sign)
    assert state.player_limits["p1"] == HIGH_ROLLER and not state.pending_limits


def test_the_proposer_does_not_approve_their_own_sign_000_4_4() -> None:
    refused(SIGN_PROPOSED, approve_limits(by=SUPERVISOR), "another supervisor")


def test_the_approval_names_the_proposed_limits_000_4_4() -> None:
    other = Limits(minimum=10, maximum=9_000)
    refused(SIGN_PROPOSED, approve_limits(limits=other), "limits:", "not the proposed 10-5000")


def test_one_sign_proposal_per_player_at_a_time_000_4_4() -> None:
    refused(SIGN_PROPOSED, override(by=SUPERVISOR_2), "player:", "waits for approval")
    assert when(SIGN_PROPOSED, override("p2", by=SUPERVISOR_2))  # another player's may wait too


def test_a_proposed_sign_is_rejected_and_the_player_keeps_the_table_limits_000_4_4() -> None:
    [rejected] = when(SIGN_PROPOSED, reject_limits())
    assert isinstance(rejected, PlayerLimitsOverrideRejected)
    assert (rejected.after, rejected.proposed_by) == (HIGH_ROLLER, SUPERVISOR.id)
    state = given(SIGN_PROPOSED, rejected)
    assert not state.player_limits and not state.pending_limits
    refused([*SIGN_PROPOSED, rejected], approve_limits(), "player:", "no sign of player 'p1'")


def test_the_approval_checks_the_sign_against_the_table_minimum_again_000_4_4() -> None:
    """The table's minimum was raised while the sign waited: it may no longer be approved."""
    raised = event(
        LimitsChanged,
        SUPERVISOR,
        before=Limits(minimum=10, maximum=1_000),
        after=Limits(minimum=20, maximum=1_000),
        reason="busy night",
    )
    refused([*SIGN_PROPOSED, raised], approve_limits(), "limits.minimum", "000 §4.4")


def test_a_closing_takes_down_a_proposed_sign_000_4_4() -> None:
    closed = event(TableClosed, SUPERVISOR)
    assert not given(SIGN_PROPOSED, closed).pending_limits
