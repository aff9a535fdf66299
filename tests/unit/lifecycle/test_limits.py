"""Table limits and their signs (000 §4.1, §4.3) and one player's override (000 §4.4)."""

from sicbo_contracts.base import Limits
from sicbo_contracts.lifecycle import (
    ChangeLimits,
    LimitsChanged,
    LimitsNoticePosted,
    OverridePlayerLimits,
    PlayerLimitsOverridden,
    PostLimitsNotice,
)
from tests.support.common import at, command, event
from tests.support.lifecycle import given, refused, table_opened, when

TABLE_SIGN = Limits(minimum=10, maximum=1_000)  # the table_opened() default
RAISED = Limits(minimum=25, maximum=1_000)


def notice(limits: Limits, *, posted: float, effective: float) -> LimitsNoticePosted:
    return event(
        LimitsNoticePosted, "supervisor", at=at(posted), limits=limits, effective_at=at(effective)
    )


def test_a_supervisor_posts_a_limits_notice_000_4_3() -> None:
    cmd = command(PostLimitsNotice, "supervisor", limits=RAISED, effective_at=at(20))
    assert when(table_opened(), cmd) == [notice(RAISED, posted=0, effective=20)]


def test_a_notice_with_a_minimum_above_its_maximum_is_refused_000_4_1() -> None:
    cmd = command(
        PostLimitsNotice, "supervisor", limits=Limits(minimum=50, maximum=40), effective_at=at(20)
    )
    refused(table_opened(), cmd, "minimum wager 50 is above the maximum 40")


def test_lowering_the_minimum_takes_effect_at_once_000_4_3() -> None:
    lower = Limits(minimum=5, maximum=1_000)
    cmd = command(ChangeLimits, "supervisor", limits=lower, reason="quiet night")
    assert when(table_opened(), cmd) == [
        event(LimitsChanged, "supervisor", before=TABLE_SIGN, after=lower, reason="quiet night")
    ]
    state = given(table_opened(), when(table_opened(), cmd))
    assert state.config is not None and state.config.limits == lower


def test_the_maximum_and_unit_change_at_any_time_000_4_3() -> None:
    new = Limits(minimum=10, maximum=5_000, unit=5)
    cmd = command(ChangeLimits, "supervisor", limits=new, reason="high rollers")
    [changed] = when(table_opened(), cmd)
    assert isinstance(changed, LimitsChanged)
    assert (changed.before, changed.after) == (TABLE_SIGN, new)


def test_raising_the_minimum_without_a_sign_is_refused_000_4_3() -> None:
    cmd = command(ChangeLimits, "supervisor", limits=RAISED, reason="busy")
    refused(table_opened(), cmd, match=r"raising the minimum from 10 to 25 .*000 §4\.3.*no sign")


def test_raising_the_minimum_after_a_sign_shown_19_minutes_is_refused_000_4_3() -> None:
    history = [table_opened(), notice(RAISED, posted=-19, effective=0)]
    cmd = command(ChangeLimits, "supervisor", limits=RAISED, reason="busy")
    refused(history, cmd, match=r"at least 20 minutes.*000 §4\.3")


def test_raising_the_minimum_after_a_sign_shown_20_minutes_is_allowed_000_4_3() -> None:
    history = [table_opened(), notice(RAISED, posted=-20, effective=0)]
    cmd = command(ChangeLimits, "supervisor", limits=RAISED, reason="busy")
    assert when(history, cmd) == [
        event(LimitsChanged, "supervisor", before=TABLE_SIGN, after=RAISED, reason="busy")
    ]


def test_raising_the_minimum_before_the_signs_time_of_change_is_refused_000_4_3() -> None:
    history = [table_opened(), notice(RAISED, posted=-30, effective=10)]
    cmd = command(ChangeLimits, "supervisor", limits=RAISED, reason="busy")
    refused(history, cmd, "that time reached")


def test_a_sign_for_another_minimum_does_not_allow_the_raise_000_4_3() -> None:
    history = [table_opened(), notice(Limits(minimum=20, maximum=1_000), posted=-60, effective=0)]
    cmd = command(ChangeLimits, "supervisor", limits=RAISED, reason="busy")
    refused(history, cmd, "no sign for that minimum")


def test_a_sign_serves_one_raise_only_000_4_3() -> None:
    """Raised to 25, lowered, raised to 25 again: the old sign came down with the first raise."""
    history = [table_opened(), notice(RAISED, posted=-60, effective=-40)]
    history += when(history, command(ChangeLimits, "supervisor", limits=RAISED, reason="r"))
    history += when(history, command(ChangeLimits, "supervisor", limits=TABLE_SIGN, reason="l"))
    refused(history, command(ChangeLimits, "supervisor", limits=RAISED, reason="r"), "no sign")


def test_changing_to_the_same_limits_is_refused() -> None:
    cmd = command(ChangeLimits, "supervisor", limits=TABLE_SIGN, reason="none")
    refused(table_opened(), cmd, "already 10-1000")


def test_a_players_own_sign_does_not_lower_the_table_minimum_000_4_4() -> None:
    low = Limits(minimum=5, maximum=50_000)
    cmd = command(OverridePlayerLimits, "supervisor", player="p7", limits=low, reason="VIP")
    refused(table_opened(), cmd, "limits.minimum: 5 is below the table minimum 10", "000 §4.4")


def test_a_supervisor_lets_one_player_over_the_table_maximum_000_4_4() -> None:
    vip = Limits(minimum=10, maximum=50_000)
    cmd = command(OverridePlayerLimits, "supervisor", player="p7", limits=vip, reason="VIP")
    first = when(table_opened(), cmd)
    assert first == [
        event(
            PlayerLimitsOverridden,
            "supervisor",
            player="p7",
            before=None,
            after=vip,
            reason="VIP",
        )
    ]
    higher = Limits(minimum=10, maximum=80_000)
    again = command(OverridePlayerLimits, "supervisor", player="p7", limits=higher, reason="more")
    [second] = when([table_opened(), *first], again)
    assert isinstance(second, PlayerLimitsOverridden)
    assert (second.before, second.after) == (vip, higher)
    assert given(table_opened(), first, [second]).player_limits == {"p7": higher}
