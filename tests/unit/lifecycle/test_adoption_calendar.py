"""002/2004 art. 8: "三個工作天" counted on the table's own calendar: its time zone (Asia/Macau
for a Macau table, or the one its configuration names) and Monday to Friday less its listed
holidays. Monday 2024-06-10 stands for a listed public holiday (the Dragon Boat Festival)."""

from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import msgspec
import pytest

from sicbo.lifecycle.calendar import TableCalendar
from sicbo_contracts.lifecycle import (
    LifecycleEvent,
    OpenTable,
    PaytableApproved,
    ProposePaytable,
    RoundStarted,
    StartRound,
)
from tests.support.common import Fact, command
from tests.support.lifecycle import config, refused, when
from tests.support.paytables import (
    DEFAULT,
    FRIDAY,
    MONDAY,
    SATURDAY,
    THURSDAY,
    TUESDAY,
    WEDNESDAY,
    approve,
    approve_command,
    macau,
    macau_table,
    propose,
)

SIXTEEN = "macau-2004@v1?total-6-15=16"
#: 23:30 UTC on Tuesday is 07:30 on Wednesday in Macau.
TUESDAY_2330_UTC = datetime(2024, 6, 11, 23, 30, tzinfo=UTC)
MACAU_CALENDAR = TableCalendar(ZoneInfo("Asia/Macau"), frozenset({MONDAY}))


@pytest.mark.parametrize(
    ("applied", "holidays", "earliest"),
    [
        (FRIDAY, (), WEDNESDAY),  # Mon, Tue, Wed
        (MONDAY, (), THURSDAY),  # Tue, Wed, Thu
        (WEDNESDAY, (), date(2024, 6, 17)),  # Thu, Fri, (weekend), Mon
        (SATURDAY, (), THURSDAY),  # received Monday: Tue, Wed, Thu
        (FRIDAY, (MONDAY,), THURSDAY),  # the holiday is not counted: Tue, Wed, Thu
        (SATURDAY, (MONDAY,), date(2024, 6, 14)),  # received Tuesday: Wed, Thu, Fri
    ],
)
def test_three_working_days_skip_weekends_and_listed_holidays_002_2004_art_8(
    applied: date, holidays: tuple[date, ...], earliest: date
) -> None:
    calendar = TableCalendar(ZoneInfo("Asia/Macau"), frozenset(holidays))
    assert calendar.earliest_adoption(applied, 3) == earliest


def test_a_weekend_and_a_listed_holiday_are_not_counted_002_2004_art_8() -> None:
    """Applied Friday, Monday a holiday: Wednesday is refused, Thursday is the earliest."""
    history = propose(macau_table(holidays=[MONDAY]), {"total-6-15": 16})
    refused(
        history,
        approve_command(SIXTEEN, WEDNESDAY, acknowledged=["even", "odd"]),
        match=r"can be adopted on Thu 2024-06-13 at the earliest, not Wed 2024-06-12.*"
        r"\(002/2004 art\. 8; working days are Mon-Fri at Asia/Macau, not counting the"
        r" holiday\(s\) 2024-06-10\)",
        at=macau(TUESDAY),
    )
    [approved] = approve(history, SIXTEEN, THURSDAY, at=macau(TUESDAY))[-1:]
    assert isinstance(approved, PaytableApproved) and approved.adoption_date == THURSDAY


def test_without_the_holiday_listed_the_same_wednesday_is_allowed_002_2004_art_8() -> None:
    history = propose(macau_table(), {"total-6-15": 16})
    [approved] = approve(history, SIXTEEN, WEDNESDAY, at=macau(TUESDAY))[-1:]
    assert isinstance(approved, PaytableApproved) and approved.adoption_date == WEDNESDAY


def applied_wednesday_before() -> list[Fact]:
    """Applied for on Wednesday 2024-06-05: adoption from Monday 2024-06-10 on."""
    return propose(macau_table(), {"total-6-15": 16}, applied_on=date(2024, 6, 5))


def test_an_approval_at_2330_utc_is_already_the_next_day_in_macau_002_2004_art_8() -> None:
    """Tuesday 23:30 UTC is Wednesday 07:30 in Macau: a Tuesday adoption would be retroactive."""
    refused(
        applied_wednesday_before(),
        approve_command(SIXTEEN, TUESDAY),
        "adoption date 2024-06-11 is before the approval (2024-06-12 at Asia/Macau)",
        at=TUESDAY_2330_UTC,
    )


def test_a_table_in_utc_counts_the_same_instant_as_tuesday() -> None:
    """The table's own time zone decides (TableConfig.time_zone): in UTC it is still Tuesday."""
    history = propose(macau_table(time_zone="UTC"), {"total-6-15": 16}, applied_on=date(2024, 6, 5))
    [approved] = approve(history, SIXTEEN, TUESDAY, at=TUESDAY_2330_UTC)[-1:]
    assert isinstance(approved, PaytableApproved) and approved.adoption_date == TUESDAY


def test_a_round_started_at_2330_utc_plays_the_next_macau_days_paytable_002_2004_art_8() -> None:
    history = approve(applied_wednesday_before(), SIXTEEN, WEDNESDAY, at=macau(TUESDAY))
    start = command(StartRound, "dealer", round=1, tumbles=3)
    [started] = when(history, start, at=TUESDAY_2330_UTC)
    assert isinstance(started, RoundStarted) and started.paytable == SIXTEEN
    [earlier] = when(history, start, at=macau(TUESDAY, 23, 59))
    assert isinstance(earlier, RoundStarted) and earlier.paytable == DEFAULT


def test_an_application_made_on_a_macau_saturday_is_not_in_the_future_002_2004_art_8() -> None:
    """Friday 23:30 UTC is Saturday 07:30 in Macau: an application of that Saturday is today's,
    and counts from Monday (the regulator's next working day)."""
    friday_2330_utc = datetime(2024, 6, 7, 23, 30, tzinfo=UTC)
    history = propose(macau_table(), {"total-6-15": 16}, applied_on=SATURDAY, at=friday_2330_utc)
    refused(history, approve_command(SIXTEEN, WEDNESDAY), "Thu 2024-06-13 at the earliest")
    in_utc = macau_table(time_zone="UTC")
    refused(
        in_utc,
        propose_command_saturday(),
        "applied_on 2024-06-08 is in the future (today is 2024-06-07 at UTC)",
        at=friday_2330_utc,
    )


def propose_command_saturday() -> ProposePaytable:
    return command(ProposePaytable, "operator", choices={"total-6-15": 16}, applied_on=SATURDAY)


def test_an_unknown_time_zone_is_refused_naming_the_field() -> None:
    cmd = command(OpenTable, "operator", config=config("macau-2004", time_zone="Mars/Olympus"))
    refused([], cmd, "config.time_zone: 'Mars/Olympus' is not a known IANA time zone")


def test_the_calendar_day_and_working_days() -> None:
    assert MACAU_CALENDAR.day_of(TUESDAY_2330_UTC) == WEDNESDAY
    assert not MACAU_CALENDAR.is_working_day(MONDAY)  # listed
    assert not MACAU_CALENDAR.is_working_day(SATURDAY)
    assert MACAU_CALENDAR.next_working_day(SATURDAY) == TUESDAY
    assert MACAU_CALENDAR.add_working_days(FRIDAY, 0) == FRIDAY


def test_an_approval_logged_before_the_reference_existed_still_decodes() -> None:
    old = (
        b'{"type":"paytable.approved.v1","table":"T1","actor":{"id":"s","role":"supervisor"},'
        b'"at":"2024-06-10T02:00:00Z","paytable":"macau-2004@v1?total-5-16=30",'
        b'"adoption_date":"2024-06-12"}'
    )
    approved = msgspec.json.decode(old, type=LifecycleEvent)
    assert isinstance(approved, PaytableApproved) and approved.regulator_reference == ""
