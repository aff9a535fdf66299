"""Adopting optional pays needs the regulator's prior authorisation, applied for three working
days before the adoption date (002/2004 art. 8); the pays are those of 002/2004 art. 6(6).
The table's days are Macau's (tests/support/paytables.py gives Macau times)."""

from datetime import date

from sicbo.lifecycle.state import Approval, Phase, RoundState
from sicbo_contracts.lifecycle import (
    OpenTable,
    PaytableApproved,
    PaytableProposed,
    ProposePaytable,
    RoundStarted,
    StartRound,
    TableClosed,
    TableOpened,
)
from tests.support.common import Fact, command, event
from tests.support.lifecycle import config, given, refused, round_through, table_opened, when
from tests.support.paytables import (
    DEFAULT,
    FRIDAY,
    MONDAY,
    ODD_EVEN,
    PERMIT,
    THURSDAY,
    TUESDAY,
    WEDNESDAY,
    approve,
    approve_command,
    macau,
    macau_table,
    propose,
)

THIRTY = "macau-2004@v1?total-5-16=30"


def proposed_thirty() -> list[Fact]:
    """total-5-16 at 30 to 1, applied for on Friday 2024-06-07."""
    return propose(macau_table(), {"total-5-16": 30})


def approved_thirty(adoption: date = WEDNESDAY) -> list[Fact]:
    return approve(proposed_thirty(), THIRTY, adoption)


def test_operator_proposes_total_5_16_at_30_to_1_002_2004_art_6_6() -> None:
    [proposed] = proposed_thirty()[-1:]
    assert proposed == event(
        PaytableProposed,
        "operator",
        at=macau(FRIDAY),
        paytable=THIRTY,
        choices={"total-5-16": 30},
        applied_on=FRIDAY,
        max_rtp="1/1",  # odd/even pay 1 to 1 and win 108 of 216 (002/2004 art. 7)
        no_house_edge=ODD_EVEN,
    )
    assert given(proposed_thirty()).proposals[THIRTY].applied_on == FRIDAY


def test_a_pay_outside_the_range_is_refused_002_2004_art_6_6() -> None:
    refused(
        macau_table(),
        propose_cmd({"total-5-16": 31}),
        match=r"^choices: .*pays 18 to 30 to 1, got 31 \(002/2004 art\. 6\(6\)\)",
    )
    refused(macau_table(), propose_cmd({"total-6-15": 13}), "pays 14 to 18 to 1, got 13")


def propose_cmd(choices: dict[str, int | str]) -> ProposePaytable:
    return command(ProposePaytable, "operator", choices=choices, applied_on=FRIDAY)


def test_an_unknown_choice_is_refused() -> None:
    refused(macau_table(), propose_cmd({"total-4-17": 60}), "has no choice 'total-4-17'")


def test_a_profile_without_options_has_nothing_to_propose() -> None:
    refused(table_opened("cca-1992"), propose_cmd({}), "'cca-1992' has no optional choices")


def test_approval_three_working_days_after_a_friday_application_is_wednesday_002_2004_art_8() -> (
    None
):
    """Applied Friday -> Mon, Tue, Wed: Wednesday is the earliest adoption date."""
    assert approved_thirty()[-1] == event(
        PaytableApproved,
        "supervisor",
        at=macau(MONDAY),
        paytable=THIRTY,
        adoption_date=WEDNESDAY,
        no_house_edge=ODD_EVEN,
        regulator_reference=PERMIT,
    )
    assert given(approved_thirty()).approvals == (Approval(THIRTY, WEDNESDAY, PERMIT),)


def test_adoption_too_early_is_refused_with_the_earliest_date_002_2004_art_8() -> None:
    refused(
        proposed_thirty(),
        approve_command(THIRTY, TUESDAY),
        match=r"applied for on Fri 2024-06-07.*Wed 2024-06-12 at the earliest, not Tue 2024-06-11"
        r".*3 working days before the adoption date \(002/2004 art\. 8; working days are"
        r" Mon-Fri at Asia/Macau\)",
        at=macau(MONDAY),
    )


def test_approval_must_acknowledge_the_bets_with_no_house_edge() -> None:
    """RULES.md "Triples": odd/even under macau-2004 have no house edge; shown loudly."""
    refused(
        proposed_thirty(),
        approve_command(THIRTY, WEDNESDAY, acknowledged=[]),
        match=r"NO HOUSE EDGE on: even, odd \(max RTP 1/1\).*acknowledged: none",
        at=macau(MONDAY),
    )
    partial = approve_command(THIRTY, WEDNESDAY, acknowledged=["odd"])
    refused(proposed_thirty(), partial, "acknowledged: odd", at=macau(MONDAY))


def test_only_a_proposed_paytable_can_be_approved_002_2004_art_8() -> None:
    cmd = approve_command("macau-2004@v1?total-6-15=18", WEDNESDAY)
    refused(proposed_thirty(), cmd, "never proposed", at=macau(MONDAY))


def test_an_authorisation_is_prior_never_retroactive_002_2004_art_8() -> None:
    cmd = approve_command(THIRTY, WEDNESDAY)
    refused(
        proposed_thirty(),
        cmd,
        "before the approval (2024-06-13 at Asia/Macau)",
        "authorisation comes before adoption",
        at=macau(THURSDAY),
    )


def start_on(history: list[Fact], number: int, hh: int, day: date) -> RoundStarted:
    [started] = when(
        history, command(StartRound, "dealer", round=number, tumbles=3), at=macau(day, hh)
    )
    assert isinstance(started, RoundStarted)
    return started


def test_the_approved_paytable_is_used_only_from_its_adoption_date_002_2004_art_8() -> None:
    history = approved_thirty()
    tuesday = start_on(history, 1, 23, TUESDAY)  # 23:00 Tuesday in Macau
    assert tuesday.paytable == DEFAULT  # the 2003 values still (RULES.md)
    history = [*history, tuesday, *round_through(1, Phase.COMPLETED)[1:]]
    wednesday = start_on(history, 2, 0, WEDNESDAY)  # 00:00 Wednesday in Macau
    assert wednesday.paytable == THIRTY
    assert given(history, [wednesday]).round == RoundState(
        number=2, paytable=THIRTY, started_at=macau(WEDNESDAY, 0), tumbles=3
    )


def test_a_table_opened_on_or_after_the_adoption_date_records_the_approved_paytable() -> None:
    history = [*approved_thirty(), event(TableClosed, "supervisor", at=macau(TUESDAY))]
    open_table = command(OpenTable, "operator", config=config("macau-2004"))
    assert when(history, open_table, at=macau(WEDNESDAY)) == [
        event(
            TableOpened,
            "operator",
            at=macau(WEDNESDAY),
            config=config("macau-2004"),
            paytable=THIRTY,
        )
    ]
    [before] = when(history, open_table, at=macau(TUESDAY, 23, 59))
    assert isinstance(before, TableOpened) and before.paytable == DEFAULT


def test_a_paytable_of_another_profile_is_not_used() -> None:
    """An approval belongs to its profile: a table reopened under another profile ignores it."""
    history = [*approved_thirty(), event(TableClosed, "supervisor", at=macau(TUESDAY))]
    open_table = command(OpenTable, "operator", config=config("macau-2003"))
    [opened] = when(history, open_table, at=macau(WEDNESDAY))
    assert isinstance(opened, TableOpened) and opened.paytable == "macau-2003@v1"


def test_an_application_dated_in_the_future_is_refused_002_2004_art_8() -> None:
    """A proposal dated after today could never be approved (its adoption date would overflow
    the calendar for 9999-12-31): the application must already have been made."""
    cmd = command(
        ProposePaytable, "operator", choices={"total-5-16": 24}, applied_on=date(9999, 12, 31)
    )
    refused(macau_table(), cmd, "in the future", at=macau(FRIDAY))
