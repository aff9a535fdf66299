"""The terminal's action table (``sicbo.gateway.access``) held against the services' deciders.

For every command type of the three services and every terminal role, the command is built
from one example payload (``EXAMPLES``: plain dicts, converted as the gateway would receive
them) and decided by the owning service's pure decider on a state where the command is
possible. A role may send a command from a terminal exactly when its decider does not refuse
it as ``forbidden`` (``require_role``, DESIGN.md "Roles"). The example states are chosen so
that every terminal role either gets events or is ``forbidden``: a refusal for another reason
(wrong phase, no slip...) would hide a later role check, so it fails the example itself.
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

import msgspec
import pytest

from sicbo.decider import Refused
from sicbo.dice import decider as dice_decider
from sicbo.gateway.operators import TERMINAL_ROLES
from sicbo.lifecycle import decider as lifecycle_decider
from sicbo.lifecycle.state import Phase
from sicbo.wagers import decider as wagers_decider
from sicbo_contracts.access import TERMINAL_ACTIONS, may_send
from sicbo_contracts.base import Role
from sicbo_contracts.dice import DiceCommand
from sicbo_contracts.lifecycle import (
    InvalidationReason,
    LifecycleCommand,
    ProposePaytable,
    TableSuspended,
)
from sicbo_contracts.routing import COMMANDS_BY_SERVICE, SERVICE_OF_TAG
from sicbo_contracts.wagers import WagerCommand
from tests.support import dice as dc
from tests.support import dual_control as dual
from tests.support import lifecycle as lc
from tests.support import wagers as wg
from tests.support.common import NOW, SUPERVISOR_2, TABLE, at, command, event

# ---- the example states, per service -------------------------------------------------------------

FRIDAY, MONDAY = date(2024, 6, 7), date(2024, 6, 10)


def lc_new() -> list[Any]:
    return []


def lc_open() -> list[Any]:
    return [lc.table_opened()]


def lc_seated() -> list[Any]:
    return [lc.table_opened(), *lc.seated("p1")]


def lc_excluded() -> list[Any]:
    """000 §8.3.2: p1 excluded from the game by a supervisor."""
    return [lc.table_opened(), lc.excluded("p1")]


def lc_macau_2004() -> list[Any]:
    return [lc.table_opened("macau-2004")]


def lc_proposed() -> list[Any]:
    """macau-2004 with the operator's 6/15 choice applied for on a Friday (002/2004 art. 8)."""
    history: list[Any] = [lc.table_opened("macau-2004", at=at(-10 * 24 * 60))]
    propose = command(ProposePaytable, "operator", choices={"total-6-15": 16}, applied_on=FRIDAY)
    return history + lc.when(history, propose, at=at(day=FRIDAY))


def lc_round(phase: Phase, profile: str = "cca-1992") -> Callable[[], list[Any]]:
    def history() -> list[Any]:
        return [lc.table_opened(profile), *lc.round_through(1, phase, profile=profile)]

    history.__name__ = f"lc_{profile}_round_{phase.value}"
    return history


def lc_online_suspended() -> list[Any]:
    return lc.suspended_round("online-live", Phase.UNCOVERED)


def lc_suspended() -> list[Any]:
    return [
        lc.table_opened(),
        event(
            TableSuspended,
            "dealer",
            at=at(-1),
            equipment="lamp",
            detail="dark",
            policy="suspend-table",
        ),
    ]


def dice_uncovered() -> list[Any]:
    return dc.uncovered_round()


def dice_entered() -> list[Any]:
    return [*dc.uncovered_round(), dc.entered((2, 3, 5))]


def dice_confirmed() -> list[Any]:
    return [*dice_entered(), dc.confirmed((2, 3, 5))]


def dice_manual() -> list[Any]:
    """Round 1 confirmed, the table in manual mode (GLI-19 §C.6.8(o))."""
    return [*dice_confirmed(), dc.manual_mode_entered()]


def dice_proposed() -> list[Any]:
    """Dual control: a correction of round 1 proposed by another supervisor."""
    history = [dc.dual_control_opened(), *dc.next_round(1), dc.entered((2, 3, 5))]
    proposal = dc.proposed((2, 3, 5), (1, 1, 1), "misread", by=SUPERVISOR_2)
    return [*history, dc.confirmed((2, 3, 5)), dc.manual_mode_entered(), proposal]


def dice_held() -> list[Any]:
    return [*dice_entered(), dc.dice_read((2, 3, 6)), dc.held((2, 3, 5), (2, 3, 6))]


def wg_betting() -> list[Any]:
    return wg.betting()


def wg_slip_placed() -> list[Any]:
    return [*wg.betting(), wg.placed("s-1")]


def wg_slip_carried() -> list[Any]:
    """macau-2004: alice's slip carried into the re-run after "no result" (art. 3(4))."""
    return [
        *wg.betting("macau-2004"),
        wg.placed("s-1"),
        lc.betting_closed(1),
        lc.no_result(1, "player-choice"),
        lc.completed(1),
        *wg.next_round(2, "macau-2004"),
    ]


def wg_open() -> list[Any]:
    return [lc.table_opened(limits=wg.LIMITS)]


def wg_one_colour_out() -> list[Any]:
    """Alice holds red at a table of 10 colours: blue is her second (000 §3.8)."""
    return [lc.table_opened(limits=wg.LIMITS, check_colors=10), wg.issued("alice", "red", 250)]


def wg_checks_out_open() -> list[Any]:
    return [lc.table_opened(limits=wg.LIMITS), wg.issued("alice", "red", 250)]


def wg_checks_out_closed() -> list[Any]:
    return [lc.table_opened(limits=wg.LIMITS), wg.issued("alice", "red", 250), lc.table_closed()]


def lc_dual_invalidation_proposed() -> list[Any]:
    """Dual control: an invalidation of round 1 proposed by another supervisor (000 §8.4)."""
    history = [dual.dual_control_opened(), *lc.round_through(1, Phase.RESULT_CONFIRMED)]
    return [*history, dual.invalidation_proposed(reason=InvalidationReason.RIOT, by=SUPERVISOR_2)]


def lc_dual_round() -> list[Any]:
    """Dual control: round 1's result confirmed."""
    return [dual.dual_control_opened(), *lc.round_through(1, Phase.RESULT_CONFIRMED)]


def lc_dual_open() -> list[Any]:
    return [dual.dual_control_opened()]


def lc_dual_sign_proposed() -> list[Any]:
    """Dual control: a sign for p1 proposed by another supervisor (000 §4.4)."""
    return [dual.dual_control_opened(), dual.override_proposed(by=SUPERVISOR_2)]


# ---- one example per command type (two for redemption: open and closed table) --------------------


@dataclass(frozen=True)
class Example:
    tag: str
    payload: dict[str, Any]
    history: Callable[[], list[Any]]
    at: datetime

    @property
    def service(self) -> str:
        return SERVICE_OF_TAG[self.tag]

    @property
    def name(self) -> str:
        return f"{self.tag}@{self.history.__name__}"


LIMITS = {"minimum": 5, "maximum": 2_000}

EXAMPLES = [
    Example(
        "table.open.v1",
        {
            "config": {
                "profile": "cca-1992",
                "limits": {"minimum": 10, "maximum": 1_000},
                "layout_controller": True,  # 000 §2.3
            }
        },
        lc_new,
        NOW,
    ),
    Example(
        "table.post-limits-notice.v1",
        {"limits": LIMITS, "effective_at": "2024-06-03T20:30:00Z"},
        lc_open,
        NOW,
    ),
    Example("table.change-limits.v1", {"limits": LIMITS, "reason": "quiet night"}, lc_open, NOW),
    Example(
        "table.override-player-limits.v1",
        {"player": "p1", "limits": {"minimum": 10, "maximum": 5_000}, "reason": "high roller"},
        lc_open,
        NOW,
    ),
    Example("table.post-closing-notice.v1", {"close_at": "2024-06-03T20:30:00Z"}, lc_open, NOW),
    Example(  # 000 §8.3.1
        "round.void-player-wagers.v1",
        {"round": 1, "player": "p1", "reason": "device"},
        lc_round(Phase.UNCOVERED),
        NOW,
    ),
    Example("table.exclude-player.v1", {"player": "p1", "reason": "device"}, lc_seated, NOW),
    Example("table.lift-exclusion.v1", {"player": "p1", "reason": "cleared"}, lc_excluded, NOW),
    Example("table.close.v1", {}, lc_open, NOW),
    Example("table.take-seat.v1", {"player": "p1", "seat": 1}, lc_open, NOW),
    Example("table.leave-seat.v1", {"player": "p1"}, lc_seated, NOW),
    Example(
        "paytable.propose.v1",
        {"choices": {"total-5-16": 24}, "applied_on": "2024-05-31"},
        lc_macau_2004,
        NOW,
    ),
    Example(
        "paytable.approve.v1",
        {
            "paytable": "macau-2004@v1?total-6-15=16",
            "adoption_date": "2024-06-12",
            "acknowledged_no_house_edge": ["even", "odd"],
            "regulator_reference": "DICJ/2024/0417",  # 002/2004 art. 8
        },
        lc_proposed,
        at(day=MONDAY),
    ),
    Example("round.start.v1", {"round": 1, "tumbles": 3}, lc_open, NOW),
    Example("round.open-betting.v1", {"round": 1}, lc_round(Phase.STARTED), NOW),
    # online-live: the dealer or the countdown (a service account) closes betting (004)
    Example(
        "round.close-betting.v1", {"round": 1}, lc_round(Phase.BETTING_OPEN, "online-live"), NOW
    ),
    Example("round.uncover.v1", {"round": 1}, lc_round(Phase.BETTING_CLOSED), NOW),
    Example(
        "round.declare-no-result.v1",
        {"round": 1, "reason": "dice-not-flat"},
        lc_round(Phase.UNCOVERED),
        NOW,
    ),
    Example(
        "round.invalidate.v1",
        {"round": 1, "reason": "riot", "detail": "riot on the floor"},
        lc_round(Phase.UNCOVERED),
        NOW,
    ),
    Example(  # dual control: a proposal (000 §8.4)
        "round.invalidate.v1",
        {"round": 1, "reason": "riot", "detail": "riot on the floor"},
        lc_dual_round,
        NOW,
    ),
    Example(
        "round.approve-invalidation.v1",
        {"round": 1, "reason": "riot"},
        lc_dual_invalidation_proposed,
        NOW,
    ),
    Example(
        "round.reject-invalidation.v1",
        {"round": 1, "reason": "no riot"},
        lc_dual_invalidation_proposed,
        NOW,
    ),
    Example(  # dual control: a proposal (000 §4.4)
        "table.override-player-limits.v1",
        {"player": "p1", "limits": {"minimum": 10, "maximum": 5_000}, "reason": "high roller"},
        lc_dual_open,
        NOW,
    ),
    Example(
        "table.approve-player-limits.v1",
        {"player": "p1", "limits": {"minimum": 10, "maximum": 5_000}},
        lc_dual_sign_proposed,
        NOW,
    ),
    Example(
        "table.reject-player-limits.v1",
        {"player": "p1", "reason": "no credit line"},
        lc_dual_sign_proposed,
        NOW,
    ),
    Example("table.report-malfunction.v1", {"equipment": "lamp", "detail": "dark"}, lc_open, NOW),
    Example("table.clear-fault.v1", {"detail": "lamp replaced"}, lc_suspended, NOW),
    Example(
        "round.resume.v1",
        {"round": 1, "detail": "stream back"},
        lc.suspended_while_betting,
        NOW,
    ),
    # 004 "Ralat Pengendalian": an online round suspended for a problem with no quick fix
    Example("round.cancel.v1", {"round": 1, "reason": "no quick fix"}, lc_online_suspended, NOW),
    Example("round.complete.v1", {"round": 1}, lc_round(Phase.RESULT_CONFIRMED), NOW),
    Example("dice.enter.v1", {"round": 1, "dice": [2, 3, 5]}, dice_uncovered, NOW),
    Example("dice.confirm.v1", {"round": 1}, dice_entered, NOW),
    Example(
        "dice.correct.v1",
        {"round": 1, "dice": [1, 1, 1], "reason": "misread"},
        dice_manual,
        NOW,
    ),
    Example("dice.enter-manual-mode.v1", {"reason": "correcting"}, dice_confirmed, NOW),
    Example("dice.leave-manual-mode.v1", {}, dice_manual, NOW),
    Example("dice.approve-correction.v1", {"round": 1, "dice": [1, 1, 1]}, dice_proposed, NOW),
    Example("dice.reject-correction.v1", {"round": 1, "reason": "no"}, dice_proposed, NOW),
    Example("dice.read.v1", {"round": 1, "dice": [2, 3, 5]}, dice_uncovered, NOW),
    Example(
        "dice.resolve-held.v1",
        {"round": 1, "dice": [2, 3, 5], "reason": "looked at the dice"},
        dice_held,
        NOW,
    ),
    Example(
        "bets.place-slip.v1",
        {"round": 1, "player": "alice", "wagers": [{"bet": "big", "stake": 100}]},
        wg_betting,
        NOW,
    ),
    Example(
        "bets.withdraw-slip.v1",
        {"round": 1, "player": "alice", "slip_id": "s-1"},
        wg_slip_placed,
        NOW,
    ),
    Example(
        "bets.change-slip.v1",
        {
            "round": 1,
            "player": "alice",
            "slip_id": "s-1",
            "wagers": [{"bet": "small", "stake": 200}],
        },
        wg_slip_placed,
        NOW,
    ),
    Example(
        "bets.choose-carried.v1",
        {"round": 2, "player": "alice", "slip_id": "s-1", "choice": "cancel"},
        wg_slip_carried,
        NOW,
    ),
    Example(
        "bets.issue-color-checks.v1",
        {"player": "alice", "color": "red", "marker_value": 250, "count": 20},
        wg_open,
        NOW,
    ),
    # 000 §3.8: a second colour is the supervisor's.
    Example(
        "bets.issue-color-checks.v1",
        {"player": "alice", "color": "blue", "marker_value": 250, "count": 20},
        wg_one_colour_out,
        NOW,
    ),
    Example(
        "bets.issue-promo-token.v1",
        {"token": "tk-1", "player": "alice", "amount": 100},
        wg_open,
        NOW,
    ),
    # 000 §3.5: the dealer redeems at the open table, the cage (operator) while it is closed.
    Example(
        "bets.redeem-color-checks.v1",
        {"player": "alice", "color": "red", "count": 5},
        wg_checks_out_open,
        NOW,
    ),
    Example(
        "bets.redeem-color-checks.v1",
        {"player": "alice", "color": "red", "count": 5},
        wg_checks_out_closed,
        NOW,
    ),
]

SERVICES: dict[str, tuple[Any, Callable[..., Any], Callable[..., Any]]] = {
    "lifecycle": (LifecycleCommand, lifecycle_decider.fold, lifecycle_decider.decide),
    "dice": (DiceCommand, dice_decider.fold, dice_decider.decide),
    "wagers": (WagerCommand, wagers_decider.fold, wagers_decider.decide),
}
#: The table of every builder used above.
assert {e.table for e in [*lc_seated(), *dice_held(), *wg_slip_carried()]} == {TABLE}

TERMINAL = sorted(TERMINAL_ROLES)


def build(example: Example, role: Role) -> Any:
    union, _, _ = SERVICES[example.service]
    raw = {
        "type": example.tag,
        "command_id": "cmd-1",
        "table": TABLE,
        "actor": {"id": f"{role.value}-1", "role": role.value},
        **example.payload,
    }
    return msgspec.convert(raw, union)


@functools.cache
def outcome(index: int, role: Role) -> tuple[str, str]:
    """("accepted", "") or (the refusal's code, its reason) for EXAMPLES[index] from ``role``."""
    example = EXAMPLES[index]
    _, fold, decide = SERVICES[example.service]
    state = fold(TABLE, example.history())
    try:
        events = decide(state, build(example, role), example.at)
    except Refused as refused:
        return refused.code, refused.reason
    assert events, f"{example.name} by {role.value}: neither events nor a refusal"
    return "accepted", ""


def decider_permits(tag: str, role: Role) -> tuple[bool, list[str]]:
    """Whether some example state of ``tag`` lets ``role`` through the role checks, and the
    decider's reasons where it did not."""
    results = [outcome(i, role) for i, e in enumerate(EXAMPLES) if e.tag == tag]
    return any(code != "forbidden" for code, _ in results), [r for _, r in results if r]


# ---- the examples are complete and adequate ------------------------------------------------------


def test_there_is_an_example_of_every_command_type_of_every_service() -> None:
    tags = {
        cls.__struct_config__.tag for classes in COMMANDS_BY_SERVICE.values() for cls in classes
    }
    assert {e.tag for e in EXAMPLES} == tags
    assert len(tags) == sum(len(classes) for classes in COMMANDS_BY_SERVICE.values())


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_each_example_is_a_valid_command_of_its_tag(example: Example) -> None:
    cmd = build(example, Role.DEALER)
    assert type(cmd).__struct_config__.tag == example.tag
    assert type(cmd) in COMMANDS_BY_SERVICE[example.service]


CELLS = [(i, role) for i in range(len(EXAMPLES)) for role in Role]


@pytest.mark.parametrize(
    ("index", "role"), CELLS, ids=[f"{EXAMPLES[i].name}-by-{r.value}" for i, r in CELLS]
)
def test_each_example_state_reaches_the_role_check(index: int, role: Role) -> None:
    """Every role is either accepted or forbidden: no other refusal masks a role check."""
    code, reason = outcome(index, role)
    assert code in ("accepted", "forbidden"), reason


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_each_example_is_accepted_from_some_role(example: Example) -> None:
    index = EXAMPLES.index(example)
    assert any(outcome(index, role)[0] == "accepted" for role in Role)


# ---- the table mirrors the deciders --------------------------------------------------------------

MATRIX = [
    pytest.param(tag, role, id=f"{tag}-{role.value}")
    for tag in sorted(SERVICE_OF_TAG)
    for role in TERMINAL
]


@pytest.mark.parametrize(("tag", "role"), MATRIX)
def test_a_terminal_role_may_send_exactly_what_its_decider_permits(tag: str, role: Role) -> None:
    permitted, reasons = decider_permits(tag, role)
    listed = tag in TERMINAL_ACTIONS[role]
    assert listed == permitted, (
        f"TERMINAL_ACTIONS[{role.value}] {'lists' if listed else 'omits'} {tag}, but the"
        f" {SERVICE_OF_TAG[tag]} decider {'permits' if permitted else 'forbids'} it: {reasons}"
    )
    assert may_send(role, tag) is permitted


def test_the_table_names_only_terminal_roles_and_real_command_types() -> None:
    assert set(TERMINAL_ACTIONS) == set(TERMINAL_ROLES)
    for role, actions in TERMINAL_ACTIONS.items():
        assert actions, role
        assert actions <= set(SERVICE_OF_TAG), actions - set(SERVICE_OF_TAG)


# ---- may_send ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "tag", "expected"),
    [
        (Role.DEALER, "round.open-betting.v1", True),  # 000 §5.1: the dealer calls it
        (Role.SUPERVISOR, "round.open-betting.v1", False),
        (Role.SUPERVISOR, "round.invalidate.v1", True),  # 000 §8.4
        (Role.DEALER, "round.invalidate.v1", False),
        (Role.INSPECTOR, "table.clear-fault.v1", True),  # 000 §7.7
        (Role.SUPERVISOR, "table.clear-fault.v1", False),
        (Role.OPERATOR, "paytable.propose.v1", True),  # 002/2004 art. 8
        (Role.SUPERVISOR, "paytable.propose.v1", False),
        (Role.INSPECTOR, "dice.enter.v1", False),
    ],
)
def test_may_send_by_role(role: Role, tag: str, expected: bool) -> None:
    assert may_send(role, tag) is expected


@pytest.mark.parametrize("role", [Role.PLAYER, Role.SERVICE])
@pytest.mark.parametrize("tag", sorted(SERVICE_OF_TAG))
def test_players_and_service_accounts_send_nothing_from_a_terminal(role: Role, tag: str) -> None:
    """Even what their decider takes from them (a player's slip, the settlement's
    CompleteRound): they never sign in at a terminal."""
    assert may_send(role, tag) is False


@pytest.mark.parametrize("role", list(Role))
@pytest.mark.parametrize("tag", ["round.start.v2", "round.start", "", "ROUND.START.V1"])
def test_an_unknown_command_type_is_never_sent(role: Role, tag: str) -> None:
    assert may_send(role, tag) is False
