"""What a table's view says its rules allow now, found by the lifecycle decider's own checks:
the ways a round may be started (000 §5.1; 002/2003 art. 2; 002/2004 art. 2(1) and art. 8;
004), whether the round may be cancelled (004 "Ralat Pengendalian") and the sign's line for
each bet kind (000 §4.1)."""

from collections.abc import Iterable
from datetime import datetime
from functools import reduce
from typing import Any

import pytest

from sicbo.gateway.view_rules import CancellationView, KindLineView, ReasonView, StartWayView
from sicbo.gateway.views import TableView, evolve_table, initial_lamps, initial_table, table_view
from sicbo.lifecycle.state import Phase
from sicbo_contracts.base import KindLimits, Limits
from tests.support.common import TABLE, at
from tests.support.lifecycle import round_through, suspended_round, table_opened
from tests.support.paytables import TUESDAY, WEDNESDAY, approve, macau, macau_table, propose

ELECTRIC = "macau-2004@v1?activation=electric-shaker"


def view(events: Iterable[Any], now: datetime | None = None) -> TableView:
    log = reduce(evolve_table, events, initial_table(TABLE))
    return table_view(log, initial_lamps(TABLE), 1, now or at())


def ways(v: TableView) -> list[tuple[str, int]]:
    return [(w.activation, w.min_tumbles) for w in v.start_ways]


# ---- starting a round ----------------------------------------------------------------------------


def test_a_table_never_opened_offers_no_way_to_start() -> None:
    assert view([]).start_ways == []


@pytest.mark.parametrize(
    ("profile", "expected"),
    [
        # 000 §5.1: "a mechanical or electrical device", at least three tumbles either way.
        ("cca-1992", [("handle", 3), ("electric-shaker", 3)]),
        # 002/2003 art. 2: the handle pressed three times, no other way.
        ("macau-2003", [("handle", 3)]),
        # 002/2004 art. 2(1): the shaker is an option, not in force before its approval.
        ("macau-2004", [("handle", 3)]),
        # 004: the dice fall at least three times, shaken by hand or machine.
        ("online-live", [("handle", 3), ("electric-shaker", 3)]),
    ],
)
def test_the_ways_to_start_are_the_profiles_000_5_1_002_art_2_004(
    profile: str, expected: list[tuple[str, int]]
) -> None:
    assert ways(view([table_opened(profile)])) == expected


def test_each_way_cites_its_rule_000_5_1() -> None:
    [handle, _] = view([table_opened("cca-1992")]).start_ways
    assert handle == StartWayView(
        activation="handle",
        min_tumbles=3,
        rule="000 §5.1: a mechanical device makes the dice tumble at least three times",
    )


def test_the_approved_shaker_replaces_the_handle_from_adoption_002_2004_art_2_1_art_8() -> None:
    history = propose(macau_table(), {"activation": "electric-shaker"})
    history = approve(history, ELECTRIC, WEDNESDAY)
    assert ways(view(history, macau(TUESDAY))) == [("handle", 3)]  # before the adoption date
    assert ways(view(history, macau(WEDNESDAY))) == [("electric-shaker", 0)]  # no count


# ---- cancelling a round --------------------------------------------------------------------------


def test_no_round_no_cancellation() -> None:
    c = view([table_opened("online-live")]).cancellation
    assert not c.possible and c.round is None and c.reason is not None


def test_an_online_round_is_cancelled_only_while_suspended_004_ralat_pengendalian() -> None:
    playing = [
        table_opened("online-live"),
        *round_through(1, Phase.BETTING_OPEN, profile="online-live"),
    ]
    c = view(playing).cancellation
    assert not c.possible and c.round == 1
    assert c.reason is not None and "round 1 is not suspended" in c.reason
    assert view(suspended_round("online-live", Phase.BETTING_OPEN)).cancellation == (
        CancellationView(possible=True, round=1, reason=None, possible_from=None)
    )


@pytest.mark.parametrize("profile", ["cca-1992", "macau-2003", "macau-2004"])
def test_a_land_round_is_never_cancelled_even_suspended_000_7_002_art_3(profile: str) -> None:
    c = view(suspended_round(profile, Phase.BETTING_OPEN)).cancellation
    assert not c.possible and c.possible_from is None
    assert c.reason is not None and "gives a supervisor no cancellation" in c.reason


def test_a_confirmed_result_is_cancellable_once_the_grace_is_over_004_ralat_pengendalian() -> None:
    history = suspended_round("online-live", Phase.RESULT_CONFIRMED, minutes=-1)
    waiting = view(history, at()).cancellation  # suspended a minute ago, 120 s to fix it
    assert not waiting.possible and waiting.possible_from == at(1)
    assert waiting.reason is not None and "004 allows 120 s" in waiting.reason
    assert waiting.reason_words is not None and waiting.reason_words.key == "cancel.grace"
    assert waiting.reason_words.params == {
        "round": 1,
        "seconds": 120,
        "from_at": at(1).isoformat(),
    }  # the page writes the time in the table's zone and its reader's language
    assert view(history, at(1)).cancellation.possible


# ---- the sign's lines for bet kinds --------------------------------------------------------------


def test_the_sign_shows_each_kinds_own_bounds_000_4_1() -> None:
    limits = Limits(
        minimum=100,
        maximum=50_000,
        by_kind={"triple": KindLimits(maximum=5_000), "big": KindLimits(minimum=200)},
    )
    v = view([table_opened("cca-1992", limits=limits)])
    assert v.limits_by_kind == [  # the catalogue's order; a bound left out is the sign's
        KindLineView(kind="big", name="Big", minimum=200, maximum=50_000),
        KindLineView(kind="triple", name="Triples", minimum=100, maximum=5_000),
    ]


def test_a_sign_without_lines_has_none_000_4_1() -> None:
    assert view([table_opened("cca-1992")]).limits_by_kind == []


# ---- the dealer's round buttons ------------------------------------------------------------------


def test_the_round_buttons_say_what_the_decider_would_refuse_now_000_5_1() -> None:
    v = view([table_opened("cca-1992")])
    assert v.round_refusals["round.start.v1"] is None
    for tag in ("round.open-betting.v1", "round.close-betting.v1", "round.uncover.v1"):
        assert v.round_refusals[tag]  # no round yet
    started = view([table_opened("cca-1992"), *round_through(1, Phase.STARTED)])
    assert started.round_refusals["round.open-betting.v1"] is None
    assert started.round_refusals["round.start.v1"]  # round 1 is not completed


def test_the_round_buttons_refusals_come_with_their_message_keys_for_the_pages() -> None:
    """The English reason for programs and logs; the key and its parameters for a page to
    write it in its reader's language (Rejected.reason_key)."""
    started = view([table_opened("cca-1992"), *round_through(1, Phase.STARTED)])
    words = started.round_refusal_words
    assert words["round.start.v1"] == ReasonView(key="round.not-completed", params={"round": 1})
    assert words["round.open-betting.v1"] is None  # accepted now
    assert words["round.uncover.v1"] == ReasonView(
        key="round.uncover-after-close", params={"round": 1}
    )
    suspended = view(suspended_round("cca-1992", Phase.COMPLETED)).round_refusal_words
    assert suspended["round.start.v1"] is not None
    assert suspended["round.start.v1"].key == "table.suspended"


def test_a_suspended_table_refuses_tumble_and_uncover_not_no_more_bets_000_7_7() -> None:
    v = view(suspended_round("cca-1992", Phase.BETTING_OPEN))
    assert v.suspended is not None
    assert "suspended" in (v.round_refusals["round.uncover.v1"] or "")
    assert v.round_refusals["round.close-betting.v1"] is None  # closing stops wagers (000 §7.7)
    done = view(suspended_round("cca-1992", Phase.COMPLETED))
    assert "suspended" in (done.round_refusals["round.start.v1"] or "")
