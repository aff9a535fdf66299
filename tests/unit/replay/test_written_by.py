"""``sicbo_contracts.writers.WRITTEN_BY`` (event type -> the roles it may record) held against
the deciders and the services' own actors, as test_access.py holds TERMINAL_ACTIONS.

For every command type of the three deciding services, one or more example states (plain
payloads, converted as a command arrives) where the command gets events from some role. Every
role is tried on every example: it is accepted (its events are collected) or forbidden
(``require_role``); no other refusal may hide the role check. An event type then lists exactly
the roles some accepted command produced it for. The events no command produces (settlement's,
illumination's) list the role of the service's actor.
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any, get_args

import msgspec
import pytest

from sicbo.decider import Refused
from sicbo.dice import decider as dice_decider
from sicbo.illumination.lamps import ILLUMINATION_ACTOR
from sicbo.lifecycle import decider as lifecycle_decider
from sicbo.lifecycle.countdown import COUNTDOWN_ACTOR
from sicbo.lifecycle.state import Phase
from sicbo.settlement.settler import SETTLEMENT_ACTOR
from sicbo.wagers import decider as wagers_decider
from sicbo_contracts.base import Role, tag_of
from sicbo_contracts.dice import DiceCommand, DiceEvent
from sicbo_contracts.illumination import IlluminationEvent
from sicbo_contracts.lifecycle import (
    InvalidationReason,
    LifecycleCommand,
    LifecycleEvent,
    ProposePaytable,
)
from sicbo_contracts.routing import COMMANDS_BY_SERVICE, SERVICE_OF_TAG
from sicbo_contracts.settlement import SettlementEvent
from sicbo_contracts.wagers import WagerCommand, WagerEvent
from sicbo_contracts.writers import WRITTEN_BY, may_write
from tests.support import dice as dc
from tests.support import dual_control as dual
from tests.support import lifecycle as lc
from tests.support import wagers as wg
from tests.support.common import NOW, SUPERVISOR_2, TABLE, at, command

FRIDAY, MONDAY = date(2024, 6, 7), date(2024, 6, 10)


# ---- the example states ------------------------------------------------------------------------


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


@dataclass(frozen=True)
class Example:
    tag: str
    payload: dict[str, Any]
    history: Callable[[], list[Any]]
    at: datetime = NOW

    @property
    def name(self) -> str:
        return f"{self.tag}@{self.history.__name__}"


LIMITS = {"minimum": 5, "maximum": 2_000}
R1 = {"round": 1}
SLIP = {"round": 1, "player": "alice", "slip_id": "s-1"}

EXAMPLES = [
    Example(
        "table.open.v1",
        {"config": {"profile": "cca-1992", "limits": LIMITS, "layout_controller": True}},
        new,
    ),
    Example(
        "table.post-limits-notice.v1",
        {"limits": LIMITS, "effective_at": "2024-06-03T20:30:00Z"},
        opened,
    ),
    Example("table.change-limits.v1", {"limits": LIMITS, "reason": "quiet night"}, opened),
    Example(
        "table.override-player-limits.v1",
        {"player": "p1", "limits": {"minimum": 10, "maximum": 5_000}, "reason": "high roller"},
        opened,
    ),
    Example("table.post-closing-notice.v1", {"close_at": "2024-06-03T20:30:00Z"}, opened),
    Example(  # 000 §8.3.1
        "round.void-player-wagers.v1",
        {"round": 1, "player": "p1", "reason": "device"},
        in_round(Phase.UNCOVERED),
    ),
    Example("table.exclude-player.v1", {"player": "p1", "reason": "device"}, seated),  # §8.3.2
    Example("table.lift-exclusion.v1", {"player": "p1", "reason": "cleared"}, excluded),
    Example("table.close.v1", {}, opened),
    Example("table.take-seat.v1", {"player": "p1", "seat": 1}, opened),
    Example("table.leave-seat.v1", {"player": "p1"}, seated),
    Example(
        "paytable.propose.v1",
        {"choices": {"total-5-16": 24}, "applied_on": "2024-05-31"},
        macau_2004,
    ),
    Example(
        "paytable.approve.v1",
        {
            "paytable": "macau-2004@v1?total-6-15=16",
            "adoption_date": "2024-06-12",
            "acknowledged_no_house_edge": ["even", "odd"],
            "regulator_reference": "DICJ/2024/0417",  # 002/2004 art. 8
        },
        proposed,
        at(day=MONDAY),
    ),
    Example("round.start.v1", {"round": 1, "tumbles": 3}, opened),
    Example("round.open-betting.v1", R1, in_round(Phase.STARTED)),
    Example("round.close-betting.v1", R1, in_round(Phase.BETTING_OPEN, "online-live")),
    Example("round.uncover.v1", R1, in_round(Phase.BETTING_CLOSED)),
    Example(
        "round.declare-no-result.v1",
        {"round": 1, "reason": "dice-not-flat"},
        in_round(Phase.UNCOVERED),
    ),
    Example(
        "round.invalidate.v1",
        {"round": 1, "reason": "riot", "detail": "riot on the floor"},
        in_round(Phase.UNCOVERED),
    ),
    Example(  # dual control: a proposal (000 §8.4)
        "round.invalidate.v1",
        {"round": 1, "reason": "riot", "detail": "riot on the floor"},
        dual_round,
    ),
    Example(
        "round.approve-invalidation.v1",
        {"round": 1, "reason": "riot"},
        dual_invalidation_proposed,
    ),
    Example(
        "round.reject-invalidation.v1",
        {"round": 1, "reason": "no riot"},
        dual_invalidation_proposed,
    ),
    Example(  # dual control: a proposal (000 §4.4)
        "table.override-player-limits.v1",
        {"player": "p1", "limits": {"minimum": 10, "maximum": 5_000}, "reason": "high roller"},
        dual_open,
    ),
    Example(
        "table.approve-player-limits.v1",
        {"player": "p1", "limits": {"minimum": 10, "maximum": 5_000}},
        dual_sign_proposed,
    ),
    Example(
        "table.reject-player-limits.v1",
        {"player": "p1", "reason": "no credit line"},
        dual_sign_proposed,
    ),
    Example("table.report-malfunction.v1", {"equipment": "lamp", "detail": "dark"}, opened),
    Example("table.clear-fault.v1", {"detail": "lamp replaced"}, suspended),
    # 004 "Ralat Pengendalian": lifting the suspension resumes the paused betting too
    Example("table.clear-fault.v1", {"detail": "stream back"}, lc.suspended_while_betting),
    Example("round.resume.v1", {"round": 1, "detail": "stream back"}, lc.suspended_while_betting),
    # 004 "Ralat Pengendalian": an online round suspended for a problem with no quick fix
    Example("round.cancel.v1", {"round": 1, "reason": "no quick fix"}, online_suspended),
    Example("round.complete.v1", R1, in_round(Phase.RESULT_CONFIRMED)),
    Example("round.complete.v1", {"round": 3}, idle_at_a_full_table),
    Example("dice.enter.v1", {"round": 1, "dice": [2, 3, 5]}, dice_uncovered),
    Example("dice.confirm.v1", R1, dice_entered),
    Example("dice.confirm.v1", R1, dice_disagreeing),  # held for a supervisor
    Example("dice.correct.v1", {"round": 1, "dice": [1, 1, 1], "reason": "misread"}, dice_manual),
    Example(  # dual control: a proposal
        "dice.correct.v1", {"round": 1, "dice": [1, 1, 1], "reason": "misread"}, dice_dual_manual
    ),
    Example("dice.enter-manual-mode.v1", {"reason": "correcting"}, dice_confirmed),
    Example("dice.leave-manual-mode.v1", {}, dice_manual),
    Example("dice.approve-correction.v1", {"round": 1, "dice": [1, 1, 1]}, dice_proposed),
    Example("dice.reject-correction.v1", {"round": 1, "reason": "no"}, dice_proposed),
    Example("dice.read.v1", {"round": 1, "dice": [2, 3, 5]}, dice_uncovered),
    Example("dice.resolve-held.v1", {"round": 1, "dice": [2, 3, 5], "reason": "looked"}, dice_held),
    Example(
        "bets.place-slip.v1",
        {"round": 1, "player": "alice", "wagers": [{"bet": "big", "stake": 100}]},
        betting,
    ),
    Example("bets.withdraw-slip.v1", SLIP, slip_placed),
    Example(
        "bets.change-slip.v1", {**SLIP, "wagers": [{"bet": "small", "stake": 200}]}, slip_placed
    ),
    Example("bets.choose-carried.v1", {**SLIP, "round": 2, "choice": "cancel"}, slip_carried),
    Example(
        "bets.issue-color-checks.v1",
        {"player": "alice", "color": "red", "marker_value": 250, "count": 20},
        sign_only,
    ),
    Example(
        "bets.issue-color-checks.v1",
        {"player": "alice", "color": "blue", "marker_value": 250, "count": 20},
        one_colour_out,
    ),
    Example(
        "bets.redeem-color-checks.v1", {"player": "alice", "color": "red", "count": 5}, checks_out
    ),
    Example("bets.issue-promo-token.v1", {"token": "tk-1", "player": "alice", "amount": 100}, new),
    Example(
        "bets.redeem-color-checks.v1",
        {"player": "alice", "color": "red", "count": 5},
        checks_out_closed,
    ),
]

SERVICES: dict[str, tuple[Any, Callable[..., Any], Callable[..., Any]]] = {
    "lifecycle": (LifecycleCommand, lifecycle_decider.fold, lifecycle_decider.decide),
    "dice": (DiceCommand, dice_decider.fold, dice_decider.decide),
    "wagers": (WagerCommand, wagers_decider.fold, wagers_decider.decide),
}


def build(example: Example, role: Role) -> Any:
    """The example's command from a person of ``role`` (a player acts as the slip's player)."""
    union, _, _ = SERVICES[SERVICE_OF_TAG[example.tag]]
    who = example.payload.get("player") if role is Role.PLAYER else None
    raw = {
        "type": example.tag,
        "command_id": "cmd-1",
        "table": TABLE,
        "actor": {"id": who or f"{role.value}-1", "role": role.value},
        **example.payload,
    }
    return msgspec.convert(raw, union)


@functools.cache
def outcome(index: int, role: Role) -> tuple[str, tuple[Any, ...]]:
    """("accepted", the events) or (the refusal's code, (its reason,))."""
    example = EXAMPLES[index]
    _, fold, decide = SERVICES[SERVICE_OF_TAG[example.tag]]
    try:
        events = decide(fold(TABLE, example.history()), build(example, role), example.at)
    except Refused as refused:
        return refused.code, (refused.reason,)
    assert events, f"{example.name} by {role.value}: neither events nor a refusal"
    return "accepted", tuple(events)


def produced() -> dict[str, set[Role]]:
    """Event tag -> the roles whose accepted commands produced it, over every example."""
    seen: dict[str, set[Role]] = {}
    for index in range(len(EXAMPLES)):
        for role in Role:
            code, events = outcome(index, role)
            if code == "accepted":
                for e in events:
                    seen.setdefault(tag_of(e), set()).add(role)
    return seen


EVENT_TAGS = {
    tag_of(cls)
    for union in (LifecycleEvent, DiceEvent, WagerEvent, SettlementEvent, IlluminationEvent)
    for cls in get_args(union)
}
#: Appended by a service without a command: settlement and illumination.
SERVICE_EVENTS = {tag_of(c) for c in (*get_args(SettlementEvent), *get_args(IlluminationEvent))}


# ---- the examples are complete and adequate ----------------------------------------------------


def test_there_is_an_example_of_every_command_type() -> None:
    tags = {tag_of(cls) for classes in COMMANDS_BY_SERVICE.values() for cls in classes}
    assert {e.tag for e in EXAMPLES} == tags


CELLS = [(i, role) for i in range(len(EXAMPLES)) for role in Role]


@pytest.mark.parametrize(
    ("index", "role"), CELLS, ids=[f"{EXAMPLES[i].name}-by-{r.value}" for i, r in CELLS]
)
def test_each_example_reaches_the_role_check(index: int, role: Role) -> None:
    code, reason = outcome(index, role)
    assert code in ("accepted", "forbidden"), reason


@pytest.mark.parametrize("index", range(len(EXAMPLES)), ids=[e.name for e in EXAMPLES])
def test_each_example_is_accepted_from_some_role_and_stamped_with_its_actor(index: int) -> None:
    accepted = [
        (role, outcome(index, role)[1]) for role in Role if outcome(index, role)[0] == "accepted"
    ]
    assert accepted
    for role, events in accepted:
        assert {e.actor.role for e in events} == {role}


# ---- the table mirrors the deciders and the services --------------------------------------------


def test_every_event_type_is_listed_once() -> None:
    assert set(WRITTEN_BY) == EVENT_TAGS
    assert all(WRITTEN_BY.values())


@pytest.mark.parametrize("tag", sorted(EVENT_TAGS - SERVICE_EVENTS))
def test_an_event_lists_exactly_the_roles_whose_commands_produce_it(tag: str) -> None:
    assert WRITTEN_BY[tag] == produced().get(tag, set()), tag


@pytest.mark.parametrize("tag", sorted(SERVICE_EVENTS))
def test_settlement_and_illumination_events_list_their_services_role(tag: str) -> None:
    writer = SETTLEMENT_ACTOR if tag.startswith("settle.") else ILLUMINATION_ACTOR
    assert WRITTEN_BY[tag] == {writer.role} == {Role.SERVICE}


def test_the_services_that_send_commands_act_as_the_service_role() -> None:
    """The countdown closes betting, settlement completes rounds, illumination reports faults:
    as the service role, which the table lists for the events of those commands."""
    assert {COUNTDOWN_ACTOR.role, SETTLEMENT_ACTOR.role, ILLUMINATION_ACTOR.role} == {Role.SERVICE}
    for tag in ("round.betting-closed.v1", "round.completed.v1", "table.suspended.v1"):
        assert may_write(Role.SERVICE, tag)


@pytest.mark.parametrize(
    ("role", "tag", "expected"),
    [
        (Role.PLAYER, "bets.slip-placed.v1", True),  # 000 §3.10-3.11
        (Role.SERVICE, "bets.slip-placed.v1", False),
        (Role.DEALER, "round.completed.v1", False),  # 002 art. 4: settlement completes
        (Role.DEALER, "dice.result-corrected.v1", False),  # GLI-19 §4.18.4: a supervisor
        (Role.SUPERVISOR, "settle.round-settled.v1", False),
        (Role.DEALER, "round.started.v2", False),  # an unknown type is written by no one
    ],
)
def test_may_write(role: Role, tag: str, expected: bool) -> None:
    assert may_write(role, tag) is expected
