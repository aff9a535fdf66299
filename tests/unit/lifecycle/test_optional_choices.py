"""Every option of 002/2004 arts. 1, 2, 5 and 6 goes through art. 8: applied for, approved with
the regulator's reference, adopted no earlier than three working days after the application,
and recorded on every round played under it."""

import pytest

from sicbo.game.choices import Choice
from sicbo.game.profiles import load_profile, parse_paytable_ref
from sicbo_contracts.lifecycle import (
    PaytableApproved,
    PaytableProposed,
    ProposePaytable,
    RoundStarted,
    StartRound,
)
from tests.support.common import command
from tests.support.lifecycle import refused, when
from tests.support.paytables import (
    ODD_EVEN,
    PERMIT,
    TUESDAY,
    WEDNESDAY,
    approve,
    approve_command,
    macau,
    macau_table,
    propose,
)

PROFILE = load_profile("macau-2004")


def other_value(choice: Choice) -> int | str:
    """A value of ``choice`` that is not its default."""
    if choice.minimum is not None and choice.maximum is not None:
        return choice.maximum if choice.default != choice.maximum else choice.minimum
    return next(v for v in choice.values if v != choice.default)


CHOICES = [pytest.param(c, id=f"{c.name} ({c.rule})") for c in PROFILE.choices.values()]


@pytest.mark.parametrize("choice", CHOICES)
def test_every_option_adopted_too_early_is_refused_with_the_earliest_date_002_2004_art_8(
    choice: Choice,
) -> None:
    """002/2004 art. 8 names the options of arts. 1, 2, 5 and 6: each one waits three working
    days after its application (Friday -> Wednesday)."""
    history = propose(macau_table(), {choice.name: other_value(choice)})
    [proposed] = history[-1:]
    assert isinstance(proposed, PaytableProposed)
    refused(
        history,
        approve_command(proposed.paytable, TUESDAY, acknowledged=proposed.no_house_edge),
        "Wed 2024-06-12 at the earliest, not Tue 2024-06-11",
        "002/2004 art. 8",
        at=macau(TUESDAY),
    )


@pytest.mark.parametrize("choice", CHOICES)
def test_every_option_approved_is_played_from_its_adoption_date_002_2004_art_8(
    choice: Choice,
) -> None:
    value = other_value(choice)
    history = propose(macau_table(), {choice.name: value})
    [proposed] = history[-1:]
    assert isinstance(proposed, PaytableProposed)
    history = approve(history, proposed.paytable, WEDNESDAY, acknowledged=proposed.no_house_edge)
    [started] = when(
        history, command(StartRound, "dealer", round=1, tumbles=3), at=macau(WEDNESDAY)
    )
    assert isinstance(started, RoundStarted) and started.paytable == proposed.paytable
    assert parse_paytable_ref(started.paytable).choice(choice.name) == value


def test_the_electric_shaker_is_an_approved_option_002_2004_art_2_1() -> None:
    """002/2004 art. 1(2)(1), 2(1): the handle (the default) or the electric shaker; what the
    round's paytable says is in force is where StartRound's activation can be checked."""
    history = propose(macau_table(), {"activation": "electric"})
    history = approve(history, "macau-2004@v1?activation=electric", WEDNESDAY)
    [started] = when(
        history, command(StartRound, "dealer", round=1, tumbles=3), at=macau(WEDNESDAY)
    )
    assert isinstance(started, RoundStarted)
    assert parse_paytable_ref(started.paytable).choice("activation") == "electric"
    assert PROFILE.paytable().choice("activation") == "handle"


def test_taking_odd_and_even_off_the_layout_leaves_nothing_to_acknowledge_002_2004_art_5() -> None:
    """002/2004 art. 5(7)(8) are options: without them the paytable has a house edge on every
    bet, so the approval acknowledges none (RULES.md "Triples")."""
    history = propose(macau_table(), {"offer-odd": "no", "offer-even": "no"})
    [proposed] = history[-1:]
    assert isinstance(proposed, PaytableProposed)
    assert proposed.no_house_edge == []
    ref = "macau-2004@v1?offer-even=no&offer-odd=no"
    [approved] = approve(history, ref, WEDNESDAY, acknowledged=[])[-1:]
    assert isinstance(approved, PaytableApproved) and approved.no_house_edge == []
    offered = {b.id for b in parse_paytable_ref(ref).offered_bets()}
    assert "odd" not in offered and "even" not in offered and "big" in offered


@pytest.mark.parametrize("reference", ["", "   "])
def test_the_regulators_reference_is_required_002_2004_art_8(reference: str) -> None:
    """須先獲得博彩監察協調局許可: the approval records the DICJ's permission."""
    history = propose(macau_table(), {"total-5-16": 24})
    refused(
        history,
        approve_command("macau-2004@v1?total-5-16=24", WEDNESDAY, reference=reference),
        match=r"^regulator_reference: none given .*permission of the DICJ.*\(002/2004 art\. 8\)$",
        at=macau(TUESDAY),
    )


def test_the_regulators_reference_is_recorded_on_the_approval_002_2004_art_8() -> None:
    history = propose(macau_table(), {"total-5-16": 24})
    ref = "macau-2004@v1?total-5-16=24"
    [approved] = approve(history, ref, WEDNESDAY, reference=f"  {PERMIT} ")[-1:]
    assert isinstance(approved, PaytableApproved)
    assert approved.regulator_reference == PERMIT
    assert approved.no_house_edge == ODD_EVEN


def test_a_named_option_outside_its_values_is_refused_002_2004_art_2_1() -> None:
    cmd = command(
        ProposePaytable,
        "operator",
        choices={"activation": "foot-pedal"},
        applied_on=TUESDAY,
    )
    refused(
        macau_table(),
        cmd,
        "choices: choice 'activation' of 'macau-2004' is one of handle, electric, got"
        " 'foot-pedal' (002/2004 art. 1(2)(1), art. 2(1))",
        at=macau(TUESDAY),
    )
