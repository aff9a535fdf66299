"""Which paytable a table plays under (002/2004 art. 8).

002/2004 art. 8: adopting the optional choices of arts. 1, 2, 5 and 6 needs the regulator's
prior authorisation, applied for "three working days before the planned adoption date"
(應於預定採用日期前三個工作天提交申請書; the count is :mod:`sicbo.lifecycle.calendar`). A table
plays an approved paytable for the rounds started on or after its adoption date (a day of the
table's time zone); before that, the profile's default.
"""

from collections.abc import Iterable
from datetime import date
from fractions import Fraction

from sicbo.game.profiles import Profile
from sicbo.lifecycle.state import Approval


def default_ref(profile: Profile) -> str:
    """The profile's own paytable (no operator choices): ``<profile>@v<version>``."""
    return f"{profile.id}@v{profile.version}"  # Paytable.ref of no choices, not built each round


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
