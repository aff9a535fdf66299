"""Adopting a profile's optional choices (002/2004 art. 8): a Macau table, its application
and the regulator's approval, at Macau times.

The week of Friday 2024-06-07: a Macau table's days are Macau's (UTC+8), so the builders take
a day and a Macau wall-clock time (10:00 unless told) and give the UTC instant.
"""

from collections.abc import Iterable, Mapping
from datetime import UTC, date, datetime, time
from typing import Any
from zoneinfo import ZoneInfo

from sicbo_contracts.lifecycle import ApprovePaytable, ProposePaytable
from tests.support.common import Fact, Who, command
from tests.support.lifecycle import table_opened, when

MACAU = ZoneInfo("Asia/Macau")
FRIDAY = date(2024, 6, 7)
SATURDAY = date(2024, 6, 8)
MONDAY, TUESDAY, WEDNESDAY = date(2024, 6, 10), date(2024, 6, 11), date(2024, 6, 12)
THURSDAY = date(2024, 6, 13)
DEFAULT = "macau-2004@v1"
#: A reference of the regulator's permission, as its letter would give it.
PERMIT = "DICJ/2024/0417"
#: macau-2004's odd and even have no house edge (002/2004 art. 7; RULES.md "Triples").
ODD_EVEN = ["even", "odd"]


def macau(day: date, hh: int = 10, mm: int = 0) -> datetime:
    """The UTC instant of ``hh:mm`` on ``day`` in Macau."""
    return datetime.combine(day, time(hh, mm), tzinfo=MACAU).astimezone(UTC)


def macau_table(*, holidays: Iterable[date] = (), **layout: Any) -> list[Fact]:
    """A macau-2004 table opened ten days before the week (no approval yet)."""
    return [table_opened("macau-2004", at=macau(date(2024, 5, 28)), holidays=holidays, **layout)]


def propose(
    history: list[Fact],
    choices: Mapping[str, int | str],
    *,
    applied_on: date = FRIDAY,
    at: datetime | None = None,
) -> list[Fact]:
    """``history`` and the operator's application for ``choices``, handed in on
    ``applied_on`` (recorded at 10:00 Macau that day unless told)."""
    cmd = command(ProposePaytable, "operator", choices=dict(choices), applied_on=applied_on)
    return [*history, *when(history, cmd, at=at or macau(applied_on))]


def approve_command(
    paytable: str,
    adoption: date,
    *,
    who: Who = "supervisor",
    acknowledged: Iterable[str] = ODD_EVEN,
    reference: str = PERMIT,
) -> ApprovePaytable:
    return command(
        ApprovePaytable,
        who,
        paytable=paytable,
        adoption_date=adoption,
        acknowledged_no_house_edge=list(acknowledged),
        regulator_reference=reference,
    )


def approve(
    history: list[Fact],
    paytable: str,
    adoption: date,
    *,
    at: datetime | None = None,
    **fields: Any,
) -> list[Fact]:
    """``history`` and the approval of ``paytable`` from ``adoption`` (recorded at 10:00
    Macau on Monday unless told)."""
    cmd = approve_command(paytable, adoption, **fields)
    return [*history, *when(history, cmd, at=at or macau(MONDAY))]
