"""A player's account, as the fold of its events (:mod:`sicbo_contracts.accounts`).

``evolve`` records facts: it checks nothing and never raises on a well-formed event, so any
stored log replays (replay's own checks, :mod:`sicbo.replay.accounts`, say what is wrong with
a forged one). The rules are checked before an event is appended, by :mod:`.decider` (the
cashier) and :mod:`.entries` (the game).

The state is folded in place and returned: an account's entry keys grow with every slip, and a
copy per event would make reading a long account quadratic. Whoever folds owns the state (the
shell's follower, replay); a decision only reads it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from sicbo_contracts.accounts import (
    AccountEvent,
    AccountOpened,
    BalanceAdjusted,
    FundsDeposited,
    FundsWithdrawn,
    GameEntry,
    PlayerAccountEvent,
    ReturnCredited,
    StakeDebited,
    StakeRefunded,
)

__all__ = ["AccountState", "Debit", "evolve", "fold", "initial_state", "movement"]


@dataclass(slots=True)
class Debit:
    """A slip's stakes taken, and how much of them was given back since."""

    table: str
    round: int
    slip_id: str
    amount: int
    refunded: int = 0

    @property
    def outstanding(self) -> int:
        return self.amount - self.refunded


@dataclass(slots=True)
class AccountState:
    player: str
    currency: str | None = None  # None: the account is not open
    balance: int = 0  # minor units of ``currency``; never below 0
    #: The game entries' idempotency keys: an entry is applied once, however often it is sent.
    keys: set[str] = field(default_factory=set)
    #: Every stake debited, by its key (a refund names one).
    debits: dict[str, Debit] = field(default_factory=dict)
    #: Each slip's debit keys, oldest first, by (table, slip id): a slip's money is read per
    #: slip, and a long account holds thousands of debits.
    slip_debits: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    @property
    def open(self) -> bool:
        return self.currency is not None

    @property
    def free(self) -> int:
        """What may be withdrawn or staked. Stakes on an open round are already debited
        (debit-then-slip), so nothing more is held back from the balance."""
        return self.balance


def initial_state(player: str) -> AccountState:
    return AccountState(player)


def movement(event: PlayerAccountEvent) -> int:
    """How much ``event`` moves the balance (minor units, signed)."""
    match event:
        case FundsDeposited() | StakeRefunded() | ReturnCredited():
            return event.amount
        case FundsWithdrawn() | StakeDebited():
            return -event.amount
        case BalanceAdjusted():
            return event.delta
    return 0


def evolve(state: AccountState, event: AccountEvent) -> AccountState:
    if isinstance(event, AccountOpened):
        state.currency = event.currency
        return state
    state.balance += movement(event)
    if isinstance(event, GameEntry):
        state.keys.add(event.key)
    if isinstance(event, StakeDebited):
        if event.key not in state.debits:  # a key entered twice (a forged log) is one debit
            state.slip_debits.setdefault((event.table, event.slip_id), []).append(event.key)
        state.debits[event.key] = Debit(event.table, event.round, event.slip_id, event.amount)
    elif isinstance(event, StakeRefunded):
        debit = state.debits.get(event.debit_key)
        if debit is not None:
            debit.refunded += event.amount
    return state


def fold(player: str, events: Iterable[AccountEvent]) -> AccountState:
    state = initial_state(player)
    for event in events:
        state = evolve(state, event)
    return state
