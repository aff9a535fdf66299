"""Irregularities: "no result" (000 §7.1-7.5, 002 art. 3(3)(4), 004), invalidation by a
supervisor (000 §8.4-8.5), equipment malfunction (000 §7.6-7.7, 004 "Ralat Pengendalian"),
and completion by settlement (002 art. 4). Cancellation (004) is test_cancellation.py."""

import pytest

from sicbo.lifecycle.state import Phase, Suspension
from sicbo_contracts.lifecycle import (
    BettingClosed,
    ClearFault,
    CloseBetting,
    CompleteRound,
    DeclareNoResult,
    FaultCleared,
    InvalidateRound,
    InvalidationReason,
    NoResultDeclared,
    NoResultReason,
    OpenBetting,
    ReportMalfunction,
    RoundCompleted,
    RoundInvalidated,
    StartRound,
    TableSuspended,
    Uncover,
)
from tests.support.common import at, command, event
from tests.support.lifecycle import (
    given,
    malfunction,
    phase_after,
    played_rounds,
    refused,
    round_through,
    suspended_round,
    table_opened,
    when,
)

# ---- "no result" --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "consequence"),
    [
        ("cca-1992", "refund"),  # 000 §7.5: all wagers void
        ("macau-2003", "carry-over-locked"),  # 002/2003 art. 3(3): 原注不得取銷
        ("online-live", "carry-over-locked"),  # 004: re-shake, no wager withdrawn
        ("macau-2004", "player-choice"),  # 002/2004 art. 3(4), Despacho 69/2006
    ],
)
def test_no_result_carries_the_profiles_consequence(profile: str, consequence: str) -> None:
    history = [table_opened(profile), *round_through(1, Phase.UNCOVERED, profile=profile)]
    cmd = command(DeclareNoResult, "dealer", round=1, reason=NoResultReason.DICE_NOT_FLAT)
    events = when(history, cmd)
    assert events == [
        event(
            NoResultDeclared,
            "dealer",
            round=1,
            reason=NoResultReason.DICE_NOT_FLAT,
            detail="",
            consequence=consequence,
        )
    ]
    state = given(history, events)
    assert state.round is not None and state.round.phase is Phase.NO_RESULT and state.round.void


def test_a_game_supervisor_may_announce_no_result_000_7_1() -> None:
    history = [table_opened(), *round_through(1, Phase.STARTED)]
    cmd = command(DeclareNoResult, "supervisor", round=1, reason=NoResultReason.TUMBLER_FAULT)
    [declared] = when(history, cmd)
    assert isinstance(declared, NoResultDeclared) and declared.consequence == "refund"


def test_no_result_after_the_result_is_confirmed_is_refused_000_7() -> None:
    history = [table_opened(), *round_through(1, Phase.RESULT_CONFIRMED)]
    cmd = command(DeclareNoResult, "dealer", round=1, reason=NoResultReason.DICE_NOT_FLAT)
    refused(history, cmd, "has a confirmed result")


def test_no_result_is_announced_once() -> None:
    history = [table_opened(), *round_through(1, Phase.UNCOVERED)]
    cmd = command(DeclareNoResult, "dealer", round=1, reason=NoResultReason.BROKEN_DICE)
    history += when(history, cmd)
    refused(history, cmd, match=r"round 1 already ended \(no-result\)")


def test_a_void_round_completes_by_settlement_then_the_next_round_starts_002_art_3_3() -> None:
    history = [table_opened("macau-2003"), *round_through(1, Phase.UNCOVERED)]
    history += when(
        history, command(DeclareNoResult, "dealer", round=1, reason=NoResultReason.DICE_NOT_FLAT)
    )
    refused(history, command(StartRound, "dealer", round=2, tumbles=3), match="002 art. 4")
    history += when(history, command(CompleteRound, "service", round=1, players=["p1"]))
    assert when(history, command(StartRound, "dealer", round=2, tumbles=3))


# ---- invalidation (000 §8.4-8.5) ----------------------------------------------------------------


def invalidate(reason: InvalidationReason, forfeits: list[str] | None = None) -> InvalidateRound:
    return command(
        InvalidateRound,
        "supervisor",
        round=1,
        reason=reason,
        detail="see report 17",
        forfeits=forfeits or [],
    )


@pytest.mark.parametrize("phase", [Phase.BETTING_OPEN, Phase.UNCOVERED])
def test_a_supervisor_invalidates_the_outcome_000_8_4(phase: Phase) -> None:
    history = [table_opened(), *round_through(1, phase)]
    events = when(history, invalidate(InvalidationReason.BRAWL))
    assert events == [
        event(
            RoundInvalidated,
            "supervisor",
            round=1,
            reason=InvalidationReason.BRAWL,
            detail="see report 17",
            forfeits=[],
        )
    ]
    assert phase_after(history, events) is Phase.INVALIDATED


def test_a_confirmed_result_may_be_invalidated_000_8_4() -> None:
    """An outcome exists once the result is confirmed: that is what 000 §8.4 invalidates.
    Settlement refunds what the result paid by a compensating void (000 §8.5)."""
    history = [table_opened(), *round_through(1, Phase.RESULT_CONFIRMED)]
    events = when(history, invalidate(InvalidationReason.BRAWL))
    assert [type(e) for e in events] == [RoundInvalidated]
    assert phase_after(history, events) is Phase.INVALIDATED


def test_a_completed_round_may_be_invalidated_and_stays_completed_000_8_4() -> None:
    """After settlement too: the round stays completed (the next may start), its outcome is
    now the invalidation."""
    history = [table_opened(), *played_rounds(1, 1)]
    events = when(history, invalidate(InvalidationReason.FRAUD, ["p3"]))
    assert [type(e) for e in events] == [RoundInvalidated]
    current = given(history, events).round
    assert current is not None
    assert (current.phase, current.ended_by) == (Phase.COMPLETED, Phase.INVALIDATED)
    assert when([*history, *events], command(StartRound, "dealer", round=2, tumbles=3))


def test_an_invalidated_round_is_not_invalidated_again_000_8_4() -> None:
    history = [table_opened(), *played_rounds(1, 1)]
    history += when(history, invalidate(InvalidationReason.FIRE))
    refused(history, invalidate(InvalidationReason.FIRE), match=r"already ended invalidated")


def test_a_void_round_has_no_outcome_to_invalidate_000_8_4() -> None:
    history = [table_opened(), *round_through(1, Phase.UNCOVERED)]
    history += when(
        history, command(DeclareNoResult, "dealer", round=1, reason=NoResultReason.DICE_NOT_FLAT)
    )
    refused(history, invalidate(InvalidationReason.FIRE), "no outcome to invalidate")
    history += when(history, command(CompleteRound, "service", round=1))
    refused(history, invalidate(InvalidationReason.FIRE), "no outcome to invalidate")


def test_only_the_current_rounds_outcome_is_invalidated_000_8_4() -> None:
    """Once the next round started, an earlier round is corrected, not invalidated."""
    history = [table_opened(), *played_rounds(1, 2)]
    refused(history, invalidate(InvalidationReason.FIRE), "not the current round")


def test_a_fraudsters_wager_may_be_forfeited_000_8_5() -> None:
    history = [table_opened(), *round_through(1, Phase.UNCOVERED)]
    [invalidated] = when(history, invalidate(InvalidationReason.FRAUD, ["p3"]))
    assert isinstance(invalidated, RoundInvalidated) and invalidated.forfeits == ["p3"]


@pytest.mark.parametrize(
    "reason", [r for r in InvalidationReason if r is not InvalidationReason.FRAUD]
)
def test_forfeits_only_for_fraud_000_8_5(reason: InvalidationReason) -> None:
    history = [table_opened(), *round_through(1, Phase.UNCOVERED)]
    refused(history, invalidate(reason, ["p3"]), match=r"only .* for fraud \(000 §8\.5, §8\.4\.2\)")


@pytest.mark.parametrize("profile", ["macau-2003", "macau-2004", "online-live"])
def test_invalidation_only_where_the_profile_has_it_000_8_4(profile: str) -> None:
    history = [table_opened(profile), *round_through(1, Phase.UNCOVERED, profile=profile)]
    refused(history, invalidate(InvalidationReason.FIRE), "no supervisor invalidation")


# ---- equipment malfunction (000 §7.6-7.7, 004) --------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "policy"),
    [
        ("cca-1992", "suspend-table"),
        ("macau-2003", "suspend-table"),
        ("macau-2004", "suspend-table"),
        ("online-live", "suspend-round"),
    ],
)
def test_a_malfunction_suspends_under_the_profiles_policy(profile: str, policy: str) -> None:
    history = [table_opened(profile), *round_through(1, Phase.RESULT_CONFIRMED, profile=profile)]
    events = when(history, malfunction("service"))
    assert events == [
        event(
            TableSuspended,
            "service",
            equipment="layout-lamps",
            detail="not lit",
            round=1,  # the round in progress is the suspended one
            policy=policy,
        )
    ]
    assert given(history, events).suspension == Suspension(
        since=at(0), policy=policy, round=1, equipment=("layout-lamps",)
    )


def test_a_malfunction_between_rounds_names_no_round() -> None:
    history = [table_opened(), *played_rounds(1, 1)]
    [suspension] = when(history, malfunction("inspector"))
    assert isinstance(suspension, TableSuspended) and suspension.round is None


def test_a_second_malfunction_keeps_the_first_time_of_suspension() -> None:
    history = suspended_round("cca-1992", Phase.UNCOVERED)
    history += when(history, command(ReportMalfunction, "dealer", equipment="tumbler", detail="x"))
    s = given(history).suspension
    assert s is not None and s.since == at(-10) and s.equipment == ("layout-lamps", "tumbler")


@pytest.mark.parametrize(
    ("phase", "cmd"),
    [
        (Phase.COMPLETED, command(StartRound, "dealer", round=2, tumbles=3)),
        (Phase.STARTED, command(OpenBetting, "dealer", round=1)),
        (Phase.BETTING_CLOSED, command(Uncover, "dealer", round=1)),
    ],
    ids=["StartRound", "OpenBetting", "Uncover"],
)
def test_no_further_play_until_the_fault_is_rectified_000_7_7(
    phase: Phase, cmd: StartRound | OpenBetting | Uncover
) -> None:
    refused(suspended_round("cca-1992", phase), cmd, match=r"suspended since .*000 §7\.7")


def test_betting_still_closes_while_suspended() -> None:
    """Closing betting stops wagers; it is not "further play" (000 §7.7)."""
    history = suspended_round("cca-1992", Phase.BETTING_OPEN)
    [closed] = when(history, command(CloseBetting, "dealer", round=1))
    assert isinstance(closed, BettingClosed)


def test_a_suspended_round_still_settles_by_the_dice_000_7_6() -> None:
    """000 §7.6: layout not lit -> wagers collected and paid by the dice; settlement completes
    the round while the table stays suspended for the inspector (000 §7.7)."""
    history = suspended_round("cca-1992", Phase.RESULT_CONFIRMED)
    events = when(history, command(CompleteRound, "service", round=1, players=["p1"]))
    assert events == [event(RoundCompleted, "service", round=1, players=["p1"])]
    state = given(history, events)
    assert state.suspended and state.round is not None and not state.round.in_progress


def test_no_result_may_be_announced_while_suspended_000_7_2() -> None:
    history = suspended_round("cca-1992", Phase.BETTING_CLOSED)
    cmd = command(DeclareNoResult, "dealer", round=1, reason=NoResultReason.TUMBLER_FAULT)
    assert isinstance(when(history, cmd)[0], NoResultDeclared)


def test_only_an_inspector_clears_the_fault_000_7_7() -> None:
    history = suspended_round("cca-1992", Phase.COMPLETED)
    events = when(history, command(ClearFault, "inspector", detail="lamp replaced"))
    assert events == [
        event(FaultCleared, "inspector", detail="lamp replaced", suspended_since=at(-10))
    ]
    state = given(history, events)
    assert not state.suspended
    assert when([*history, *events], command(StartRound, "dealer", round=2, tumbles=3))


def test_a_suspended_online_round_resumes_once_fixed_004() -> None:
    """004: "if the problem can be solved quickly, the round resumes and continues as usual"."""
    history = suspended_round("online-live", Phase.BETTING_CLOSED)
    refused(history, command(Uncover, "dealer", round=1), "suspended")
    history += when(history, command(ClearFault, "inspector", detail="stream back"), at=at(-5))
    assert when(history, command(Uncover, "dealer", round=1))


def test_clearing_a_fault_that_is_not_there_is_refused() -> None:
    refused(table_opened(), command(ClearFault, "inspector", detail="x"), "not suspended")


def test_a_malfunction_found_after_the_next_round_started_is_recorded_000_7_7() -> None:
    """The layout is checked after the result; the next round may already be under way."""
    history = [table_opened(), *played_rounds(1, 1), *round_through(2, Phase.BETTING_OPEN)]
    [suspension] = when(history, malfunction("service", round_no=1))
    assert isinstance(suspension, TableSuspended) and suspension.round == 1
    refused(
        [*history, suspension],
        command(Uncover, "dealer", round=2),
        match=r"suspended since .*000 §7\.7",
    )


# ---- completion by settlement -------------------------------------------------------------------


@pytest.mark.parametrize(
    "ending",
    [
        command(DeclareNoResult, "dealer", round=1, reason=NoResultReason.DICE_NOT_FLAT),
        invalidate(InvalidationReason.ROBBERY),
    ],
    ids=["no-result", "invalidated"],
)
def test_settlement_completes_a_void_round(ending: DeclareNoResult | InvalidateRound) -> None:
    history = [table_opened(), *round_through(1, Phase.UNCOVERED)]
    history += when(history, ending)
    assert when(history, command(CompleteRound, "service", round=1)) == [
        event(RoundCompleted, "service", round=1, players=[])
    ]


@pytest.mark.parametrize("phase", [Phase.STARTED, Phase.BETTING_CLOSED, Phase.UNCOVERED])
def test_a_round_without_an_outcome_cannot_complete(phase: Phase) -> None:
    history = [table_opened(), *round_through(1, phase)]
    refused(history, command(CompleteRound, "service", round=1), "has no outcome yet")


def test_a_round_completes_once() -> None:
    history = [table_opened(), *round_through(1, Phase.RESULT_CONFIRMED)]
    history += when(history, command(CompleteRound, "service", round=1, players=["p1"]))
    refused(history, command(CompleteRound, "service", round=1), "already completed")
