"""Each command is refused from the wrong role (DESIGN.md "Roles"): a dealer cannot invalidate
(000 §8.4) or clear a fault; only an inspector clears a fault (000 §7.7); only a supervisor
handles limits (000 §4.3-4.4), closing (000 §8.8) and cancellation (004); only the settlement
service completes a round; only the operator applies for a paytable (002/2004 art. 8)."""

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime

import pytest

from sicbo.lifecycle.decider import decide
from sicbo.lifecycle.state import Phase
from sicbo_contracts.base import Limits, Role
from sicbo_contracts.lifecycle import (
    ApprovePaytable,
    CancelRound,
    ChangeLimits,
    ClearFault,
    CloseBetting,
    CloseTable,
    CompleteRound,
    DeclareNoResult,
    InvalidateRound,
    InvalidationReason,
    LeaveSeat,
    LifecycleCommand,
    NoResultReason,
    OpenBetting,
    OpenTable,
    OverridePlayerLimits,
    PostClosingNotice,
    PostLimitsNotice,
    ProposePaytable,
    ReportMalfunction,
    StartRound,
    TakeSeat,
    Uncover,
)
from tests.support.common import NOW, Fact, at, command
from tests.support.lifecycle import (
    config,
    given,
    refused,
    round_through,
    seated,
    suspended_round,
    table_opened,
    when,
)

FRIDAY, MONDAY = date(2024, 6, 7), date(2024, 6, 10)
LIMITS = Limits(minimum=5, maximum=2_000)
OWN_SIGN = Limits(minimum=10, maximum=5_000)  # 000 §4.4: over the maximum, not under the minimum


def _proposed() -> list[Fact]:
    history: list[Fact] = [table_opened("macau-2004", at=at(-10 * 24 * 60))]
    propose = command(ProposePaytable, "operator", choices={"total-6-15": 16}, applied_on=FRIDAY)
    return history + when(history, propose, at=at(day=FRIDAY))


def _suspended() -> list[Fact]:
    history: list[Fact] = [table_opened()]
    return history + when(history, command(ReportMalfunction, "dealer", equipment="x", detail="y"))


@dataclass(frozen=True)
class Case:
    build: Callable[[Role], LifecycleCommand]
    history: Callable[[], Fact | list[Fact]]
    allowed: frozenset[Role]
    moment: datetime = NOW

    @property
    def name(self) -> str:
        return type(self.build(Role.DEALER)).__name__


def case(
    build: Callable[[Role], LifecycleCommand],
    history: Callable[[], Fact | list[Fact]],
    *allowed: Role,
    moment: datetime = NOW,
) -> Case:
    return Case(build, history, frozenset(allowed), moment)


SUPER, DEALER, INSPECTOR, OPERATOR, SERVICE = (
    Role.SUPERVISOR,
    Role.DEALER,
    Role.INSPECTOR,
    Role.OPERATOR,
    Role.SERVICE,
)

CASES = [
    case(lambda r: command(OpenTable, r, config=config()), list, OPERATOR, SUPER),
    case(
        lambda r: command(PostLimitsNotice, r, limits=LIMITS, effective_at=at(30)),
        table_opened,
        SUPER,
    ),
    case(lambda r: command(ChangeLimits, r, limits=LIMITS, reason="r"), table_opened, SUPER),
    case(
        lambda r: command(OverridePlayerLimits, r, player="p1", limits=OWN_SIGN, reason="r"),
        table_opened,
        SUPER,
    ),
    case(lambda r: command(PostClosingNotice, r, close_at=at(30)), table_opened, SUPER),
    case(lambda r: command(CloseTable, r), table_opened, SUPER),
    case(lambda r: command(TakeSeat, r, player="p1", seat=1), table_opened, DEALER, SUPER),
    case(
        lambda r: command(LeaveSeat, r, player="p1"),
        lambda: [table_opened(), *seated("p1")],
        DEALER,
        SUPER,
    ),
    case(
        lambda r: command(
            ProposePaytable, r, choices={"total-5-16": 24}, applied_on=date(2024, 5, 31)
        ),
        lambda: table_opened("macau-2004"),
        OPERATOR,
    ),
    case(
        lambda r: command(
            ApprovePaytable,
            r,
            paytable="macau-2004@v1?total-6-15=16",
            adoption_date=date(2024, 6, 12),
            acknowledged_no_house_edge=["even", "odd"],
            regulator_reference="DICJ/2024/0417",  # 002/2004 art. 8
        ),
        _proposed,
        OPERATOR,
        SUPER,
        moment=at(day=MONDAY),
    ),
    case(lambda r: command(StartRound, r, round=1, tumbles=3), table_opened, DEALER, SUPER),
    case(
        lambda r: command(OpenBetting, r, round=1),
        lambda: [table_opened(), *round_through(1, Phase.STARTED)],
        DEALER,
    ),
    case(
        lambda r: command(CloseBetting, r, round=1),
        lambda: [
            table_opened("online-live"),
            *round_through(1, Phase.BETTING_OPEN, profile="online-live"),
        ],
        DEALER,
        SERVICE,
    ),
    case(
        lambda r: command(Uncover, r, round=1),
        lambda: [table_opened(), *round_through(1, Phase.BETTING_CLOSED)],
        DEALER,
    ),
    case(
        lambda r: command(DeclareNoResult, r, round=1, reason=NoResultReason.DICE_NOT_FLAT),
        lambda: [table_opened(), *round_through(1, Phase.UNCOVERED)],
        DEALER,
        SUPER,
    ),
    case(
        lambda r: command(
            InvalidateRound, r, round=1, reason=InvalidationReason.RIOT, detail="riot"
        ),
        lambda: [table_opened(), *round_through(1, Phase.UNCOVERED)],
        SUPER,
    ),
    case(
        lambda r: command(ReportMalfunction, r, equipment="lamp", detail="dark"),
        table_opened,
        DEALER,
        SUPER,
        INSPECTOR,
        SERVICE,
    ),
    case(lambda r: command(ClearFault, r, detail="fixed"), _suspended, INSPECTOR),
    case(
        lambda r: command(CancelRound, r, round=1, reason="r"),
        # 004 "Ralat Pengendalian": an online round suspended for a problem
        lambda: suspended_round("online-live", Phase.UNCOVERED),
        SUPER,
    ),
    case(
        lambda r: command(CompleteRound, r, round=1),
        lambda: [table_opened(), *round_through(1, Phase.RESULT_CONFIRMED)],
        SERVICE,
    ),
]

WRONG = [(c, role) for c in CASES for role in Role if role not in c.allowed]
RIGHT = [(c, role) for c in CASES for role in sorted(c.allowed)]


@pytest.mark.parametrize(("c", "role"), WRONG, ids=[f"{c.name}-by-{r.value}" for c, r in WRONG])
def test_the_wrong_role_is_refused(c: Case, role: Role) -> None:
    refused(
        c.history(),
        c.build(role),
        match=f"{role.value} .* may not {c.name}: only an? ",
        code="forbidden",
    )


@pytest.mark.parametrize(("c", "role"), RIGHT, ids=[f"{c.name}-by-{r.value}" for c, r in RIGHT])
def test_the_right_role_is_accepted(c: Case, role: Role) -> None:
    assert decide(given(c.history()), c.build(role), c.moment)


def test_a_dealer_cannot_invalidate_000_8_4() -> None:
    history = [table_opened(), *round_through(1, Phase.UNCOVERED)]
    cmd = command(
        InvalidateRound, "dealer", round=1, reason=InvalidationReason.FRAUD, detail="marked"
    )
    refused(history, cmd, match=r"only a supervisor may \(000 §8\.4\)", code="forbidden")


def test_a_supervisor_cannot_clear_a_fault_only_an_inspector_000_7_7() -> None:
    for role in ("dealer", "supervisor"):
        cmd = command(ClearFault, role, detail="looks fine")
        refused(_suspended(), cmd, match=r"only an inspector may \(000 §7\.7", code="forbidden")


def test_a_command_for_another_table_is_refused() -> None:
    cmd = command(CloseTable, "supervisor")
    wrong_table = type(cmd)(command_id="x", table="T2", actor=cmd.actor)
    refused(table_opened(), wrong_table, "command for table 'T2' reached the state of table 'T1'")
