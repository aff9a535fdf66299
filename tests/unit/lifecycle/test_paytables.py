"""Adopting optional pays needs the regulator's prior authorisation, applied for three working
days before the adoption date (002/2004 art. 8); the choices are those of 002/2004 art. 6(6)."""

from datetime import date

import pytest

from sicbo.lifecycle.paytables import add_working_days, earliest_adoption
from sicbo.lifecycle.state import Phase, RoundState
from sicbo_contracts.lifecycle import (
    ApprovePaytable,
    OpenTable,
    PaytableApproved,
    PaytableProposed,
    ProposePaytable,
    RoundStarted,
    StartRound,
    TableClosed,
    TableOpened,
)
from tests.support.common import Fact, at, command, event
from tests.support.lifecycle import config, given, refused, round_through, table_opened, when

FRIDAY = date(2024, 6, 7)
MONDAY, TUESDAY, WEDNESDAY = date(2024, 6, 10), date(2024, 6, 11), date(2024, 6, 12)
THIRTY = "macau-2004@v1?total-5-16=30"
DEFAULT = "macau-2004@v1"


def macau_2004_table() -> list[Fact]:
    return [table_opened("macau-2004", at=at(-10 * 24 * 60))]  # opened ten days ago


def proposed_thirty() -> list[Fact]:
    """total-5-16 at 30 to 1, applied for on Friday 2024-06-07."""
    cmd = command(ProposePaytable, "operator", choices={"total-5-16": 30}, applied_on=FRIDAY)
    return [*macau_2004_table(), *when(macau_2004_table(), cmd, at=at(day=FRIDAY))]


def approved_thirty(adoption: date = WEDNESDAY) -> list[Fact]:
    cmd = command(
        ApprovePaytable,
        "supervisor",
        paytable=THIRTY,
        adoption_date=adoption,
        acknowledged_no_house_edge=["odd", "even"],
    )
    history = proposed_thirty()
    return [*history, *when(history, cmd, at=at(day=MONDAY))]


@pytest.mark.parametrize(
    ("applied", "earliest"),
    [
        (FRIDAY, WEDNESDAY),
        (MONDAY, date(2024, 6, 13)),  # Thursday
        (WEDNESDAY, date(2024, 6, 17)),  # next Monday
        (date(2024, 6, 8), WEDNESDAY),  # applied on a Saturday: Mon, Tue, Wed
    ],
)
def test_three_working_days_mon_to_fri_002_2004_art_8(applied: date, earliest: date) -> None:
    """Public holidays are not modelled: Monday to Friday are working days."""
    assert earliest_adoption(applied) == earliest
    assert add_working_days(applied, 0) == applied


def test_operator_proposes_total_5_16_at_30_to_1_002_2004_art_6_6() -> None:
    [proposed] = proposed_thirty()[-1:]
    assert proposed == event(
        PaytableProposed,
        "operator",
        at=at(day=FRIDAY),
        paytable=THIRTY,
        choices={"total-5-16": 30},
        applied_on=FRIDAY,
        max_rtp="1/1",  # odd/even pay 1 to 1 and win 108 of 216 (002/2004 art. 7)
        no_house_edge=["even", "odd"],
    )
    assert given(proposed_thirty()).proposals[THIRTY].applied_on == FRIDAY


def test_a_choice_outside_the_range_is_refused_002_2004_art_6_6() -> None:
    cmd = command(ProposePaytable, "operator", choices={"total-5-16": 31}, applied_on=FRIDAY)
    refused(macau_2004_table(), cmd, match=r"pays 18 to 30 to 1, got 31 \(002/2004 art\. 6\(6\)\)")


def test_an_unknown_choice_is_refused() -> None:
    cmd = command(ProposePaytable, "operator", choices={"total-4-17": 60}, applied_on=FRIDAY)
    refused(macau_2004_table(), cmd, "has no choice 'total-4-17'")


def test_a_profile_without_options_has_nothing_to_propose() -> None:
    cmd = command(ProposePaytable, "operator", choices={}, applied_on=FRIDAY)
    refused(table_opened("cca-1992"), cmd, "'cca-1992' has no optional pays")


def test_approval_three_working_days_after_a_friday_application_is_wednesday() -> None:
    """Applied Friday -> Mon, Tue, Wed: Wednesday is the earliest adoption date."""
    assert approved_thirty()[-1] == event(
        PaytableApproved,
        "supervisor",
        at=at(day=MONDAY),
        paytable=THIRTY,
        adoption_date=WEDNESDAY,
        no_house_edge=["even", "odd"],
    )


def test_adoption_on_tuesday_after_a_friday_application_is_refused_002_2004_art_8() -> None:
    cmd = command(
        ApprovePaytable,
        "operator",
        paytable=THIRTY,
        adoption_date=TUESDAY,
        acknowledged_no_house_edge=["even", "odd"],
    )
    refused(
        proposed_thirty(),
        cmd,
        match=r"applied for on Fri 2024-06-07.*Wed 2024-06-12 at the earliest, not Tue 2024-06-11"
        r".*three working days.*002/2004 art\. 8",
    )


def test_approval_must_acknowledge_the_bets_with_no_house_edge() -> None:
    """RULES.md "Triples": odd/even under macau-2004 have no house edge; shown loudly."""
    cmd = command(ApprovePaytable, "operator", paytable=THIRTY, adoption_date=WEDNESDAY)
    refused(
        proposed_thirty(),
        cmd,
        match=r"NO HOUSE EDGE on: even, odd \(max RTP 1/1\).*acknowledged: none",
    )
    partial = command(
        ApprovePaytable,
        "operator",
        paytable=THIRTY,
        adoption_date=WEDNESDAY,
        acknowledged_no_house_edge=["odd"],
    )
    refused(proposed_thirty(), partial, "acknowledged: odd")


def test_only_a_proposed_paytable_can_be_approved_002_2004_art_8() -> None:
    cmd = command(
        ApprovePaytable, "operator", paytable="macau-2004@v1?total-6-15=18", adoption_date=MONDAY
    )
    refused(proposed_thirty(), cmd, "never proposed")


def test_an_authorisation_is_prior_never_retroactive_002_2004_art_8() -> None:
    cmd = command(
        ApprovePaytable,
        "operator",
        paytable=THIRTY,
        adoption_date=WEDNESDAY,
        acknowledged_no_house_edge=["odd", "even"],
    )
    thursday = at(day=date(2024, 6, 13))
    refused(proposed_thirty(), cmd, "authorisation comes before adoption", at=thursday)


def start_on(history: list[Fact], day: date, number: int) -> RoundStarted:
    [started] = when(
        history, command(StartRound, "dealer", round=number, tumbles=3), at=at(day=day)
    )
    assert isinstance(started, RoundStarted)
    return started


def test_the_approved_paytable_is_used_only_from_its_adoption_date_002_2004_art_8() -> None:
    history = approved_thirty()
    tuesday = start_on(history, TUESDAY, 1)
    assert tuesday.paytable == DEFAULT  # the 2003 values still (RULES.md)
    history = [*history, tuesday, *round_through(1, Phase.COMPLETED)[1:]]
    assert start_on(history, WEDNESDAY, 2).paytable == THIRTY
    assert given(history, [start_on(history, WEDNESDAY, 2)]).round == RoundState(
        number=2, paytable=THIRTY, started_at=at(day=WEDNESDAY), tumbles=3
    )


def test_a_table_opened_on_or_after_the_adoption_date_records_the_approved_paytable() -> None:
    history = [*approved_thirty(), event(TableClosed, "supervisor", at=at(day=TUESDAY))]
    open_table = command(OpenTable, "operator", config=config("macau-2004"))
    assert when(history, open_table, at=at(day=WEDNESDAY)) == [
        event(
            TableOpened,
            "operator",
            at=at(day=WEDNESDAY),
            config=config("macau-2004"),
            paytable=THIRTY,
        )
    ]
    [before] = when(history, open_table, at=at(day=TUESDAY))
    assert isinstance(before, TableOpened) and before.paytable == DEFAULT


def test_a_paytable_of_another_profile_is_not_used() -> None:
    """An approval belongs to its profile: a table reopened under another profile ignores it."""
    history = [*approved_thirty(), event(TableClosed, "supervisor", at=at(day=TUESDAY))]
    open_table = command(OpenTable, "operator", config=config("macau-2003"))
    [opened] = when(history, open_table, at=at(day=WEDNESDAY))
    assert isinstance(opened, TableOpened) and opened.paytable == "macau-2003@v1"


def test_an_application_dated_in_the_future_is_refused_002_2004_art_8() -> None:
    """A proposal dated after today could never be approved (its adoption date would overflow
    the calendar for 9999-12-31): the application must already have been made."""
    history = [table_opened("macau-2004")]
    refused(
        history,
        command(
            ProposePaytable, "operator", choices={"total-5-16": 24}, applied_on=date(9999, 12, 31)
        ),
        "in the future",
    )
