"""A table's days: its time zone and its working days (002/2004 art. 8).

002/2004 art. 8 counts "three working days" (三個工作天) before the adoption date, and a day
is the table's own: a Macau table's Wednesday starts at 00:00 in Macau (16:00 UTC the day
before). Both come from the table's configuration as it was opened (``TableConfig.time_zone``,
else the profile's; ``TableConfig.holidays``), so the decider gets them from the log as data
and a replay of the log counts the same days.

Working days are Monday to Friday, less the listed holidays (the regulator's days off: the
public holidays of the table's jurisdiction). An application handed in on a day that is not a
working day counts from the next working day (the office receives it then).
"""

from dataclasses import dataclass
from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sicbo.game.profiles import Profile
from sicbo_contracts.lifecycle import TableConfig


class UnknownTimeZone(ValueError):
    pass


@dataclass(frozen=True, slots=True)
class TableCalendar:
    zone: ZoneInfo
    holidays: frozenset[date] = frozenset()

    @property
    def name(self) -> str:
        return self.zone.key

    def day_of(self, at: datetime) -> date:
        """The table's date at the instant ``at`` (an aware time, as the shell gives it)."""
        return at.astimezone(self.zone).date()

    def is_working_day(self, day: date) -> bool:
        return day.weekday() < 5 and day not in self.holidays

    def next_working_day(self, day: date) -> date:
        """``day`` itself if it is a working day, else the first working day after it."""
        while not self.is_working_day(day):
            day += timedelta(days=1)
        return day

    def add_working_days(self, day: date, count: int) -> date:
        """The ``count``-th working day after ``day`` (from a Friday, 3 -> Wednesday)."""
        while count > 0:
            day += timedelta(days=1)
            if self.is_working_day(day):
                count -= 1
        return day

    def earliest_adoption(self, applied_on: date, notice_working_days: int) -> date:
        """The first day whose ``notice_working_days``-th working day before is not before
        the application (received on ``applied_on``, or the next working day after it)."""
        return self.add_working_days(self.next_working_day(applied_on), notice_working_days)

    def skipped(self, start: date, end: date) -> list[date]:
        """The listed holidays on weekdays after ``start`` up to ``end``: what a refusal shows
        to explain its count."""
        return sorted(d for d in self.holidays if start < d <= end and d.weekday() < 5)


def zone_of(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a folder ("Asia")
        raise UnknownTimeZone(f"{name!r} is not a known IANA time zone") from None


def table_calendar(config: TableConfig, profile: Profile) -> TableCalendar:
    """The calendar of a table opened with ``config`` under ``profile``."""
    return TableCalendar(
        zone=zone_of(config.time_zone or profile.time_zone), holidays=frozenset(config.holidays)
    )
