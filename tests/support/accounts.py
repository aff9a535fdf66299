"""Builders of players' accounts: the events of an account as the services stamp them."""

from datetime import datetime
from typing import Any

from sicbo.accounts.entries import Slip
from sicbo_contracts.accounts import AccountOpened, FundsDeposited
from sicbo_contracts.base import Actor, Role
from tests.support.common import EARLIER, TABLE

PLAYER = "alice"
CURRENCY = "EUR"
CASHIER = Actor(id="cashier-1", role=Role.OPERATOR)
INTAKE = Actor(id="wagers", role=Role.SERVICE)


def account_opened(player: str = PLAYER, currency: str = CURRENCY) -> AccountOpened:
    return AccountOpened(player=player, actor=CASHIER, at=EARLIER, currency=currency)


def deposited(amount: int, balance: int, *, at: datetime = EARLIER) -> FundsDeposited:
    return FundsDeposited(
        player=PLAYER, actor=CASHIER, at=at, currency=CURRENCY, amount=amount, balance=balance
    )


def opened() -> list[Any]:
    return [account_opened()]


def funded(amount: int = 1_000) -> list[Any]:
    return [account_opened(), deposited(amount, amount)]


def account_funded() -> list[Any]:
    return funded()


def slip(slip_id: str = "s-1", round_no: int = 1, kind: str = "debit") -> Slip:
    return {"table": TABLE, "round": round_no, "slip_id": slip_id, "key": f"{kind}:{slip_id}"}
