"""Starting a round: the handle pressed (000 §5.1, 002 art. 2) or an electric shaker where the
profile's rules allow one (002/2004 art. 2(1) "連續按下把手三次或啟動電動搖骰裝置"), each way
with the fewest tumbles the profile says; logs written before ``activation`` still decode."""

import msgspec
import pytest

from sicbo_contracts.lifecycle import (
    Activation,
    LifecycleCommand,
    LifecycleEvent,
    RoundStarted,
    StartRound,
)
from tests.support.common import PROFILES, command
from tests.support.lifecycle import given, refused, table_opened, when

HANDLE, SHAKER = Activation.HANDLE, Activation.ELECTRIC_SHAKER

#: The clause each profile's handle rule cites (its ``[activation.handle]``).
HANDLE_RULE = {
    "cca-1992": r"000 §5\.1",
    "macau-2003": r"002/2003 art\. 2",
    "macau-2004": r"002/2004 art\. 2\(1\)",
    "online-live": r"004: jika dadu jatuh kurang daripada tiga kali",
}


def start(activation: Activation = HANDLE, **fields: int) -> StartRound:
    return command(StartRound, "dealer", round=1, activation=activation, **fields)


@pytest.mark.parametrize("tumbles", [0, 1, 2])
@pytest.mark.parametrize("profile", PROFILES)
def test_fewer_than_three_handle_presses_are_refused_000_5_1_002_art_2_004(
    profile: str, tumbles: int
) -> None:
    refused(
        table_opened(profile),
        start(tumbles=tumbles),
        match=rf"tumbles: the dice tumbled {tumbles} time\(s\) by the handle: they must tumble at"
        rf" least 3 times \({HANDLE_RULE[profile]}",
    )


@pytest.mark.parametrize("profile", PROFILES)
def test_three_handle_presses_start_the_round_in_every_profile_000_5_1_002_art_2(
    profile: str,
) -> None:
    [started] = when(table_opened(profile), start(tumbles=3))
    assert isinstance(started, RoundStarted)
    assert (started.activation, started.tumbles) == (HANDLE, 3)


def test_a_handle_start_that_counts_no_tumbles_is_refused_000_5_1() -> None:
    """``tumbles`` left out counts none: pressing the handle needs three."""
    refused(table_opened(), start(), match=r"tumbled 0 time\(s\) by the handle")


def test_the_electric_shaker_needs_its_approval_first_002_2004_art_2_1_and_art_8() -> None:
    """002/2004 art. 2(1) allows the shaker as an option: adopted with the regulator's approval
    (art. 8), it starts rounds (tests/unit/lifecycle/test_optional_choices.py); before, the
    paytable in force is the handle's."""
    refused([table_opened("macau-2004")], start(SHAKER), "starts rounds by the handle", "art. 8")


def test_the_electric_shaker_is_refused_where_the_rules_name_only_the_handle_002_2003_art_2() -> (
    None
):
    """002/2003 art. 1(2)(1) and art. 2: the plate is worked by a handle, pressed three times."""
    refused(
        table_opened("macau-2003"),
        start(SHAKER, tumbles=5),
        match=r"activation: profile 'macau-2003' does not start a round by the electric-shaker:"
        r" its rules start it by handle \(002/2003 art\. 2: 連續按下把手三次",
    )


@pytest.mark.parametrize(
    ("profile", "rule"),
    [("cca-1992", r"000 §5\.1: an electrical device"), ("online-live", "004: jika dadu")],
)
def test_an_electric_device_still_tumbles_the_dice_three_times_000_5_1_004(
    profile: str, rule: str
) -> None:
    """000 §5.1: "a mechanical or electrical device that causes the dice to tumble ... at least
    three times" (the tumbler "mechanically or electronically activated", 000 §2.4); 004:
    fewer than three falls and the dealer shakes again."""
    refused(
        table_opened(profile),
        start(SHAKER, tumbles=2),
        match=rf"tumbled 2 time\(s\) by the electric-shaker: .* at least 3 times \({rule}",
    )
    [started] = when(table_opened(profile), start(SHAKER, tumbles=3))
    assert isinstance(started, RoundStarted) and started.activation is SHAKER


def test_a_start_and_a_round_started_written_before_activation_still_decode() -> None:
    """Old logs: ``tumbles`` only; they were all handle presses."""
    old_command = (
        b'{"type":"round.start.v1","command_id":"c1","table":"T1",'
        b'"actor":{"id":"dealer-1","role":"dealer"},"round":1,"tumbles":3}'
    )
    cmd = msgspec.json.decode(old_command, type=LifecycleCommand)
    assert isinstance(cmd, StartRound) and (cmd.activation, cmd.tumbles) == (HANDLE, 3)
    old_event = (
        b'{"type":"round.started.v1","table":"T1","actor":{"id":"dealer-1","role":"dealer"},'
        b'"at":"2024-06-03T20:00:00Z","round":1,"tumbles":4,"paytable":"cca-1992@v1"}'
    )
    started = msgspec.json.decode(old_event, type=LifecycleEvent)
    assert isinstance(started, RoundStarted) and started.activation is HANDLE
    state = given(table_opened(), started)
    assert state.round is not None and state.round.activation is HANDLE
