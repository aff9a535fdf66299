"""The account decider: the operator's cashier's commands, as pure functions.

``decide(state, command, at)`` turns ``OpenAccount``, ``DepositFunds`` or ``WithdrawFunds``
into events, or raises :class:`~sicbo.decider.Refused` naming the field at fault;
``evolve(state, event)`` (:mod:`.state`) folds one event of the account. No clock, no I/O:
time comes in as ``at``, the actor with the command. A retried command (the same command id)
is answered "duplicate" by the shell and appends nothing: its id is the append's msg id and a
header of the event (:mod:`sicbo.shell.commands`).

The game's entries (stakes debited, refunded, returns credited, adjustments) are not cashier
commands: wager intake and settlement decide them in their own processes with
:mod:`.entries`, and append them expecting the account's last sequence.

Choices where the brief is silent:

- Only the operator's cashier moves money in or out (DESIGN.md Roles: operator, cashier).
- A withdrawal may take the whole free balance; the free balance is the balance, since a
  slip's stakes are debited before the slip is stored.
- An account is opened once, in one currency, and never changes currency.
"""

from __future__ import annotations

from datetime import datetime

from sicbo.accounts.guards import (
    opened,
    positive,
    same_currency,
    within_free_balance,
    within_max_balance,
)
from sicbo.accounts.state import AccountState, evolve, fold, initial_state
from sicbo.decider import refuse, require_role
from sicbo_contracts.accounts import (
    AccountCommand,
    AccountEvent,
    AccountOpened,
    DepositFunds,
    FundsDeposited,
    FundsWithdrawn,
    OpenAccount,
    WithdrawFunds,
)
from sicbo_contracts.base import Role

__all__ = ["AccountState", "decide", "evolve", "fold", "initial_state"]

_CASHIER = (Role.OPERATOR,)  # DESIGN.md Roles: the operator's cashier


def decide(state: AccountState, command: AccountCommand, at: datetime) -> list[AccountEvent]:
    """The events ``command`` causes at time ``at``, or raise ``Refused`` naming the field."""
    if command.player != state.player:
        refuse(
            f"command for account {command.player!r} reached the state of {state.player!r}",
            field="$.player",
        )
    require_role(command, _CASHIER, rule="DESIGN.md Roles: the operator's cashier")
    match command:
        case OpenAccount():
            return [_open(state, command, at)]
        case DepositFunds():
            return [_deposit(state, command, at)]
        case WithdrawFunds():
            return [_withdraw(state, command, at)]
    raise AssertionError(f"unhandled command {command!r}")  # pragma: no cover


def _open(state: AccountState, command: OpenAccount, at: datetime) -> AccountOpened:
    if state.currency is not None:
        refuse(
            f"player {state.player!r} already has an account, in {state.currency}: one account"
            " per player, one currency per account",
            field="$.player",
            key="account.exists",
            params={"player": state.player},
        )
    return AccountOpened(
        player=command.player, actor=command.actor, at=at, currency=command.currency
    )


def _deposit(state: AccountState, command: DepositFunds, at: datetime) -> FundsDeposited:
    positive(command.amount)
    same_currency(state, command.currency)
    within_max_balance(state, command.amount)
    return FundsDeposited(
        player=command.player,
        actor=command.actor,
        at=at,
        currency=opened(state),
        amount=command.amount,
        balance=state.balance + command.amount,
        reference=command.reference,
    )


def _withdraw(state: AccountState, command: WithdrawFunds, at: datetime) -> FundsWithdrawn:
    positive(command.amount)
    same_currency(state, command.currency)
    within_free_balance(state, command.amount, "a withdrawal")
    return FundsWithdrawn(
        player=command.player,
        actor=command.actor,
        at=at,
        currency=opened(state),
        amount=command.amount,
        balance=state.balance - command.amount,
        reference=command.reference,
    )
