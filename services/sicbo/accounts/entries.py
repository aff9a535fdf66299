"""The game's entries in a player's account, as pure decisions: wager intake debits a slip's
stakes (and refunds them), settlement credits returns and adjusts after a correction.

The design (docs/architecture.md, "Player accounts"): an account is not in any table's log,
so a slip and its debit cannot be one atomic batch. Intake debits first, then stores the slip;
a debit whose slip was never stored is found and refunded before the round settles. Each
entry carries an idempotency ``key`` (``debit:<table>:<slip>``, ...), unique in its account:
an entry sent again after a crash is :class:`~.guards.AlreadyEntered`, never applied twice.
The writer appends the entry expecting the account's last sequence (the shell's expectation),
so two slips racing from two tabs cannot both spend the same funds.

Each function returns the one event to append, or raises :class:`~sicbo.decider.Refused`
naming the field at fault (``$.amount`` over the free balance, ``$.currency``...).
"""

from __future__ import annotations

from datetime import datetime
from typing import TypedDict

from sicbo.accounts.guards import new_key, positive, same_currency, within_free_balance
from sicbo.accounts.state import AccountState
from sicbo.decider import refuse
from sicbo_contracts.accounts import (
    BalanceAdjusted,
    ReturnCredited,
    StakeDebited,
    StakeRefunded,
)
from sicbo_contracts.base import Actor


class Slip(TypedDict):
    """Which slip of which round an entry is about, and its idempotency key."""

    table: str
    round: int
    slip_id: str
    key: str


class _Head(TypedDict):
    player: str
    actor: Actor
    at: datetime
    currency: str
    table: str
    round: int
    slip_id: str
    key: str


def _head(state: AccountState, slip: Slip, currency: str, actor: Actor, at: datetime) -> _Head:
    same_currency(state, currency)
    new_key(state, slip["key"])
    return {
        "player": state.player,
        "actor": actor,
        "at": at,
        "currency": currency,
        "table": slip["table"],
        "round": slip["round"],
        "slip_id": slip["slip_id"],
        "key": slip["key"],
    }


def debit_stake(
    state: AccountState, slip: Slip, amount: int, currency: str, actor: Actor, at: datetime
) -> StakeDebited:
    """A slip's stakes, from the free balance: never overdrawn. ``currency`` is the table's:
    a slip on a table of another currency is refused."""
    positive(amount)
    head = _head(state, slip, currency, actor, at)
    within_free_balance(state, amount, "a stake")
    return StakeDebited(**head, amount=amount, balance=state.balance - amount)


def refund_stake(
    state: AccountState,
    slip: Slip,
    debit_key: str,
    amount: int,
    reason: str,
    actor: Actor,
    at: datetime,
) -> StakeRefunded:
    """Stakes given back, of a debit of this account, never more than is outstanding of it."""
    positive(amount)
    debit = state.debits.get(debit_key)
    if debit is None:
        refuse(
            f"no stake was debited under {debit_key!r} in this account",
            field="$.debit_key",
            key="account.no-debit",
        )
    if amount > debit.outstanding:
        refuse(
            f"a refund of {amount} is over what is outstanding of {debit_key!r}"
            f" ({debit.outstanding} of {debit.amount})",
            field="$.amount",
            key="account.refund-over",
        )
    head = _head(state, slip, state.currency or "", actor, at)
    return StakeRefunded(
        **head, amount=amount, debit_key=debit_key, reason=reason, balance=state.balance + amount
    )


def credit_return(
    state: AccountState, slip: Slip, amount: int, currency: str, actor: Actor, at: datetime
) -> ReturnCredited:
    """A settled slip's return (stake and winnings), once per key."""
    positive(amount)
    head = _head(state, slip, currency, actor, at)
    return ReturnCredited(**head, amount=amount, balance=state.balance + amount)


def adjust(
    state: AccountState,
    slip: Slip,
    delta: int,
    currency: str,
    reason: str,
    actor: Actor,
    at: datetime,
) -> BalanceAdjusted:
    """A correction's difference, either way, never below a zero balance: what a correction
    would take back beyond the balance (winnings the player already staked or withdrew) is
    not taken but recorded as ``owed`` (docs/rules.md "Player accounts"; GLI-19 lets winnings
    be recovered only where that was disclosed)."""
    if isinstance(delta, bool) or not isinstance(delta, int) or delta == 0:
        refuse(
            f"an adjustment moves a whole, non-zero number of minor units, not {delta!r}",
            field="$.delta",
            key="account.whole-amount",
        )
    head = _head(state, slip, currency, actor, at)
    moved = max(delta, -state.balance)
    return BalanceAdjusted(
        **head, delta=moved, reason=reason, owed=moved - delta, balance=state.balance + moved
    )
