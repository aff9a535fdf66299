"""Squaring a slip's net debit with the slip as stored, and settlement's payments (pure)."""

from __future__ import annotations

from typing import Any

from sicbo.accounts.entries import debit_stake, refund_stake
from sicbo.accounts.squaring import debits_of, net_debit, refund_excess
from sicbo.accounts.state import AccountState, evolve, fold
from sicbo.settlement.payments import Payment, entry_for, payments_of
from sicbo.wagers.stakes import chips, move_of
from sicbo_contracts.accounts import ReturnCredited, StakeRefunded
from sicbo_contracts.settlement import WagerOutcome, WagerResult, WagersSettled
from sicbo_contracts.wagers import Medium, SlipChanged, SlipPlaced, SlipWithdrawn, Wager
from tests.support.accounts import CURRENCY, INTAKE, PLAYER, funded, slip
from tests.support.common import NOW, TABLE


def debited(*amounts: int) -> AccountState:
    state = fold(PLAYER, funded(1_000))
    for n, amount in enumerate(amounts, start=1):
        entry = slip("s-1", kind=f"debit-v{n}")
        state = evolve(state, debit_stake(state, entry, amount, CURRENCY, INTAKE, NOW))
    return state


def square(state: AccountState, stored: int) -> list[StakeRefunded]:
    refunds = []
    while (
        r := refund_excess(state, TABLE, "s-1", stored, tag="t", reason="r", actor=INTAKE, at=NOW)
    ) is not None:
        refunds.append(r)
        state = evolve(state, r)
    assert net_debit(state, TABLE, "s-1") == min(stored, net_debit(state, TABLE, "s-1"))
    return refunds


def test_a_debit_without_its_slip_is_refunded_whole_under_its_key() -> None:
    (refund,) = square(debited(300), stored=0)
    assert (refund.debit_key, refund.key, refund.amount, refund.balance) == (
        "debit-v1:s-1",
        "refund:debit-v1:s-1",
        300,
        1_000,
    )


def test_a_lowered_slip_gets_back_only_the_excess_latest_debit_first() -> None:
    refunds = square(debited(300, 200), stored=100)
    assert [(r.debit_key, r.amount) for r in refunds] == [
        ("debit-v2:s-1", 200),
        ("debit-v1:s-1", 200),
    ]
    assert refunds[-1].key == "refund:debit-v1:s-1:t"  # a part of a debit: tagged


def test_a_slips_debits_are_its_own_oldest_first_among_other_slips_and_tables() -> None:
    state = fold(PLAYER, funded(1_000))
    for slip_id, table, kind, amount in (
        ("s-1", TABLE, "debit-v1", 100),
        ("s-2", TABLE, "debit-v1", 50),
        ("s-1", "other", "debit-v1", 70),  # the same slip id at another table
        ("s-1", TABLE, "debit-v2", 30),
    ):
        entry = {**slip(slip_id, kind=kind), "table": table, "key": f"{kind}:{table}:{slip_id}"}
        state = evolve(state, debit_stake(state, entry, amount, CURRENCY, INTAKE, NOW))  # type: ignore[arg-type]
    assert [k for k, _ in debits_of(state, TABLE, "s-1")] == [
        f"debit-v1:{TABLE}:s-1",
        f"debit-v2:{TABLE}:s-1",
    ]
    assert (net_debit(state, TABLE, "s-1"), net_debit(state, "other", "s-1")) == (130, 70)
    assert debits_of(state, TABLE, "s-9") == []


def test_a_square_slip_is_left_alone() -> None:
    assert square(debited(300), stored=300) == []
    state = debited(300)
    state = evolve(
        state,
        refund_stake(state, slip("s-1", kind="refund"), "debit-v1:s-1", 300, "r", INTAKE, NOW),
    )
    assert square(state, stored=0) == []


def test_only_chips_come_from_the_account() -> None:
    wagers = [
        Wager(bet="big", stake=200),
        Wager(bet="big", stake=100, medium=Medium.PROMO, token="tok-1"),
    ]
    assert chips(wagers) == 200
    head: dict[str, Any] = {
        "table": TABLE,
        "actor": INTAKE,
        "at": NOW,
        "round": 1,
        "slip_id": "s-1",
        "player": PLAYER,
    }
    placed = move_of(SlipPlaced(**head, wagers=wagers))
    changed = move_of(SlipChanged(**head, before=wagers, after=wagers[:1] * 2))
    gone = move_of(SlipWithdrawn(**head, before=wagers))
    assert [(m.before, m.after) for m in (placed, changed, gone) if m] == [
        (0, 200),
        (200, 400),
        (200, 0),
    ]


def result(outcome: WagerOutcome, returned: int, index: int = 0) -> WagerResult:
    return WagerResult(
        slip_id="s-1",
        index=index,
        player=PLAYER,
        bet="big",
        stake=300,
        medium="chips",
        outcome=outcome,
        winnings=max(0, returned - 300),
        returned=returned,
    )


def test_settlement_pays_returns_and_voids_once_by_wager_key() -> None:
    settled = WagersSettled(
        table=TABLE,
        actor=INTAKE,
        at=NOW,
        round=1,
        part=1,
        wagers=[
            result(WagerOutcome.WIN, 600),
            result(WagerOutcome.LOSE, 0, 1),
            result(WagerOutcome.VOID, 300, 2),
        ],
    )
    pays = list(payments_of(settled))
    assert [(p.kind, p.amount, p.key) for p in pays] == [
        ("return", 600, f"return:{TABLE}:1:s-1:0"),
        ("void", 300, f"void:{TABLE}:1:s-1:2"),
    ]
    state = debited(300)
    credit = entry_for(state, TABLE, 1, pays[0], INTAKE, NOW)
    assert isinstance(credit, ReturnCredited) and credit.balance == 1_300
    void = entry_for(state, TABLE, 1, pays[1], INTAKE, NOW)
    assert isinstance(void, StakeRefunded) and void.debit_key == "debit-v1:s-1"


def test_a_slip_not_debited_from_the_account_is_paid_at_the_table() -> None:
    pay = Payment(PLAYER, "s-other", "return", 600, f"return:{TABLE}:1:s-other:0", "settled")
    assert entry_for(debited(300), TABLE, 1, pay, INTAKE, NOW) is None
