"""Opening a table: the profile, the sign (000 §4.1), the betting countdown (004), the layout's
lamps (000 §2.3)."""

import msgspec
import pytest

from sicbo.lifecycle.state import Phase, TableStatus
from sicbo_contracts.base import Limits
from sicbo_contracts.lifecycle import (
    ClearFault,
    CloseTable,
    CompleteRound,
    LifecycleCommand,
    OpenTable,
    ReportMalfunction,
    StartRound,
    TableClosed,
    TableOpened,
    TakeSeat,
)
from tests.support.common import PROFILES, at, command, default_paytable, event
from tests.support.lifecycle import (
    config,
    given,
    played_rounds,
    refused,
    round_through,
    table_opened,
    when,
)


@pytest.mark.parametrize("profile", PROFILES)
def test_a_table_opens_under_its_profiles_default_paytable(profile: str) -> None:
    """TableOpened records the paytable in force: the profile's default until an approved
    paytable is adopted (002/2004 art. 8)."""
    cfg = config(profile)
    events = when([], command(OpenTable, "operator", config=cfg))
    assert events == [
        event(TableOpened, "operator", config=cfg, paytable=default_paytable(profile))
    ]
    state = given(events)
    assert state.status is TableStatus.OPEN
    assert state.config == cfg
    assert state.opened_paytable == f"{profile}@v1"


def test_a_supervisor_may_open_a_table() -> None:
    events = when([], command(OpenTable, "supervisor", config=config()))
    assert isinstance(events[0], TableOpened)


def test_an_unknown_profile_is_refused() -> None:
    cfg = msgspec.structs.replace(config(), profile="vegas")
    refused([], command(OpenTable, "operator", config=cfg), "unknown rule profile 'vegas'")


def test_a_minimum_above_the_maximum_is_refused_000_4_1() -> None:
    cfg = msgspec.structs.replace(config(), limits=Limits(minimum=500, maximum=100))
    cmd = command(OpenTable, "operator", config=cfg)
    refused([], cmd, match=r"minimum wager 500 is above the maximum 100 \(000 §4\.1\)")


def test_a_unit_below_one_is_refused_000_4_1() -> None:
    cfg = msgspec.structs.replace(config(), limits=Limits(minimum=10, maximum=100, unit=0))
    refused([], command(OpenTable, "operator", config=cfg), "minimum unit must be at least 1")


def test_a_countdown_profile_needs_betting_seconds_004() -> None:
    """004 "Cara Bermain": betting runs on a countdown, so its length is part of the table."""
    cfg = msgspec.structs.replace(config("online-live"), betting_seconds=None)
    refused(
        [],
        command(OpenTable, "operator", config=cfg),
        match="countdown.*betting_seconds is required",
    )


def test_betting_seconds_are_refused_where_the_dealer_calls_no_more_bets_000_5_2() -> None:
    cmd = command(OpenTable, "operator", config=config("cca-1992", betting_seconds=20))
    refused([], cmd, match=r"no betting countdown.*000 §5\.2")


@pytest.mark.parametrize(
    ("profile", "rule"),
    [
        ("cca-1992", r"000 §2\.3: all the winning areas of the layout shall be illuminated"),
        ("macau-2003", r"002/2003 art\. 3\(2\): 同時將中彩各瓣燈光亮著"),
    ],
)
def test_a_table_whose_layout_shall_be_lit_needs_its_controller_000_2_3(
    profile: str, rule: str
) -> None:
    """000 §2.3: the winning areas "shall be illuminated"; a table opened without its layout
    controller is a configuration error, not a silent default."""
    cmd = command(OpenTable, "operator", config=config(profile, layout_controller=False))
    refused(
        [],
        cmd,
        match=rf"config\.layout_controller: profile '{profile}' requires the layout's winning"
        rf" areas to be lit \({rule}",
    )
    assert when([], command(OpenTable, "operator", config=config(profile, layout_controller=True)))


@pytest.mark.parametrize("profile", ["macau-2004", "online-live"])
@pytest.mark.parametrize("lamps", [False, True])
def test_lamps_are_optional_where_the_rules_do_not_require_them_002_2004_art_3_2_004(
    profile: str, lamps: bool
) -> None:
    """002/2004 art. 3(2): the winning areas 可 (may) be shown lit; 004 has no lamps at all."""
    cfg = config(profile, layout_controller=lamps)
    [opened] = when([], command(OpenTable, "operator", config=cfg))
    assert isinstance(opened, TableOpened) and opened.config.layout_controller is lamps


def test_an_open_table_cannot_be_opened_again() -> None:
    refused(table_opened(), command(OpenTable, "operator", config=config()), "already open")


@pytest.mark.parametrize(
    "cmd",
    [
        command(StartRound, "dealer", round=1, tumbles=3),
        command(TakeSeat, "dealer", player="p1", seat=1),
        command(CloseTable, "supervisor"),
        command(ReportMalfunction, "dealer", equipment="lamp", detail="dark"),
    ],
    ids=lambda c: type(c).__name__,
)
def test_nothing_happens_at_a_table_never_opened(cmd: LifecycleCommand) -> None:
    refused([], cmd, "table T1 is not open")


@pytest.mark.parametrize(
    "cmd",
    [
        command(StartRound, "dealer", round=4, tumbles=3),
        command(TakeSeat, "dealer", player="p1", seat=1),
        command(CloseTable, "supervisor"),
        command(ClearFault, "inspector", detail="fixed"),
        command(CompleteRound, "service", round=3),
    ],
    ids=lambda c: type(c).__name__,
)
def test_after_closing_every_command_but_open_table_is_refused(cmd: LifecycleCommand) -> None:
    history = [table_opened(), *played_rounds(1, 3), event(TableClosed, "supervisor", at=at(-5))]
    refused(history, cmd, match="table T1 was closed at .*only OpenTable")


def test_a_reopened_table_continues_the_round_numbers() -> None:
    """A round number is never reused: subjects and settlement filters are per round."""
    history = [table_opened(), *played_rounds(1, 3), event(TableClosed, "supervisor", at=at(-5))]
    reopened = history + when(history, command(OpenTable, "operator", config=config()))
    state = given(reopened)
    assert state.status is TableStatus.OPEN
    assert state.next_round == 4
    assert state.round is not None and state.round.phase is Phase.COMPLETED
    refused(reopened, command(StartRound, "dealer", round=1, tumbles=3), match="next round .* is 4")
    assert when(reopened, command(StartRound, "dealer", round=4, tumbles=3))


def test_a_table_with_a_round_in_progress_keeps_it_through_evolve() -> None:
    state = given(table_opened(), round_through(1, Phase.BETTING_OPEN))
    assert state.round is not None and state.round.in_progress
