"""A sign's lines for single bet kinds (000 §4.1): opening with them, changing them (000 §4.3),
and a player's own sign (000 §4.4)."""

import pytest

from sicbo_contracts.base import KindLimits, Limits
from sicbo_contracts.lifecycle import (
    ChangeLimits,
    LimitsChanged,
    LimitsNoticePosted,
    OpenTable,
    OverridePlayerLimits,
    PostLimitsNotice,
    TableOpened,
)
from tests.support.common import at, command, event
from tests.support.lifecycle import config, given, refused, table_opened, when

#: The table sign of table_opened(), 10 to 1,000, with triples capped at 100.
TRIPLES_CAPPED = Limits(minimum=10, maximum=1_000, by_kind={"triple": KindLimits(maximum=100)})
#: The same with triples from 50.
TRIPLES_RAISED = Limits(
    minimum=10, maximum=1_000, by_kind={"triple": KindLimits(minimum=50, maximum=100)}
)


def notice(limits: Limits, *, posted: float, effective: float) -> LimitsNoticePosted:
    return event(
        LimitsNoticePosted, "supervisor", at=at(posted), limits=limits, effective_at=at(effective)
    )


def change(limits: Limits) -> ChangeLimits:
    return command(ChangeLimits, "supervisor", limits=limits, reason="new sign")


def opened(limits: Limits) -> TableOpened:
    return table_opened(limits=limits)


# ---- the sign (000 §4.1) -------------------------------------------------------------------------


def test_a_table_opens_with_a_line_for_triples_000_4_1() -> None:
    cmd = command(OpenTable, "operator", config=config(limits=TRIPLES_CAPPED))
    [opened_event] = when([], cmd)
    assert isinstance(opened_event, TableOpened)
    assert opened_event.config.limits.by_kind == {"triple": KindLimits(maximum=100)}


def test_a_line_for_no_bet_kind_is_refused_naming_it_000_4_1() -> None:
    sign = Limits(minimum=10, maximum=1_000, by_kind={"tripel": KindLimits(maximum=100)})
    cmd = command(OpenTable, "operator", config=config(limits=sign))
    refused([], cmd, "config.limits.by_kind['tripel']:", "not a bet kind", "triple")


def test_a_line_for_a_bet_the_profile_does_not_offer_is_refused() -> None:
    sign = Limits(minimum=10, maximum=1_000, by_kind={"odd": KindLimits(maximum=100)})
    cmd = command(OpenTable, "operator", config=config("cca-1992", limits=sign))
    refused([], cmd, "config.limits.by_kind['odd']:", "'cca-1992' does not offer")


def test_a_line_with_neither_bound_is_refused_000_4_1() -> None:
    sign = Limits(minimum=10, maximum=1_000, by_kind={"big": KindLimits()})
    refused(opened(TRIPLES_CAPPED), change(sign), "limits.by_kind['big']:", "a minimum, a maximum")


def test_a_line_whose_minimum_is_above_the_maximum_it_keeps_is_refused_000_4_1() -> None:
    """The triple line's minimum 2,000 with the sign's maximum 1,000: no stake fits."""
    sign = Limits(minimum=10, maximum=1_000, by_kind={"triple": KindLimits(minimum=2_000)})
    refused(
        opened(TRIPLES_CAPPED),
        command(PostLimitsNotice, "supervisor", limits=sign, effective_at=at(30)),
        "limits.by_kind['triple']:",
        "from 2000 up to 1000",
        "000 §4.1",
    )


def test_a_line_may_allow_a_kind_more_than_the_sign_000_4_1() -> None:
    sign = Limits(minimum=10, maximum=1_000, by_kind={"big": KindLimits(maximum=50_000)})
    [changed] = when(opened(TRIPLES_CAPPED), change(sign))
    assert isinstance(changed, LimitsChanged) and changed.after == sign


# ---- changing the lines (000 §4.3) -------------------------------------------------------------


def test_lowering_a_kinds_maximum_takes_effect_at_once_000_4_3() -> None:
    lower = Limits(minimum=10, maximum=1_000, by_kind={"triple": KindLimits(maximum=50)})
    assert when(opened(TRIPLES_CAPPED), change(lower)) == [
        event(LimitsChanged, "supervisor", before=TRIPLES_CAPPED, after=lower, reason="new sign")
    ]


def test_raising_a_kinds_minimum_without_a_sign_is_refused_000_4_3() -> None:
    raised = TRIPLES_RAISED
    refused(
        opened(TRIPLES_CAPPED),
        change(raised),
        "raising the minimum of triple from 10 to 50",
        "000 §4.3",
        "no sign for that minimum",
    )


def test_raising_a_kinds_minimum_after_a_sign_of_it_shown_20_minutes_000_4_3() -> None:
    raised = TRIPLES_RAISED
    history = [opened(TRIPLES_CAPPED), notice(raised, posted=-20, effective=0)]
    assert when(history, change(raised))


def test_a_sign_of_the_table_minimum_alone_does_not_raise_a_kinds_minimum_000_4_3() -> None:
    """The notice shows triples at the sign's 10; the change puts them at 50."""
    raised = TRIPLES_RAISED
    history = [opened(TRIPLES_CAPPED), notice(TRIPLES_CAPPED, posted=-60, effective=-30)]
    refused(history, change(raised), "minimum of triple from 10 to 50", "no sign")


def test_removing_a_kinds_lower_minimum_raises_it_000_4_3() -> None:
    """Triples from 5 while the sign starts at 10: without their line they start at 10."""
    low = Limits(minimum=10, maximum=1_000, by_kind={"triple": KindLimits(minimum=5)})
    refused(opened(low), change(Limits(minimum=10, maximum=1_000)), "triple from 5 to 10")


def test_raising_the_sign_minimum_needs_no_sign_for_kinds_with_their_own_000_4_3() -> None:
    """Triples keep their own minimum 50: the notice need show only the sign's new 25."""
    before = Limits(minimum=10, maximum=1_000, by_kind={"triple": KindLimits(minimum=50)})
    after = Limits(minimum=25, maximum=1_000, by_kind={"triple": KindLimits(minimum=50)})
    shown = Limits(minimum=25, maximum=1_000)  # triples at 25 on the notice: not raised anyway
    refused(opened(before), change(after), "raising the minimum from 10 to 25", "no sign")
    history = [opened(before), notice(shown, posted=-20, effective=0)]
    assert when(history, change(after))


def test_a_notice_of_kinds_minimums_serves_one_raise_000_4_3() -> None:
    raised = TRIPLES_RAISED
    history = [opened(TRIPLES_CAPPED), notice(raised, posted=-60, effective=-40)]
    history += when(history, change(raised))
    history += when(history, change(TRIPLES_CAPPED))
    assert given(history).limits_notices == ()
    refused(history, change(raised), "no sign")


# ---- a player's own sign (000 §4.4) ------------------------------------------------------------


def test_a_players_own_sign_may_have_lines_000_4_4() -> None:
    vip = Limits(minimum=10, maximum=50_000, by_kind={"triple": KindLimits(maximum=1_000)})
    cmd = command(OverridePlayerLimits, "supervisor", player="p7", limits=vip, reason="VIP")
    assert given(opened(TRIPLES_CAPPED), when(opened(TRIPLES_CAPPED), cmd)).player_limits == {
        "p7": vip
    }


@pytest.mark.parametrize("kind", ["lucky", "odd"])
def test_a_players_own_sign_is_checked_like_the_table_sign_000_4_4(kind: str) -> None:
    vip = Limits(minimum=10, maximum=50_000, by_kind={kind: KindLimits(maximum=1_000)})
    cmd = command(OverridePlayerLimits, "supervisor", player="p7", limits=vip, reason="VIP")
    refused(opened(TRIPLES_CAPPED), cmd, f"limits.by_kind['{kind}']:", "player 'p7'")


def test_a_players_higher_minimum_for_a_kind_needs_no_notice_000_4_4() -> None:
    """000 §4.3's notice is for the table's limits; a player's own sign is theirs (§4.4)."""
    own = Limits(minimum=10, maximum=50_000, by_kind={"big": KindLimits(minimum=500)})
    cmd = command(OverridePlayerLimits, "supervisor", player="p7", limits=own, reason="VIP")
    assert when(opened(TRIPLES_CAPPED), cmd)
