"""Checks shared by the cashier's commands and the game's entries; each refusal names the
field at fault, so a program can point at it and a person can read it."""

from __future__ import annotations

from sicbo.accounts.state import AccountState
from sicbo.decider import Refused, refuse


class AlreadyEntered(Refused):
    """A game entry whose idempotency key the account already holds: it was applied once, and
    applying it again would move the money twice. The writer treats it as done."""

    def __init__(self, key: str) -> None:
        super().__init__(
            f"entry {key!r} is already in the account: applied once, not again",
            code="duplicate",
            field="$.key",
        )


def opened(state: AccountState) -> str:
    """The account's currency, if it is open."""
    if state.currency is None:
        refuse(
            f"player {state.player!r} has no account: the operator's cashier opens it first",
            field="$.player",
            key="account.none",
            params={"player": state.player},
        )
    return state.currency


def same_currency(state: AccountState, currency: str) -> None:
    """One currency per account: money of another is refused, never converted."""
    held = opened(state)
    if currency != held:
        refuse(
            f"the account of {state.player!r} is in {held}, not {currency}: one currency per"
            " account",
            field="$.currency",
            key="account.currency",
            params={"currency": held},
        )


def positive(amount: int, field: str = "$.amount") -> None:
    """Decoded commands are already whole and at least 1 (``Stake``); a command or an entry
    built in code is not validated by msgspec, so a bad amount is refused, never stored."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        refuse(
            f"{amount!r} is not a whole number of minor units",
            field=field,
            key="account.whole-amount",
        )
    if amount < 1:
        refuse(
            f"an amount is at least 1 minor unit, not {amount}",
            field=field,
            key="account.amount-min",
        )


#: The most a balance may hold, in minor units: 2**53 - 1, the largest integer every JSON
#: reader holds exactly (a JavaScript number: the pages, a partner's Node.js client); past it
#: a balance of 10**30 read as 1e30, its last digits lost.
MAX_BALANCE = 2**53 - 1


def within_max_balance(state: AccountState, amount: int) -> None:
    """A deposit never takes the balance past :data:`MAX_BALANCE`."""
    if state.balance + amount > MAX_BALANCE:
        refuse(
            f"a deposit of {amount} would take the balance of {state.player!r} to"
            f" {state.balance + amount} minor units, past {MAX_BALANCE:,}: the most every JSON"
            " reader holds exactly",
            field="$.amount",
            key="account.balance-max",
            params={"amount": MAX_BALANCE - state.balance},
        )


def within_free_balance(state: AccountState, amount: int, what: str) -> None:
    """Never overdrawn: ``amount`` leaves the account only if the free balance holds it."""
    if amount > state.free:
        refuse(
            f"{what} of {amount} {state.currency} is over the free balance of {state.free}"
            f" {state.currency} of {state.player!r}",
            field="$.amount",
            key="account.over-free",
        )


def new_key(state: AccountState, key: str) -> None:
    if key in state.keys:
        raise AlreadyEntered(key)
