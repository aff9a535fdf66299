"""Stakes under the sign's line for their bet kind (000 §4.1), a player's own sign (000 §4.4),
and wagers that stand outside the limits when the cover comes off (000 §4.2)."""

from sicbo.wagers.decider import evolve
from sicbo.wagers.state import wagers_of_round
from sicbo_contracts.base import KindLimits, Limits
from sicbo_contracts.lifecycle import LimitsChanged
from sicbo_contracts.wagers import CarriedChoice
from tests.support.common import BOB, SUPERVISOR, event
from tests.support.lifecycle import (
    betting_opened,
    no_result,
    override,
    round_started,
    table_opened,
)
from tests.support.wagers import (
    LIMITS,
    betting,
    change,
    chips,
    choose,
    chosen,
    place,
    placed,
    refused,
    when,
    withdraw,
    withdrawn,
)
from tests.support.wagers import given as wagers_given

#: The wager tests' sign (100 to 10,000 in units of 10) with lines for triples and small.
LINES = Limits(
    minimum=100,
    maximum=10_000,
    unit=10,
    by_kind={
        "triple": KindLimits(maximum=500),
        "small": KindLimits(minimum=150, maximum=50_000),
    },
)


def signed(sign: Limits = LINES, profile: str = "cca-1992") -> list[object]:
    return [table_opened(profile, limits=sign), round_started(1, profile), betting_opened(1)]


def limits_changed(before: Limits, after: Limits) -> LimitsChanged:
    return event(LimitsChanged, SUPERVISOR, before=before, after=after, reason="new sign")


# ---- the sign's lines (000 §4.1) ---------------------------------------------------------------


def test_a_triple_above_its_line_is_refused_naming_kind_bound_and_field_000_4_1() -> None:
    wagers = [chips("big", 1_000), chips("triple:6", 510)]
    refused(
        signed(),
        place(wagers=wagers),
        "wagers[1].stake: 510 is above the table triple maximum 500",
        "000 §4.1: the sign's line for triple bets",
    )


def test_a_triple_at_its_lines_maximum_is_taken_000_4_1() -> None:
    wagers = [chips("triple:6", 500), chips("any-triple", 10_000)]
    assert when(signed(), place(wagers=wagers)) == [placed(wagers=wagers)]


def test_other_bets_keep_the_signs_maximum_000_4_1() -> None:
    refused(signed(), place(wagers=[chips("big", 10_010)]), "above the table maximum 10000")


def test_a_line_may_allow_its_kind_above_the_signs_maximum_000_4_1() -> None:
    assert when(signed(), place(wagers=[chips("small", 50_000)]))
    refused(signed(), place(wagers=[chips("small", 50_010)]), "table small maximum 50000")


def test_a_kind_below_its_lines_minimum_is_refused_000_4_1() -> None:
    refused(
        signed(),
        place(wagers=[chips("small", 140)]),
        "wagers[0].stake: 140 is below the table small minimum 150",
        "the sign's line for small bets",
    )
    assert when(signed(), place(wagers=[chips("big", 140)]))  # the sign's 100 for big


def test_stakes_go_up_in_units_from_the_kinds_own_minimum_000_4_1() -> None:
    assert when(signed(), place(wagers=[chips("small", 160)]))
    refused(
        signed(),
        place(wagers=[chips("small", 155)]),
        "wagers[0].stake:",
        "small minimum 150 plus whole units of 10",
    )


def test_a_change_of_a_slip_is_checked_against_the_lines_000_4_1() -> None:
    history = [*signed(), placed("s-1", [chips("triple:6", 500)])]
    refused(history, change([chips("triple:6", 600)]), "wagers[0].stake:", "triple maximum 500")


def test_new_lines_apply_to_the_next_slip_000_4_3() -> None:
    history = [*betting(), limits_changed(LIMITS, LINES)]
    refused(history, place(wagers=[chips("triple:2", 600)]), "triple maximum 500")


# ---- a player's own sign (000 §4.4) ------------------------------------------------------------


def test_a_players_own_sign_replaces_the_tables_lines_000_4_4() -> None:
    """Alice's sign has no line for triples: the table's cap of 500 does not bind her."""
    history = [*signed(), override("alice", Limits(minimum=100, maximum=100_000))]
    assert when(history, place(wagers=[chips("triple:6", 5_000)]))
    refused(history, place("s-2", [chips("triple:6", 600)], by=BOB, player="bob"), "triple maximum")


def test_a_players_own_line_binds_them_000_4_4() -> None:
    mine = Limits(minimum=100, maximum=100_000, by_kind={"triple": KindLimits(maximum=1_000)})
    history = [*signed(), override("alice", mine)]
    refused(
        history,
        place(wagers=[chips("triple:6", 1_010)]),
        "wagers[0].stake:",
        "this player's own (000 §4.4) triple maximum 1000",
    )


# ---- outside the limits when the cover comes off: valid (000 §4.2) -----------------------------


def test_a_wager_standing_when_the_limits_are_lowered_still_stands_000_4_2() -> None:
    """Accepted at the old maximum, the triple stands in the round (settlement pays it, see
    tests/unit/settlement) and may still be withdrawn; only new wagers meet the new sign."""
    accepted = placed("s-1", [chips("triple:6", 10_000)])
    history = [*betting(), accepted, limits_changed(LIMITS, LINES)]
    standing = wagers_of_round(wagers_given(history), 1)
    assert [(w.slip_id, w.wager) for w in standing] == [("s-1", chips("triple:6", 10_000))]
    assert when(history, withdraw("s-1")) == [withdrawn("s-1", [chips("triple:6", 10_000)])]
    refused(history, place("s-2", [chips("triple:6", 10_000)]), "triple maximum 500")


def test_a_carried_wager_kept_after_the_limits_changed_is_not_checked_again_000_4_2() -> None:
    """macau-2004: the player keeps a carried triple above the new cap (002/2004 art. 3(4))."""
    wager = chips("triple:6", 10_000)
    history = [
        *betting("macau-2004"),
        placed("s-1", [wager]),
        no_result(1, "player-choice"),
        limits_changed(LIMITS, LINES),
        round_started(2, "macau-2004"),
        betting_opened(2),
    ]
    kept = when(history, choose(CarriedChoice.KEEP))
    assert kept == [chosen("s-1", CarriedChoice.KEEP, [wager], [wager])]
    after = evolve(wagers_given(history), kept[0])
    assert [w.wager for w in wagers_of_round(after, 2)] == [wager]
