"""The game's entries in a player's account (the next slice wires wager intake and settlement
to them): a slip's stakes debited from the free balance and never overdrawn, refunds of a
stored debit, returns credited once per idempotency key, adjustments either way."""

from typing import Any

import pytest

from sicbo.accounts.entries import adjust, credit_return, debit_stake, refund_stake
from sicbo.accounts.guards import AlreadyEntered
from sicbo.accounts.state import AccountState, evolve, fold
from sicbo.decider import Refused
from sicbo_contracts.accounts import StakeDebited
from tests.support.accounts import CURRENCY, INTAKE, PLAYER, funded, opened, slip
from tests.support.common import NOW, TABLE


def account(history: list[Any]) -> AccountState:
    return fold(PLAYER, history)


def field_of(refusal: pytest.ExceptionInfo[Refused]) -> str | None:
    return refusal.value.field


def test_a_debit_takes_the_stakes_and_names_the_slip() -> None:
    event = debit_stake(account(funded(1_000)), slip("s-1"), 300, CURRENCY, INTAKE, NOW)
    assert event == StakeDebited(
        player=PLAYER,
        actor=INTAKE,
        at=NOW,
        currency=CURRENCY,
        table=TABLE,
        round=1,
        slip_id="s-1",
        key="debit:s-1",
        amount=300,
        balance=700,
    )


def test_a_debit_over_the_free_balance_is_refused_naming_the_amount() -> None:
    with pytest.raises(Refused) as caught:
        debit_stake(account(funded(100)), slip(), 101, CURRENCY, INTAKE, NOW)
    assert field_of(caught) == "$.amount" and "over the free balance of 100" in caught.value.reason


def test_two_debits_decided_on_one_balance_cannot_both_be_folded_as_funded() -> None:
    """The pure half of "two tabs can't both spend the same funds": the second debit, decided
    on the balance after the first, is refused (the append's expectation makes the shell
    decide it again on that balance)."""
    state = account(funded(500))
    first = debit_stake(state, slip("s-1"), 400, CURRENCY, INTAKE, NOW)
    state = evolve(state, first)
    with pytest.raises(Refused):
        debit_stake(state, slip("s-2"), 400, CURRENCY, INTAKE, NOW)


def test_a_slip_on_a_table_of_another_currency_is_refused() -> None:
    with pytest.raises(Refused) as caught:
        debit_stake(account(funded()), slip(), 10, "MOP", INTAKE, NOW)
    assert field_of(caught) == "$.currency"


def test_no_entry_without_an_open_account() -> None:
    with pytest.raises(Refused) as caught:
        credit_return(account([]), slip(kind="return"), 10, CURRENCY, INTAKE, NOW)
    assert field_of(caught) == "$.player"


def test_an_entry_is_applied_once_per_idempotency_key() -> None:
    state = account(funded())
    credit = credit_return(state, slip(kind="return"), 200, CURRENCY, INTAKE, NOW)
    state = evolve(state, credit)
    assert state.balance == 1_200
    with pytest.raises(AlreadyEntered) as caught:
        credit_return(state, slip(kind="return"), 200, CURRENCY, INTAKE, NOW)
    assert (caught.value.code, caught.value.field) == ("duplicate", "$.key")


def test_a_refund_returns_a_stored_debit_never_more_than_is_outstanding() -> None:
    state = account(funded(1_000))
    state = evolve(state, debit_stake(state, slip("s-1"), 300, CURRENCY, INTAKE, NOW))
    refund_key = slip("s-1", kind="refund")
    with pytest.raises(Refused) as over:
        refund_stake(state, refund_key, "debit:s-1", 301, "slip not stored", INTAKE, NOW)
    assert field_of(over) == "$.amount"
    with pytest.raises(Refused) as unknown:
        refund_stake(state, refund_key, "debit:s-9", 300, "slip not stored", INTAKE, NOW)
    assert field_of(unknown) == "$.debit_key"
    refund = refund_stake(state, refund_key, "debit:s-1", 300, "slip not stored", INTAKE, NOW)
    state = evolve(state, refund)
    assert (refund.balance, state.balance, state.debits["debit:s-1"].outstanding) == (
        1_000,
        1_000,
        0,
    )


def test_an_adjustment_moves_the_difference_either_way_never_below_zero() -> None:
    state = account(funded(100))
    up = adjust(state, slip(kind="adjust"), 50, CURRENCY, "corrected", INTAKE, NOW)
    assert (up.delta, up.owed, up.balance) == (50, 0, 150)
    down = adjust(state, slip(kind="adjust"), -60, CURRENCY, "corrected", INTAKE, NOW)
    assert (down.delta, down.owed, down.balance) == (-60, 0, 40)
    # docs/rules.md "Player accounts": what is not in the balance is recorded as owed, not taken.
    over = adjust(state, slip(kind="adjust"), -130, CURRENCY, "corrected", INTAKE, NOW)
    assert (over.delta, over.owed, over.balance) == (-100, 30, 0)
    with pytest.raises(Refused) as caught:
        adjust(state, slip(kind="adjust"), 0, CURRENCY, "corrected", INTAKE, NOW)
    assert field_of(caught) == "$.delta"


@pytest.mark.parametrize("amount", [0, -1, 1.5])
def test_entry_amounts_are_positive_whole_minor_units(amount: Any) -> None:
    with pytest.raises(Refused) as caught:
        debit_stake(account(opened()), slip(), amount, CURRENCY, INTAKE, NOW)
    assert field_of(caught) == "$.amount"


def test_the_balance_is_the_fold_of_the_entries() -> None:
    state = account(funded(1_000))
    for n, stake in enumerate((100, 250, 50)):
        state = evolve(state, debit_stake(state, slip(f"s-{n}"), stake, CURRENCY, INTAKE, NOW))
    state = evolve(state, credit_return(state, slip("s-0", kind="r"), 200, CURRENCY, INTAKE, NOW))
    assert state.balance == 1_000 - 400 + 200
