"""The winning areas a layout lights (000 §2.3) and the verdict on what it reports."""

import pytest

from sicbo.game.evaluation import winning_bets
from sicbo.game.profiles import load_paytable
from sicbo.illumination.lamps import (
    EQUIPMENT,
    ILLUMINATION_ACTOR,
    malfunction,
    msg_id,
    verdict,
    winning_spots,
)
from sicbo_contracts.base import Role
from sicbo_contracts.illumination import IlluminationFault, LayoutIlluminated
from tests.support.common import NOW


def judged(expected: list[str], lit: list[str] | None):
    return verdict(
        table="T1",
        round_no=7,
        dice=(2, 2, 5),
        source_seq=41,
        expected=expected,
        lit=lit,
        at=NOW,
    )


def test_the_winning_spots_of_a_result_000_2_3() -> None:
    spots = winning_spots("cca-1992@v1", (5, 2, 2))
    # total 9: small; 2 on two dice, 5 on one; double 2; total 9; combo 2-5.
    assert spots == ["small", "single:2", "single:5", "double:2", "total:9", "combo:2-5"]


def test_a_triple_lights_no_small_or_big_and_only_offered_bets() -> None:
    assert "big" not in winning_spots("cca-1992@v1", (5, 5, 5))
    assert "any-triple" in winning_spots("cca-1992@v1", (5, 5, 5))
    # macau-2003 offers no doubles or combos: its layout has no such spots.
    spots = winning_spots("macau-2003@v1", (2, 2, 5))
    assert not any(s.startswith(("double:", "combo:")) for s in spots)


@pytest.mark.parametrize("profile", ["cca-1992", "macau-2003", "macau-2004", "online-live"])
def test_the_spots_are_exactly_the_bets_settlement_pays(profile: str) -> None:
    paytable = load_paytable(profile)
    for dice in [(1, 2, 3), (4, 4, 4), (6, 6, 1), (3, 5, 6)]:
        paid = {b.id for b in winning_bets(paytable, dice)}  # type: ignore[arg-type]
        assert set(winning_spots(paytable.ref, dice)) == paid


def test_lit_as_expected_is_illuminated_whatever_the_order() -> None:
    event = judged(["small", "total:9"], ["total:9", "small"])
    assert event == LayoutIlluminated(
        table="T1",
        actor=ILLUMINATION_ACTOR,
        at=NOW,
        round=7,
        dice=(2, 2, 5),
        spots=["small", "total:9"],
        source_seq=41,
    )


def test_a_dark_lamp_is_a_fault_000_7_6() -> None:
    event = judged(["small", "total:9"], ["small"])
    assert isinstance(event, IlluminationFault)
    assert (event.missing, event.extra, event.timed_out) == (["total:9"], [], False)
    assert event.detail == "not lit: total:9"


def test_an_extra_lamp_is_a_fault_lit_wrongly_000_7_6() -> None:
    event = judged(["small"], ["small", "big", "any-triple"])
    assert isinstance(event, IlluminationFault)
    assert (event.missing, event.extra) == ([], ["any-triple", "big"])
    assert event.detail == "lit but not winning: any-triple, big"


def test_no_report_in_time_is_a_fault() -> None:
    event = judged(["small"], None)
    assert isinstance(event, IlluminationFault) and event.timed_out
    assert event.missing == ["small"] and event.expected == ["small"]


def test_the_malfunction_is_derived_from_the_fault_so_a_retry_is_a_duplicate() -> None:
    fault = judged(["small", "total:9"], ["small"])
    assert isinstance(fault, IlluminationFault)
    cmd = malfunction(fault)
    assert cmd == malfunction(fault)
    assert cmd.command_id == msg_id("T1", 7, 41) == "lamp-T1-7-41"
    assert (cmd.table, cmd.round, cmd.equipment) == ("T1", 7, EQUIPMENT)
    assert cmd.actor.role is Role.SERVICE and cmd.actor.id == "illumination"
    assert "total:9" in cmd.detail and "2-2-5" in cmd.detail
