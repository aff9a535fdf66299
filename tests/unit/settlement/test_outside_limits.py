"""000 §4.2: a wager outside the stated limits, not rejected before the cover of the tumbler is
removed, is a valid wager: settlement pays it like any other."""

from sicbo.settlement.engine import wager_results
from sicbo_contracts.base import KindLimits, Limits
from sicbo_contracts.lifecycle import LimitsChanged
from sicbo_contracts.settlement import WagerOutcome
from tests.support.common import SUPERVISOR, at, event
from tests.support.log import Log, sign
from tests.support.wagers import chips


def test_a_wager_above_the_limits_in_force_at_the_uncover_is_paid_000_4_2() -> None:
    """Big 100,000 at the sign's maximum; the sign comes down to 1,000 (big: 500) before the
    cover is removed; 4-5-6 pays it even money in full."""
    log = Log().start(1)
    log.slip(1, "p1", chips("big", 100_000), chips("triple:6", 50_000))
    lowered = Limits(minimum=10, maximum=1_000, by_kind={"big": KindLimits(maximum=500)})
    log.add(
        event(LimitsChanged, SUPERVISOR, at=at(30), before=sign(1), after=lowered, reason="sign")
    )
    log.close(1)
    log.confirm(1, (4, 5, 6))
    big, triple = wager_results(log.facts(1))
    assert (big.outcome, big.winnings, big.returned) == (WagerOutcome.WIN, 100_000, 200_000)
    assert (triple.outcome, triple.returned) == (WagerOutcome.LOSE, 0)
