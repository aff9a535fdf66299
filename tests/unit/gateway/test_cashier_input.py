"""The cashier's commands as the gateway builds them from a page's body: the type, the actor and
(to move money) the player are the gateway's; every refusal names the field at fault."""

from __future__ import annotations

from typing import Any

import pytest

from sicbo.gateway.cashier_input import DEPOSIT, OPEN, WITHDRAW, cashier_command
from sicbo.gateway.http import ApiError
from sicbo.gateway.operators import Operator
from sicbo_contracts.accounts import DepositFunds, OpenAccount, WithdrawFunds
from sicbo_contracts.base import Actor, Role

OMAR = Operator(id="omar", role=Role.OPERATOR, salt="00" * 16, pin_hash="00" * 32)


def money(**fields: Any) -> dict[str, Any]:
    return {"command_id": "cash-1", "amount": 250, "currency": "EUR", **fields}


def test_the_gateway_stamps_the_type_the_actor_and_the_paths_player() -> None:
    opened = cashier_command(
        OPEN, {"command_id": "c-1", "player": "demo:a", "currency": "EUR"}, OMAR
    )
    assert opened == OpenAccount(
        command_id="c-1",
        player="demo:a",
        currency="EUR",
        actor=Actor(id="omar", role=Role.OPERATOR),
    )
    deposit = cashier_command(DEPOSIT, money(reference="r-7"), OMAR, "demo:a")
    assert isinstance(deposit, DepositFunds)
    assert (deposit.player, deposit.amount, deposit.reference) == ("demo:a", 250, "r-7")
    withdrawal = cashier_command(WITHDRAW, money(player="demo:a"), OMAR, "demo:a")
    assert isinstance(withdrawal, WithdrawFunds) and withdrawal.actor.id == "omar"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (money(amount=-1), "$.amount"),
        (money(amount=0), "$.amount"),
        (money(amount=2.5), "$.amount"),
        (money(amount=100.0), "$.amount"),
        (money(amount="100"), "$.amount"),
        (money(amount=False), "$.amount"),
        (money(amount=None), "$.amount"),
        ({"command_id": "c", "currency": "EUR"}, "$.amount"),
        ({"command_id": "c", "amount": 1}, "$.currency"),
        ({"amount": 1, "currency": "EUR"}, "$.command_id"),
        (money(currency="eur"), "$.currency"),
        (money(reference=""), "$.reference"),
        (money(actor={"id": "x", "role": "operator"}), "$.actor"),
        (money(type="account.open.v1"), "$.type"),
        (money(extra=1), "$.extra"),
        (money(player="demo:b"), "$.player"),
    ],
)
def test_bad_money_is_refused_naming_the_field(body: dict[str, Any], field: str) -> None:
    with pytest.raises(ApiError) as refused:
        cashier_command(DEPOSIT, body, OMAR, "demo:a")
    assert (refused.value.status, refused.value.field) == (400, field), refused.value.reason


def test_an_account_is_opened_for_a_player_id_that_can_be_one() -> None:
    with pytest.raises(ApiError) as refused:
        cashier_command(OPEN, {"command_id": "c", "player": "a.b", "currency": "EUR"}, OMAR)
    assert refused.value.field == "$.player"
