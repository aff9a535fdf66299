"""The simulated layout controller: fault parsing and the lamp panel."""

import pytest

from sicbo.illumination.controller import Fault, FaultKind, LampPanel, parse_fault


@pytest.mark.parametrize(
    ("text", "fault"),
    [
        ("none", Fault()),
        ("dark:big", Fault(FaultKind.DARK, bet="big")),
        ("extra:total:9", Fault(FaultKind.EXTRA, bet="total:9")),
        ("silent", Fault(FaultKind.SILENT)),
        ("slow:2.5", Fault(FaultKind.SLOW, seconds=2.5)),
    ],
)
def test_faults_are_parsed(text: str, fault: Fault) -> None:
    assert parse_fault(text) == fault


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("flicker", "unknown fault"),
        ("dark:combo:5-2", "ascending order"),  # canonical bet ids only
        ("dark:", "dark:"),
        ("slow:soon", "slow takes seconds"),
        ("slow:0", "slow takes seconds"),
        ("silent:3", "takes no argument"),
    ],
)
def test_bad_faults_are_refused(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_fault(text)


def test_fault_every_must_be_positive() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        parse_fault("silent", 0)


def test_a_healthy_panel_lights_what_it_is_asked_all_lamps_off_first() -> None:
    panel = LampPanel()
    assert panel.light(1, ["small", "total:9"]) == ["small", "total:9"]
    assert panel.light(2, ["big"]) == ["big"] and panel.lit == ("big",)
    assert panel.delay(2) == 0


def test_a_dark_lamp_stays_off_on_every_nth_round_only() -> None:
    panel = LampPanel(parse_fault("dark:big", every=3))
    assert panel.light(1, ["big", "odd"]) == ["big", "odd"]
    assert panel.light(3, ["big", "odd"]) == ["odd"]
    assert panel.light(6, ["small"]) == ["small"]  # big did not win: nothing to see


def test_an_extra_lamp_lights_although_not_asked() -> None:
    panel = LampPanel(parse_fault("extra:any-triple"))
    assert panel.light(1, ["big"]) == ["big", "any-triple"]
    assert panel.light(2, ["any-triple"]) == ["any-triple"]


def test_silent_and_slow_delays() -> None:
    assert LampPanel(parse_fault("silent")).delay(1) is None
    slow = LampPanel(parse_fault("slow:3", every=2))
    assert (slow.delay(1), slow.delay(2)) == (0, 3)


def test_the_fault_describes_itself() -> None:
    assert str(parse_fault("dark:big", every=7)) == "dark:big every 7 rounds"
    assert str(parse_fault("slow:1.5")) == "slow:1.5"
