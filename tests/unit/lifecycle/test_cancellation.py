"""Cancelling a round into refunds: only where the profile's rules provide it (004 "Ralat
Pengendalian": suspended for a problem with no quick fix), refused elsewhere naming the rule;
a macau-2003 re-run's locked wagers (002/2003 art. 3(3) 原注不得取銷) are never refunded so."""

import pytest

from sicbo.lifecycle.state import Phase
from sicbo_contracts.lifecycle import (
    CancelRound,
    ClearFault,
    CompleteRound,
    RoundCancelled,
    StartRound,
)
from tests.support.common import Fact, at, command, event
from tests.support.lifecycle import (
    completed,
    given,
    malfunction,
    no_result,
    phase_after,
    refused,
    round_through,
    suspended_round,
    table_opened,
    when,
)


def cancel(round_no: int = 1) -> CancelRound:
    return command(CancelRound, "supervisor", round=round_no, reason="no quick fix")


def cancelled(round_no: int = 1) -> list[RoundCancelled]:
    return [event(RoundCancelled, "supervisor", round=round_no, reason="no quick fix")]


# ---- where the rules provide it: 004 "Ralat Pengendalian" ---------------------------------------


@pytest.mark.parametrize("phase", [Phase.STARTED, Phase.BETTING_OPEN, Phase.UNCOVERED])
def test_a_suspended_online_round_before_its_result_is_cancelled_004(phase: Phase) -> None:
    history = suspended_round("online-live", phase, minutes=-1)
    events = when(history, cancel())
    assert events == cancelled()
    assert phase_after(history, events) is Phase.CANCELLED


def test_an_online_round_without_a_reported_problem_is_not_cancelled_004() -> None:
    """004: the round is first suspended and the supervisor told; cancelled only if the problem
    cannot be solved quickly."""
    history = [
        table_opened("online-live"),
        *round_through(1, Phase.UNCOVERED, profile="online-live"),
    ]
    refused(
        history,
        cancel(),
        match=r'round 1 is not suspended: 004 "Ralat Pengendalian".*report the problem first',
    )


def test_a_cancelled_round_waits_for_settlement_refunds_004() -> None:
    history = suspended_round("online-live", Phase.BETTING_OPEN)
    history += when(history, cancel())
    history += when(history, command(ClearFault, "inspector", detail="stream back"), at=at(-5))
    refused(history, command(StartRound, "dealer", round=2, tumbles=3), match="002 art. 4")
    assert when(history, command(CompleteRound, "service", round=1))


def test_a_cancelled_round_is_not_cancelled_again() -> None:
    history = suspended_round("online-live", Phase.STARTED)
    history += when(history, cancel())
    refused(history, cancel(), match=r"already ended \(cancelled\)")


def online_re_run(profile: str) -> list[Fact]:
    """Round 1 void by "no result" with its wagers carried, round 2 (the re-run) in betting,
    then a fault reported: the table is suspended."""
    history: list[Fact] = [
        table_opened(profile),
        *round_through(1, Phase.UNCOVERED, profile=profile),
        no_result(1, "carry-over-locked", at=at(-26)),
        completed(1, at=at(-25)),
        *round_through(2, Phase.BETTING_OPEN, profile=profile, minutes=-20),
    ]
    return history + when(history, malfunction(), at=at(-10))


def test_an_online_re_run_suspended_by_a_fault_is_cancelled_and_refunded_004() -> None:
    """004's "no wager withdrawn" covers the re-shakes; a problem with no quick fix in the re-run
    is "Ralat Pengendalian": the round is cancelled and every wager refunded."""
    history = online_re_run("online-live")
    state = given(history)
    assert state.round is not None and state.round.carried_from == 1
    assert when(history, cancel(2)) == cancelled(2)


# ---- after the result (004; elsewhere it settles by the dice, 000 §7.6) --------------------------


@pytest.mark.parametrize("phase", [Phase.RESULT_CONFIRMED, Phase.COMPLETED])
def test_a_suspended_online_round_with_a_confirmed_result_is_cancelled_after_the_grace_004(
    phase: Phase,
) -> None:
    """004 "Ralat Pengendalian": not fixed quickly, the round is cancelled and every wager
    refunded, even after its result was settled by the dice (settlement voids it). The fault
    of the layout is found after the result, often after settlement completed the round."""
    history = [table_opened("online-live"), *round_through(1, phase, profile="online-live")]
    history += when(history, malfunction("service", round_no=1), at=at(-10))
    events = when(history, cancel())
    assert events == cancelled()
    state = given(history, events)
    assert state.round is not None and state.round.ended_by is Phase.CANCELLED
    assert state.round.void and state.suspended  # the inspector still clears the fault
    refused([*history, *events], cancel(), "already")


def test_a_suspended_online_round_with_a_confirmed_result_waits_for_the_grace_004() -> None:
    """004: "if the problem can be solved quickly, the round resumes": within
    ``fault_grace_seconds`` (120 s here) of the suspension it may not be cancelled yet."""
    history = suspended_round("online-live", Phase.RESULT_CONFIRMED, minutes=-1)
    refused(history, cancel(), r"allows 120 s to fix the fault")
    assert when(history, cancel(), at=at(1))  # exactly at the end of the grace


def test_an_unsuspended_online_round_with_a_confirmed_result_is_not_cancelled() -> None:
    history = [table_opened("online-live")]
    history += round_through(1, Phase.COMPLETED, profile="online-live")
    refused(history, cancel(), match=r"settled by the dice \(000 §7\.6\)")
    history += when(history, malfunction("service"), at=at(-10))  # between rounds: no round
    refused(history, cancel(), r"only while suspended")


def test_a_cleared_online_fault_does_not_cancel_the_result_004() -> None:
    history = suspended_round("online-live", Phase.RESULT_CONFIRMED, minutes=-10)
    history += when(history, command(ClearFault, "inspector", detail="lamps back"), at=at(-5))
    refused(history, cancel(), match=r"000 §7\.6")


# ---- where no rule provides it ------------------------------------------------------------------

#: What each land profile's refusal cites instead (its ``[cancellation]`` rule).
NO_CANCELLATION = {
    "cca-1992": r'"no result" voids every wager \(000 §7\.1-7\.5\).*invalidate the outcome'
    r" \(000 §8\.4\)",
    "macau-2003": r"原注不得取銷, the wagers may not be withdrawn \(002/2003 art\. 3\(3\)\)",
    "macau-2004": r"cancels, keeps or changes their own wager \(002/2004 art\. 3\(3\)\(4\)\)",
}


@pytest.mark.parametrize("phase", [Phase.STARTED, Phase.UNCOVERED, Phase.RESULT_CONFIRMED])
@pytest.mark.parametrize("profile", sorted(NO_CANCELLATION))
def test_a_land_round_is_not_cancelled_into_refunds_000_002(profile: str, phase: Phase) -> None:
    """000 and 002 give a supervisor no cancellation, not even of a suspended round (000 §7.6:
    it settles by the dice; "no result" and 000 §8.4 invalidation void a round instead)."""
    for history in (
        [table_opened(profile), *round_through(1, phase, profile=profile)],
        suspended_round(profile, phase),
    ):
        refused(
            history,
            cancel(),
            match=rf"profile '{profile}' gives a supervisor no cancellation of a round into"
            rf" refunds \(.*{NO_CANCELLATION[profile]}",
        )


def test_a_re_run_carrying_locked_wagers_is_not_cancelled_002_2003_art_3_3() -> None:
    """002/2003 art. 3(3): after 橋骰 the round is run again and 原注不得取銷: the carried wagers
    may not be withdrawn, so no cancellation refunds them, not even after a fault."""
    history = online_re_run("macau-2003")
    state = given(history)
    assert state.round is not None and state.round.carried_from == 1
    refused(
        history,
        cancel(2),
        match=r"\(002/2003 art\. 3\(3\)\)\); round 2 is the re-run of round 1, void by"
        r' "no result", and the wagers carried into it stand: a cancellation may not refund them',
    )


def test_a_round_after_a_refunded_no_result_carries_nothing_000_7_5() -> None:
    history: list[Fact] = [
        table_opened(),
        *round_through(1, Phase.UNCOVERED),
        no_result(1, "refund", at=at(-26)),
        completed(1, at=at(-25)),
        *round_through(2, Phase.STARTED, minutes=-20),
    ]
    state = given(history)
    assert state.round is not None and state.round.carried_from is None
