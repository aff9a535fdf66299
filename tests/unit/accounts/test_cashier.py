"""The cashier's commands on a player's account: open, deposit, withdraw (DESIGN.md Roles:
the operator's cashier). Money is whole minor units, one currency per account, never
overdrawn; a refusal names the field at fault."""

from typing import Any

import pytest

from sicbo.accounts.decider import decide, fold
from sicbo.accounts.guards import MAX_BALANCE
from sicbo.decider import Refused
from sicbo_contracts.accounts import (
    AccountOpened,
    DepositFunds,
    FundsDeposited,
    FundsWithdrawn,
    OpenAccount,
    WithdrawFunds,
)
from sicbo_contracts.base import Actor, Role
from tests.support.accounts import CASHIER, CURRENCY, PLAYER, deposited, funded, opened
from tests.support.common import NOW


def when(history: list[Any], command: Any) -> list[Any]:
    return decide(fold(PLAYER, history), command, NOW)


def refused(history: list[Any], command: Any, *, field: str | None, code: str = "refused") -> str:
    with pytest.raises(Refused) as caught:
        when(history, command)
    assert (caught.value.code, caught.value.field) == (code, field), caught.value.reason
    return caught.value.reason


def open_account(currency: str = CURRENCY, by: Actor = CASHIER) -> OpenAccount:
    return OpenAccount(command_id="c-open", player=PLAYER, actor=by, currency=currency)


def deposit(amount: int, currency: str = CURRENCY) -> DepositFunds:
    return DepositFunds(
        command_id="c-dep", player=PLAYER, actor=CASHIER, amount=amount, currency=currency
    )


def withdraw(amount: int, currency: str = CURRENCY) -> WithdrawFunds:
    return WithdrawFunds(
        command_id="c-wd", player=PLAYER, actor=CASHIER, amount=amount, currency=currency
    )


def test_the_cashier_opens_an_account_in_one_currency() -> None:
    assert when([], open_account()) == [
        AccountOpened(player=PLAYER, actor=CASHIER, at=NOW, currency=CURRENCY)
    ]


def test_an_account_is_opened_once() -> None:
    why = refused(opened(), open_account("MOP"), field="$.player")
    assert "already has an account, in EUR" in why


@pytest.mark.parametrize("role", [r for r in Role if r is not Role.OPERATOR])
def test_only_the_operators_cashier_moves_money_design_roles(role: Role) -> None:
    someone = Actor(id="someone", role=role)
    refused([], open_account(by=someone), field=None, code="forbidden")
    refused(
        funded(),
        WithdrawFunds(command_id="c", player=PLAYER, actor=someone, amount=1, currency=CURRENCY),
        field=None,
        code="forbidden",
    )


def test_a_deposit_adds_to_the_balance_and_records_it() -> None:
    [event] = when(funded(1_000), deposit(250))
    assert event == FundsDeposited(
        player=PLAYER, actor=CASHIER, at=NOW, currency=CURRENCY, amount=250, balance=1_250
    )


def test_money_goes_only_into_an_open_account() -> None:
    assert "has no account" in refused([], deposit(100), field="$.player")


def test_a_deposit_in_another_currency_is_refused_never_converted() -> None:
    assert "is in EUR, not USD" in refused(opened(), deposit(100, "USD"), field="$.currency")


def test_a_withdrawal_takes_from_the_balance() -> None:
    [event] = when(funded(1_000), withdraw(1_000))  # the whole free balance may go
    assert isinstance(event, FundsWithdrawn)
    assert (event.amount, event.balance) == (1_000, 0)


def test_a_withdrawal_over_the_free_balance_is_refused_naming_the_amount() -> None:
    history = [*funded(1_000), deposited(1, 1_001)]
    why = refused(history, withdraw(1_002), field="$.amount")
    assert "over the free balance of 1001 EUR" in why


def test_a_withdrawal_in_another_currency_is_refused() -> None:
    refused(funded(), withdraw(1, "GBP"), field="$.currency")


@pytest.mark.parametrize("amount", [0, -5, 2.5, True])
def test_an_amount_built_in_code_that_is_not_a_positive_whole_number_is_refused(
    amount: Any,
) -> None:
    """Decoded commands are checked by the contract (at least 1, an integer); one built in code
    is not, so the decider checks it too."""
    for command in (deposit(amount), withdraw(amount)):
        refused(funded(), command, field="$.amount")


def test_a_command_reaching_another_accounts_state_is_refused() -> None:
    with pytest.raises(Refused) as caught:
        decide(fold("bob", []), open_account(), NOW)
    assert caught.value.field == "$.player"


def test_a_deposit_past_the_most_every_json_reader_holds_is_refused() -> None:
    """2**53 - 1 minor units: past it a page or a Node.js client reads the balance rounded (a
    deposit of 10**30 was stored and read back as 1e30)."""
    most = MAX_BALANCE - 1_000
    assert when(funded(1_000), deposit(most))[0].balance == MAX_BALANCE  # up to it: taken
    why = refused(funded(1_000), deposit(most + 1), field="$.amount")
    assert f"past {MAX_BALANCE:,}" in why
    refused(funded(1_000), deposit(10**30), field="$.amount")
