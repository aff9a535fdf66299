"""The example states of the command catalogue (tests/support/examples.py): a table's log,
as plain events, where a command is possible, so that the role checks are the only refusal."""

from collections.abc import Callable
from datetime import date
from typing import Any

from sicbo.lifecycle.state import Phase
from sicbo_contracts.lifecycle import InvalidationReason, ProposePaytable
from tests.support import dice as dc
from tests.support import dual_control as dual
from tests.support import lifecycle as lc
from tests.support import wagers as wg
from tests.support.common import SUPERVISOR_2, at, command

FRIDAY, MONDAY = date(2024, 6, 7), date(2024, 6, 10)


def new() -> list[Any]:
    return []


def opened() -> list[Any]:
    return [lc.table_opened()]


def seated() -> list[Any]:
    return [lc.table_opened(), *lc.seated("p1")]


def macau_2004() -> list[Any]:
    return [lc.table_opened("macau-2004")]


def proposed() -> list[Any]:
    history: list[Any] = [lc.table_opened("macau-2004", at=at(-10 * 24 * 60))]
    propose = command(ProposePaytable, "operator", choices={"total-6-15": 16}, applied_on=FRIDAY)
    return history + lc.when(history, propose, at=at(day=FRIDAY))


def in_round(phase: Phase, profile: str = "cca-1992") -> Callable[[], list[Any]]:
    def history() -> list[Any]:
        return [lc.table_opened(profile), *lc.round_through(1, phase, profile=profile)]

    history.__name__ = f"{profile}_round_{phase.value}"
    return history


def idle_at_a_full_table() -> list[Any]:
    """One seat, taken by p1, who wagered in neither of two rounds: completing a third without
    a wager from p1 issues the vacate notice too (000 §8.9)."""
    return [
        lc.table_opened(seats=1),
        *lc.seated("p1", minutes=-230),
        *lc.played_rounds(1, 2),
        *lc.round_through(3, Phase.RESULT_CONFIRMED, minutes=-20),
    ]


def online_suspended() -> list[Any]:
    return lc.suspended_round("online-live", Phase.UNCOVERED)


def excluded() -> list[Any]:
    """000 §8.3.2: p1 excluded from the game by a supervisor."""
    return [*opened(), lc.excluded("p1")]


def suspended() -> list[Any]:
    return [lc.table_opened(), lc.suspended(None)]


def dice_uncovered() -> list[Any]:
    return dc.uncovered_round()


def dice_entered() -> list[Any]:
    return [*dc.uncovered_round(), dc.entered((2, 3, 5))]


def dice_disagreeing() -> list[Any]:
    return [*dice_entered(), dc.dice_read((2, 3, 6))]


def dice_confirmed() -> list[Any]:
    return [*dice_entered(), dc.confirmed((2, 3, 5))]


def dice_manual() -> list[Any]:
    """Round 1 confirmed, the table in manual mode (GLI-19 §C.6.8(o))."""
    return [*dice_confirmed(), dc.manual_mode_entered()]


def dice_dual_manual() -> list[Any]:
    """Dual control: round 1 confirmed, the table in manual mode."""
    history = [dc.dual_control_opened(), *dc.next_round(1), dc.entered((2, 3, 5))]
    return [*history, dc.confirmed((2, 3, 5)), dc.manual_mode_entered()]


def dice_proposed() -> list[Any]:
    """Dual control: a correction of round 1 proposed by another supervisor."""
    proposal = dc.proposed((2, 3, 5), (1, 1, 1), "misread", by=SUPERVISOR_2)
    return [*dice_dual_manual(), proposal]


def dice_held() -> list[Any]:
    return [*dice_disagreeing(), dc.held((2, 3, 5), (2, 3, 6))]


def betting() -> list[Any]:
    return wg.betting()


def slip_placed() -> list[Any]:
    return [*wg.betting(), wg.placed("s-1")]


def slip_carried() -> list[Any]:
    return [
        *wg.betting("macau-2004"),
        wg.placed("s-1"),
        lc.betting_closed(1),
        lc.no_result(1, "player-choice"),
        lc.completed(1),
        *wg.next_round(2, "macau-2004"),
    ]


def checks_out() -> list[Any]:
    return [lc.table_opened(limits=wg.LIMITS), wg.issued("alice", "red", 250)]


def checks_out_closed() -> list[Any]:
    return [*checks_out(), lc.table_closed()]


def sign_only() -> list[Any]:
    return [lc.table_opened(limits=wg.LIMITS)]


def one_colour_out() -> list[Any]:
    """Alice holds red at a table whose set has 10 colours: blue is her second (000 §3.8)."""
    return [lc.table_opened(limits=wg.LIMITS, check_colors=10), wg.issued("alice", "red", 250)]


def dual_invalidation_proposed() -> list[Any]:
    """Dual control: an invalidation of round 1 proposed by another supervisor (000 §8.4)."""
    history = [dual.dual_control_opened(), *lc.round_through(1, Phase.RESULT_CONFIRMED)]
    return [*history, dual.invalidation_proposed(reason=InvalidationReason.RIOT, by=SUPERVISOR_2)]


def dual_round() -> list[Any]:
    """Dual control: round 1's result confirmed."""
    return [dual.dual_control_opened(), *lc.round_through(1, Phase.RESULT_CONFIRMED)]


def dual_open() -> list[Any]:
    return [dual.dual_control_opened()]


def dual_sign_proposed() -> list[Any]:
    """Dual control: a sign for p1 proposed by another supervisor (000 §4.4)."""
    return [dual.dual_control_opened(), dual.override_proposed(by=SUPERVISOR_2)]
