"""004 "Ralat Pengendalian": no slip while the round is suspended; once the supervisor resumes
it, slips are taken again until the resumed countdown's new ``closes_at``.

The scene: round 1 of an online table suspended at EARLIER (five minutes ago) with 10 s of its
countdown left; its first deadline passed long ago. The resumption's events are the lifecycle
decider's own.
"""

from datetime import timedelta

from sicbo_contracts.resumption import ResumeRound
from tests.support.common import NOW, Fact, command
from tests.support.lifecycle import suspended_while_betting
from tests.support.lifecycle import when as lifecycle_when
from tests.support.wagers import LIMITS, place, placed, refused, when


def suspended() -> list[Fact]:
    return suspended_while_betting(limits=LIMITS)


def resumed() -> list[Fact]:
    history = suspended()
    resume = command(ResumeRound, "supervisor", round=1, detail="stream back")
    return history + lifecycle_when(history, resume)


def test_004_no_slip_while_the_round_is_suspended() -> None:
    """Refused as suspended, not as late: the paused countdown's deadline no longer applies."""
    refused(suspended(), place(), "suspended", "supervisor resumes", "000 §7.7")


def test_004_slips_are_taken_again_after_the_resumption_until_the_new_closes_at() -> None:
    later = NOW + timedelta(seconds=9)  # long after the first deadline, within the resumed one
    assert when(resumed(), place(), at=later) == [placed(at=later)]


def test_004_the_resumed_countdown_ends_betting_at_its_new_closes_at() -> None:
    refused(resumed(), place(), "countdown ended", "004", at=NOW + timedelta(seconds=10))
