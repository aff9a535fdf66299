"""Which paytable a table plays under, and the regulator's notice period (002/2004 art. 8).

002/2004 art. 8: adopting the optional choices (e.g. the 5/16 and 6/15 pays of art. 6(6))
needs the regulator's prior authorisation, applied for "three working days before the planned
adoption date" (應於預定採用日期前三個工作天提交申請書). A table plays an approved paytable
for the rounds started on or after its adoption date; before that, the profile's default.
"""

from collections.abc import Iterable
from datetime import date, timedelta
from fractions import Fraction

from sicbo.game.profiles import Profile
from sicbo.lifecycle.state import Approval

#: 002/2004 art. 8.
NOTICE_WORKING_DAYS = 3


def is_working_day(day: date) -> bool:
    """Monday to Friday. Public holidays are NOT modelled: no holiday calendar is given by the
    sources, so a holiday on a weekday counts as a working day here."""
    return day.weekday() < 5


def add_working_days(day: date, count: int) -> date:
    """The date ``count`` working days after ``day`` (applied on a Friday, 3 -> Wednesday)."""
    while count > 0:
        day += timedelta(days=1)
        if is_working_day(day):
            count -= 1
    return day


def earliest_adoption(applied_on: date) -> date:
    return add_working_days(applied_on, NOTICE_WORKING_DAYS)


def default_ref(profile: Profile) -> str:
    """The profile's own paytable (no operator choices): ``<profile>@v<version>``."""
    return profile.paytable().ref


def same_profile(ref: str, profile: Profile) -> bool:
    """A paytable ref of this exact profile document (id and version)."""
    return ref.partition("?")[0] == default_ref(profile)


def paytable_in_force(approvals: Iterable[Approval], profile: Profile, day: date) -> str:
    """The paytable of rounds started on ``day``: the approved one of this profile with the
    latest adoption date on or before ``day`` (a later approval wins a tie), else the default."""
    best: Approval | None = None
    for approval in approvals:
        if not same_profile(approval.paytable, profile) or approval.adoption_date > day:
            continue
        if best is None or approval.adoption_date >= best.adoption_date:
            best = approval
    return best.paytable if best is not None else default_ref(profile)


def exact_ratio(value: Fraction) -> str:
    """An exact RTP as "N/D" (1 is "1/1")."""
    return f"{value.numerator}/{value.denominator}"
