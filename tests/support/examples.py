"""One example of every command type (more where a command takes another path: a dual-control
proposal, a held confirmation, a redemption at a closed table), each with a state of the
table's log where it is possible (tests/support/example_states.py).

The catalogue is held against the deciders twice: by the terminal's action table
(tests/unit/gateway/test_access.py) and by the writers' table
(tests/unit/replay/test_written_by.py).
Every role is tried on every example; a state is chosen so that each role is either accepted
or ``forbidden`` (``require_role``): a refusal for another reason would hide a role check.
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec

from sicbo.accounts import decider as accounts_decider
from sicbo.decider import Refused
from sicbo.dice import decider as dice_decider
from sicbo.lifecycle import decider as lifecycle_decider
from sicbo.lifecycle.state import Phase
from sicbo.wagers import decider as wagers_decider
from sicbo_contracts.accounts import AccountCommand
from sicbo_contracts.base import Role
from sicbo_contracts.dice import DiceCommand
from sicbo_contracts.lifecycle import LifecycleCommand
from sicbo_contracts.routing import SERVICE_OF_TAG
from sicbo_contracts.wagers import WagerCommand
from tests.support import accounts as acct
from tests.support import lifecycle as lc
from tests.support.common import NOW, TABLE, at
from tests.support.example_states import (
    MONDAY,
    betting,
    checks_out,
    checks_out_closed,
    dice_confirmed,
    dice_disagreeing,
    dice_dual_manual,
    dice_entered,
    dice_held,
    dice_manual,
    dice_proposed,
    dice_uncovered,
    dual_invalidation_proposed,
    dual_open,
    dual_round,
    dual_sign_proposed,
    excluded,
    idle_at_a_full_table,
    in_round,
    macau_2004,
    new,
    one_colour_out,
    online_suspended,
    opened,
    proposed,
    seated,
    sign_only,
    slip_carried,
    slip_placed,
    suspended,
)


@dataclass(frozen=True)
class Example:
    tag: str
    payload: dict[str, Any]
    history: Callable[[], list[Any]]
    at: datetime = NOW

    @property
    def service(self) -> str:
        return SERVICE_OF_TAG[self.tag]

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
    # players' accounts: the operator's cashier (DESIGN.md Roles)
    Example("account.open.v1", {"player": acct.PLAYER, "currency": acct.CURRENCY}, new),
    Example(
        "account.deposit.v1",
        {"player": acct.PLAYER, "amount": 500, "currency": acct.CURRENCY},
        acct.opened,
    ),
    Example(
        "account.withdraw.v1",
        {"player": acct.PLAYER, "amount": 200, "currency": acct.CURRENCY},
        acct.account_funded,
    ),
]


def _account_fold(_table: str, events: list[Any]) -> Any:
    """An account's examples are all of the one player's account."""
    return accounts_decider.fold(acct.PLAYER, events)


SERVICES: dict[str, tuple[Any, Callable[..., Any], Callable[..., Any]]] = {
    "lifecycle": (LifecycleCommand, lifecycle_decider.fold, lifecycle_decider.decide),
    "dice": (DiceCommand, dice_decider.fold, dice_decider.decide),
    "wagers": (WagerCommand, wagers_decider.fold, wagers_decider.decide),
    "accounts": (AccountCommand, _account_fold, accounts_decider.decide),
}


def build(example: Example, role: Role) -> Any:
    """The example's command from a person of ``role`` (a player acts as the slip's player)."""
    union, _, _ = SERVICES[example.service]
    who = example.payload.get("player") if role is Role.PLAYER else None
    raw = {
        "type": example.tag,
        "command_id": "cmd-1",
        # A player's account is its own key (its payload's player), not a table.
        **({} if example.service == "accounts" else {"table": TABLE}),
        "actor": {"id": who or f"{role.value}-1", "role": role.value},
        **example.payload,
    }
    return msgspec.convert(raw, union)


@dataclass(frozen=True)
class Outcome:
    """ "accepted" with the events, or the refusal's code and reason."""

    code: str
    events: tuple[Any, ...] = ()
    reason: str = ""

    @property
    def accepted(self) -> bool:
        return self.code == "accepted"


@functools.cache
def outcome(index: int, role: Role) -> Outcome:
    """What the owning service's pure decider makes of ``EXAMPLES[index]`` sent by ``role``."""
    example = EXAMPLES[index]
    _, fold, decide = SERVICES[example.service]
    try:
        events = decide(fold(TABLE, example.history()), build(example, role), example.at)
    except Refused as refused:
        return Outcome(refused.code, reason=refused.reason)
    assert events, f"{example.name} by {role.value}: neither events nor a refusal"
    return Outcome("accepted", tuple(events))


def decider_permits(tag: str, role: Role) -> tuple[bool, list[str]]:
    """Whether some example state of ``tag`` lets ``role`` through the role checks (a player
    acting for themself, 000 §3.11), and the decider's reasons where it did not."""
    results = [outcome(i, role) for i, e in enumerate(EXAMPLES) if e.tag == tag]
    return any(r.code != "forbidden" for r in results), [r.reason for r in results if r.reason]
