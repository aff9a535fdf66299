"""What the pages show of a table (``sicbo.gateway.views``), folded from real contract events:
the lifecycle's phase, the last result kept while the next round is played (and updated by a
correction, GLI-19 §4.18.4), a suspension shown until an inspector clears it (000 §7.7), the
countdown's end (004), and the lamps the illumination service last reported (000 §2.3, §7.6).
"""

from collections.abc import Iterable
from datetime import timedelta
from functools import reduce
from typing import Any

import msgspec

from sicbo.gateway.view_rules import LampFaultView
from sicbo.gateway.views import (
    Lamps,
    LastResult,
    LitView,
    ManualModeView,
    PendingInvalidationView,
    PendingSignView,
    ProposalView,
    ResultView,
    SuspensionView,
    TableFold,
    TableView,
    evolve_lamps,
    evolve_table,
    initial_lamps,
    initial_table,
    table_view,
)
from sicbo_contracts.base import Limits
from sicbo_contracts.illumination import IlluminationFault, LayoutIlluminated
from sicbo_contracts.lifecycle import (
    ClosingNoticePosted,
    FaultCleared,
    InvalidationReason,
    LimitsNoticePosted,
    PlayerLimitsOverridden,
    RoundCancelled,
    RoundInvalidated,
    RoundStarted,
    SeatTaken,
    TableOpened,
    TableSuspended,
)
from tests.support import dual_control as dual
from tests.support.common import SUPERVISOR, SUPERVISOR_2, TABLE, at, default_paytable, event
from tests.support.dice import (
    confirmed,
    corrected,
    dual_control_opened,
    entered,
    manual_mode_entered,
    manual_mode_left,
    proposed,
)
from tests.support.lifecycle import (
    betting_closed,
    betting_opened,
    completed,
    config,
    no_result,
    uncovered,
)

PROFILE = "online-live"  # a countdown table (004)
PAYTABLE = default_paytable(PROFILE)
NO_LAMPS = initial_lamps(TABLE)


def log_of(events: Iterable[Any]) -> TableFold:
    return reduce(evolve_table, events, initial_table(TABLE))


def view(events: Iterable[Any], lamps: Lamps = NO_LAMPS, as_of: int = 7) -> TableView:
    return table_view(log_of(events), lamps, as_of, at())


def opened() -> list[Any]:
    return [
        event(
            TableOpened,
            "supervisor",
            at=at(-120),
            config=config(PROFILE, minimum=10, maximum=1_000, betting_seconds=20),
            paytable=PAYTABLE,
        )
    ]


def closes_at(start: float) -> Any:
    return at(start + 1) + timedelta(seconds=20)


def round_steps(n: int, start: float, dice: tuple[int, int, int]) -> list[Any]:
    """Round ``n`` from its start to its confirmed result (``dice`` as pressed), a minute a step;
    then RoundCompleted."""
    return [
        event(RoundStarted, "dealer", at=at(start), round=n, tumbles=4, paytable=PAYTABLE),
        betting_opened(n, closes_at=closes_at(start), at=at(start + 1)),
        betting_closed(n, by_countdown=True, at=at(start + 2)),
        uncovered(n, at=at(start + 3)),
        entered(dice, n, at=at(start + 4)),
        confirmed(dice, n, by=SUPERVISOR, at=at(start + 5)),
        completed(n, at=at(start + 6)),
    ]


ROUND_1 = round_steps(1, -60, (5, 2, 3))
ROUND_2 = round_steps(2, -50, (4, 1, 4))
#: A supervisor corrects round 2's result 1 4 4 to 1 4 6 (GLI-19 §4.18.4).
CORRECTION_2 = corrected((1, 4, 4), (1, 4, 6), "misread die", 2, at=at(-40))


# ---- a table's view ------------------------------------------------------------------------------


def test_a_table_never_opened() -> None:
    v = view([], as_of=0)
    assert (v.table, v.status, v.profile, v.paytable, v.limits) == (TABLE, "new", None, None, None)
    assert v.round is None and v.last_result is None and v.next_round == 1
    assert v.lit is None and v.fault is None and v.suspended is None
    assert v.seats == {} and v.limits_notices == [] and v.closing_notice is None
    assert v.as_of == 0


def test_an_opened_table_shows_its_sign_and_paytable() -> None:
    v = view(opened(), as_of=1)
    assert v.status == "open"
    assert v.profile == PROFILE
    assert v.paytable == "online-live@v1"
    assert v.limits == Limits(minimum=10, maximum=1_000)
    assert v.betting_seconds == 20
    assert v.round is None and v.next_round == 1 and v.as_of == 1


def test_the_phase_follows_the_round() -> None:
    phases = [
        "started",
        "betting-open",
        "betting-closed",
        "uncovered",
        "uncovered",  # dice entered, not yet confirmed
        "result-confirmed",
        "completed",
    ]
    for steps, phase in enumerate(phases, start=1):
        v = view(opened() + ROUND_1[:steps])
        assert v.round is not None
        assert (v.round.number, v.round.phase) == (1, phase), steps
        assert v.next_round == 2


def test_the_round_shows_its_start_tumbles_and_entered_dice() -> None:
    v = view(opened() + ROUND_1[:5])
    assert v.round is not None
    assert v.round.started_at == at(-60)
    assert v.round.tumbles == 4
    assert v.round.paytable == PAYTABLE
    assert v.round.entered == (5, 2, 3)  # as pressed (000 §5.4)
    assert v.round.result is None and v.last_result is None


def test_the_countdown_end_is_passed_through_004() -> None:
    v = view(opened() + ROUND_1[:2])
    assert v.round is not None
    assert v.round.closes_at == at(-59) + timedelta(seconds=20)


def test_the_result_once_confirmed() -> None:
    v = view(opened() + ROUND_1[:6])
    assert v.round is not None and v.round.result == (2, 3, 5)
    assert v.last_result == ResultView(round=1, dice=(2, 3, 5), total=10)


def test_the_last_result_stays_while_the_next_round_is_played() -> None:
    for steps in range(1, 6):  # round 2 started ... its dice entered
        v = view(opened() + ROUND_1 + ROUND_2[:steps])
        assert v.round is not None and v.round.number == 2 and v.round.result is None
        assert v.last_result == ResultView(round=1, dice=(2, 3, 5), total=10), steps
        assert v.next_round == 3
    v = view(opened() + ROUND_1 + ROUND_2[:6])
    assert v.last_result == ResultView(round=2, dice=(1, 4, 4), total=9)


def test_a_void_round_leaves_the_previous_result() -> None:
    void = [
        *round_steps(2, -50, (1, 1, 1))[:4],
        no_result(2, "carry-over-locked", at=at(-45)),
    ]
    v = view(opened() + ROUND_1 + void)
    assert v.round is not None and v.round.phase == "no-result" and v.round.ended_by == "no-result"
    assert v.last_result == ResultView(round=1, dice=(2, 3, 5), total=10)


def test_a_correction_updates_the_last_result_gli_19_4_18_4() -> None:
    correction = CORRECTION_2
    v = view(opened() + ROUND_1 + ROUND_2 + [correction])
    assert v.last_result == ResultView(round=2, dice=(1, 4, 6), total=11)
    assert v.round is not None
    assert v.round.result == (1, 4, 6) and v.round.corrections == 1
    assert log_of(opened() + ROUND_1 + ROUND_2 + [correction]).last_result == LastResult(
        2, (1, 4, 6), "online-live@v1"
    )


def test_the_view_names_the_bets_the_last_result_won_and_whether_players_bet_remotely() -> None:
    v = view(opened() + ROUND_1)  # 2 3 5: total 10, small, even (004: online-live)
    assert {"small", "even", "total:10", "single:2", "combo:2-3"} <= set(v.last_winning)
    assert not {"big", "odd", "total:9", "single:1"} & set(v.last_winning)
    assert v.remote_players is True
    land = [
        event(
            TableOpened,
            "supervisor",
            at=at(-120),
            config=config("cca-1992"),
            paytable=default_paytable("cca-1992"),
        )
    ]
    assert view(land).remote_players is False and view(land).last_winning == []


def test_a_correction_of_an_earlier_round_keeps_the_later_last_result_gli_19_4_18_4() -> None:
    correction = corrected((2, 3, 5), (2, 3, 6), "misread die", 1, at=at(-40))
    v = view(opened() + ROUND_1 + ROUND_2 + [correction])
    assert v.last_result == ResultView(round=2, dice=(1, 4, 4), total=9)
    assert v.round is not None and v.round.result == (1, 4, 4) and v.round.corrections == 0
    # round 2 invalidated afterwards: round 1's corrected result is the last one again
    invalidated = event(
        RoundInvalidated,
        SUPERVISOR,
        at=at(-39),
        round=2,
        reason=InvalidationReason.FIRE,
        detail="fire",
    )
    again = view(opened() + ROUND_1 + ROUND_2 + [correction, invalidated])
    assert again.last_result == ResultView(round=1, dice=(2, 3, 6), total=11)


def test_manual_mode_is_shown_while_it_lasts_gli_19_c_6_8_o() -> None:
    entered_manual = manual_mode_entered("the reader disagrees", at=at(-45))
    v = view([*opened(), *ROUND_1, entered_manual])
    assert v.manual_mode == ManualModeView(
        since=at(-45), by=SUPERVISOR.id, reason="the reader disagrees"
    )
    assert view([*opened(), *ROUND_1, entered_manual, manual_mode_left()]).manual_mode is None
    assert view([*opened(), *ROUND_1]).manual_mode is None


def test_a_correction_waiting_for_a_second_supervisor_is_shown_dual_control() -> None:
    history = [dual_control_opened(), *ROUND_1, manual_mode_entered()]
    proposal = proposed((2, 3, 5), (2, 3, 6), "misread die", 1)
    v = view([*history, proposal])
    assert v.dual_control and v.manual_mode is not None
    assert v.proposals == [
        ProposalView(
            round=1, before=(2, 3, 5), after=(2, 3, 6), by=SUPERVISOR.id, reason="misread die"
        )
    ]
    assert v.last_result == ResultView(round=1, dice=(2, 3, 5), total=10)  # nothing changed yet
    approved = corrected((2, 3, 5), (2, 3, 6), "misread die", 1, proposed_by=SUPERVISOR)
    assert view([*history, proposal, approved]).proposals == []
    assert not view(opened()).dual_control


def test_a_suspension_is_shown_until_the_fault_is_cleared_000_7_7() -> None:
    lamp = event(
        TableSuspended,
        "service",
        at=at(-52),
        equipment="layout-lamps",
        detail="winning areas not lit",
        round=1,
        policy="suspend-round",
    )
    tumbler = event(
        TableSuspended,
        "dealer",
        at=at(-51),
        equipment="tumbler",
        detail="jammed",
        round=1,
        policy="suspend-round",
    )
    cleared = event(FaultCleared, "inspector", at=at(-50), detail="fixed", suspended_since=at(-52))
    history = opened() + ROUND_1[:6]
    assert view([*history, lamp]).suspended == SuspensionView(
        since=at(-52), equipment=["layout-lamps"], round=1, policy="suspend-round"
    )
    assert view([*history, lamp, tumbler]).suspended == SuspensionView(
        since=at(-52), equipment=["layout-lamps", "tumbler"], round=1, policy="suspend-round"
    )
    after = view([*history, lamp, tumbler, cleared])
    assert after.suspended is None
    assert after.last_result == ResultView(round=1, dice=(2, 3, 5), total=10)


def test_an_invalidation_and_a_sign_waiting_for_a_second_supervisor_are_shown_000_8_4() -> None:
    """Dual control of the lifecycle (000 §8.4, §4.4): shown while they wait, gone once
    approved; nothing changed meanwhile."""
    history = [dual.dual_control_opened(), *ROUND_1]
    waiting = [dual.invalidation_proposed(1, "p3"), dual.override_proposed()]
    v = view([*history, *waiting])
    assert v.pending_invalidation == PendingInvalidationView(
        round=1, reason="fraud", detail=dual.DETAIL, forfeits=["p3"], by=SUPERVISOR.id
    )
    assert v.pending_signs == [
        PendingSignView(
            player="p1", limits=dual.HIGH_ROLLER, reason=dual.SIGN_REASON, by=SUPERVISOR.id
        )
    ]
    assert v.player_signs == {} and v.last_result == ResultView(round=1, dice=(2, 3, 5), total=10)
    approved = [
        event(
            RoundInvalidated,
            SUPERVISOR_2,
            round=1,
            reason=InvalidationReason.FRAUD,
            detail=dual.DETAIL,
            forfeits=["p3"],
            proposed_by=SUPERVISOR.id,
        ),
        event(
            PlayerLimitsOverridden,
            SUPERVISOR_2,
            player="p1",
            before=None,
            after=dual.HIGH_ROLLER,
            reason=dual.SIGN_REASON,
            proposed_by=SUPERVISOR.id,
        ),
    ]
    after = view([*history, *waiting, *approved])
    assert after.pending_invalidation is None and after.pending_signs == []
    assert after.player_signs == {"p1": dual.HIGH_ROLLER}


def test_seats_and_signs_pass_through() -> None:
    signs = [
        event(SeatTaken, "dealer", at=at(-100), player="p1", seat=3),
        event(
            LimitsNoticePosted,
            "supervisor",
            at=at(-90),
            limits=Limits(minimum=20, maximum=2_000),
            effective_at=at(-60),
        ),
        event(ClosingNoticePosted, "supervisor", at=at(-80), close_at=at(30)),
    ]
    v = view(opened() + signs)
    assert v.seats == {3: "p1"}
    assert [(n.limits.minimum, n.effective_at) for n in v.limits_notices] == [(20, at(-60))]
    assert v.closing_notice == at(30)


# ---- the lamps -----------------------------------------------------------------------------------


def lit(n: int, spots: list[str], seq: int) -> LayoutIlluminated:
    return event(LayoutIlluminated, "service", round=n, dice=(2, 3, 5), spots=spots, source_seq=seq)


SPOTS_235 = ["small", "odd", "single:2", "single:3", "single:5", "total:10", "combo:2-3"]


def test_no_lamps_before_the_first_verdict() -> None:
    assert initial_lamps(TABLE) == Lamps(round=0, dice=None, spots=(), fault=None)
    v = view(opened())
    assert v.lit is None and v.fault is None


def test_a_lit_layout_shows_its_spots() -> None:
    lamps = evolve_lamps(initial_lamps(TABLE), lit(1, SPOTS_235, 9))
    assert lamps == Lamps(round=1, dice=(2, 3, 5), spots=tuple(SPOTS_235), fault=None)
    v = view(opened() + ROUND_1, lamps)
    assert v.lit == LitView(round=1, dice=(2, 3, 5), spots=SPOTS_235)
    assert v.fault is None


def test_a_fault_shows_what_was_lit_and_its_detail_000_7_6() -> None:
    fault = event(
        IlluminationFault,
        "service",
        round=1,
        dice=(2, 3, 5),
        expected=SPOTS_235,
        missing=["odd", "single:5"],
        extra=["big"],
        timed_out=False,
        detail="2 winning areas not lit: odd, single:5; lit but not winning: big",
        source_seq=9,
    )
    lamps = evolve_lamps(initial_lamps(TABLE), fault)
    remaining = ("small", "single:2", "single:3", "total:10", "combo:2-3")
    assert lamps.spots == remaining  # expected minus missing, in the expected order
    assert lamps.fault == "2 winning areas not lit: odd, single:5; lit but not winning: big"
    v = view(opened() + ROUND_1, lamps)
    assert v.lit == LitView(round=1, dice=(2, 3, 5), spots=list(remaining))
    assert v.fault == lamps.fault


def test_the_latest_verdict_wins() -> None:
    fault = event(
        IlluminationFault,
        "service",
        round=1,
        dice=(2, 3, 5),
        expected=SPOTS_235,
        missing=SPOTS_235,
        extra=[],
        timed_out=True,
        detail="no report within 2 s",
        source_seq=9,
    )
    after_fault = evolve_lamps(initial_lamps(TABLE), fault)
    spots = LampFaultView(missing=SPOTS_235, extra=[], timed_out=True)  # the pages' words
    assert after_fault == Lamps(
        round=1, dice=(2, 3, 5), spots=(), fault="no report within 2 s", fault_spots=spots
    )
    assert view(opened() + ROUND_1, after_fault).fault_spots == spots
    # a verdict with nothing lit still shows a round: the page says "nothing lit", not "none"
    assert view(opened() + ROUND_1, after_fault).lit == LitView(round=1, dice=(2, 3, 5), spots=[])
    relit = evolve_lamps(after_fault, lit(1, ["big"], 12))
    assert relit == Lamps(round=1, dice=(2, 3, 5), spots=("big",), fault=None)


# ---- what goes to the browser --------------------------------------------------------------------


def test_the_view_encodes_to_json() -> None:
    correction = CORRECTION_2
    history = [
        *opened(),
        event(SeatTaken, "dealer", at=at(-100), player="p1", seat=3),
        *ROUND_1,
        *ROUND_2,
        correction,
        *round_steps(3, -30, (6, 6, 1))[:2],
    ]
    lamps = evolve_lamps(initial_lamps(TABLE), lit(2, ["big", "single:6"], 40))
    v = table_view(log_of(history), lamps, 42, at())
    raw = msgspec.json.encode(v)
    doc = msgspec.json.decode(raw)
    assert doc["table"] == TABLE and doc["status"] == "open" and doc["as_of"] == 42
    assert doc["seats"] == {"3": "p1"}
    assert doc["round"]["number"] == 3 and doc["round"]["phase"] == "betting-open"
    assert doc["round"]["closes_at"] == "2024-06-03T19:31:20Z"  # at(-29) + 20 s
    assert doc["round"]["result"] is None
    assert doc["last_result"] == {"round": 2, "dice": [1, 4, 6], "total": 11}
    assert doc["lit"] == {"round": 2, "dice": [2, 3, 5], "spots": ["big", "single:6"]}
    # A sign without lines for single bet kinds shows an empty by_kind (000 §4.1).
    assert doc["limits"] == {"minimum": 10, "maximum": 1000, "unit": 1, "by_kind": {}}
    assert doc["suspended"] is None and doc["fault"] is None
    assert msgspec.json.decode(raw, type=TableView) == v


def test_a_result_cancelled_or_invalidated_afterwards_is_no_longer_the_last_result() -> None:
    cancelled = event(RoundCancelled, "supervisor", at=at(-54), round=1, reason="lamps out")
    v = view(opened() + ROUND_1[:6] + [cancelled])  # 004 "Ralat Pengendalian"
    assert v.last_result is None  # no earlier result to fall back to
    invalidated = event(
        RoundInvalidated,
        "supervisor",
        at=at(-54),
        round=1,
        reason=InvalidationReason.FRAUD,
        detail="marked dice",
    )
    assert view(opened() + ROUND_1[:6] + [invalidated]).last_result is None  # 000 §8.4
    # a later round's void does not take an earlier result away
    later = event(RoundCancelled, "supervisor", at=at(-45), round=2, reason="tumbler")
    v = view(opened() + ROUND_1 + ROUND_2[:3] + [later])
    assert v.last_result == ResultView(round=1, dice=(2, 3, 5), total=10)


def test_a_result_voided_afterwards_gives_way_to_the_one_before() -> None:
    # Round 2's result (1 4 4) cancelled after it was confirmed (004): round 1's stands again.
    cancelled = event(RoundCancelled, "supervisor", at=at(-44), round=2, reason="lamps out")
    v = view(opened() + ROUND_1 + ROUND_2[:6] + [cancelled])
    assert v.last_result == ResultView(round=1, dice=(2, 3, 5), total=10)
    # a correction of round 2 before that does not make round 2 its own "previous"
    correction = corrected((1, 4, 4), (1, 4, 5), "misread", 2, at=at(-45))
    v = view(opened() + ROUND_1 + ROUND_2[:6] + [correction, cancelled])
    assert v.last_result == ResultView(round=1, dice=(2, 3, 5), total=10)
    assert view(opened() + ROUND_1 + ROUND_2[:6] + [correction]).last_result == ResultView(
        round=2, dice=(1, 4, 5), total=10
    )


def test_who_entered_the_dice_is_shown_until_the_next_round() -> None:
    v = view(opened() + ROUND_1[:5])
    assert v.round is not None and v.round.entered_by == "dealer-1"
    assert view(opened() + ROUND_1[:4]).round.entered_by is None  # type: ignore[union-attr]
    assert view(opened() + ROUND_1 + ROUND_2[:1]).round.entered_by is None  # type: ignore[union-attr]


def test_a_lamp_fault_is_no_longer_shown_once_an_inspector_clears_it_000_7_7() -> None:
    fault = event(
        IlluminationFault,
        "service",
        round=1,
        dice=(2, 3, 5),
        expected=SPOTS_235,
        missing=["odd"],
        extra=[],
        timed_out=False,
        detail="1 winning area not lit: odd",
        source_seq=9,
    )
    lamps = evolve_lamps(initial_lamps(TABLE), fault)
    cleared = event(FaultCleared, "inspector", at=at(-50), detail="fixed", suspended_since=at(-52))
    suspended = event(
        TableSuspended,
        "service",
        at=at(-52),
        equipment="layout-lamps",
        detail="winning areas not lit",
        round=1,
        policy="suspend-round",
    )
    history = opened() + ROUND_1
    assert view([*history, suspended], lamps).fault == "1 winning area not lit: odd"
    after = view([*history, suspended, cleared], lamps)
    assert after.fault is None
    # What was lit stays lit: only the fault's text is gone.
    assert after.lit == LitView(round=1, dice=(2, 3, 5), spots=[s for s in SPOTS_235 if s != "odd"])
    # A fault of a later round is shown again.
    later = evolve_lamps(lamps, replace_round(fault, 2))
    assert view([*history, suspended, cleared, *round_steps(2, -45, (1, 2, 3))], later).fault


def replace_round(fault: IlluminationFault, number: int) -> IlluminationFault:
    return msgspec.structs.replace(fault, round=number)
