"""Player accounts: the commands of the operator's cashier and the entries of an account.

An account is an aggregate of its own, apart from every table (a player bets at many tables):
its events are on ``sicbo.acct.<player>.<event-type>`` in the stream ``SICBO_ACCOUNTS``
(:mod:`.subjects`), and its balance is the fold of them. One currency per account (ISO 4217
letters), money in integer minor units, every amount at least 1.

The cashier's commands (``account.open.v1``, ``account.deposit.v1``, ``account.withdraw.v1``)
are sent by an operator to the accounts service on ``sicbo.cmd.<player>.accounts.operator``.
The game's entries (a stake debited, refunded, a return credited, an adjustment) are written
by wager intake and settlement, each under an idempotency ``key`` that is unique in its
account, so an entry retried after a crash is found and never applied twice. Every entry
records the balance after it: replay re-folds the account and checks each one.
"""

from typing import Annotated

import msgspec
from msgspec import Meta

from sicbo_contracts.base import Actor, Id, Money, Reason, Stake, Time

#: A player's account id: an id that is also one subject token (no dot).
AccountId = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_:@-]+$")]
#: ISO 4217 alphabetic code (``EUR``, ``MOP``): three capital letters.
Currency = Annotated[str, Meta(pattern=r"^[A-Z]{3}$")]
#: Where a table's round stands (round 0 is never a game entry's round).
EntryRound = Annotated[int, Meta(ge=1)]
#: An idempotency key of a game entry: ``debit:<table>:<slip>`` and the like.
EntryKey = Annotated[str, Meta(min_length=1, max_length=160, pattern=r"^[A-Za-z0-9_.:@/-]+$")]
#: A table id as a game entry names it (the tables' own id type).
EntryTable = Annotated[str, Meta(pattern=r"^[A-Za-z0-9_-]{1,32}$")]
#: A cashier's own reference of a deposit or withdrawal (a receipt number), free text.
CashierReference = Annotated[str, Meta(min_length=1, max_length=120)]


class PlayerAccountCommand(
    msgspec.Struct, frozen=True, kw_only=True, tag_field="type", forbid_unknown_fields=True
):
    """Base of the cashier's commands: a client-made id (the idempotency key), the player's
    account and the actor (the operator's cashier)."""

    command_id: Id
    player: AccountId
    actor: Actor

    @property
    def key(self) -> str:
        """What the command is about: the account (a table's commands: their table)."""
        return self.player


class OpenAccount(PlayerAccountCommand, frozen=True, kw_only=True, tag="account.open.v1"):
    currency: Currency


class DepositFunds(PlayerAccountCommand, frozen=True, kw_only=True, tag="account.deposit.v1"):
    """Funds the player hands the cashier; ``currency`` must be the account's."""

    amount: Stake
    currency: Currency
    reference: CashierReference | None = None


class WithdrawFunds(PlayerAccountCommand, frozen=True, kw_only=True, tag="account.withdraw.v1"):
    """Funds paid out to the player; never more than the free balance."""

    amount: Stake
    currency: Currency
    reference: CashierReference | None = None


AccountCommand = OpenAccount | DepositFunds | WithdrawFunds


class PlayerAccountEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of an account's events: whose account, who did it and when."""

    player: AccountId
    actor: Actor
    at: Time


class AccountOpened(PlayerAccountEvent, frozen=True, kw_only=True, tag="account.opened.v1"):
    currency: Currency


class MoneyEntry(PlayerAccountEvent, frozen=True, kw_only=True):
    """An entry that moves money: in the account's currency, with the balance after it."""

    currency: Currency
    balance: Money  # after this entry: never below 0


class FundsDeposited(MoneyEntry, frozen=True, kw_only=True, tag="account.funds-deposited.v1"):
    amount: Stake
    reference: CashierReference | None = None


class FundsWithdrawn(MoneyEntry, frozen=True, kw_only=True, tag="account.funds-withdrawn.v1"):
    amount: Stake
    reference: CashierReference | None = None


class GameEntry(MoneyEntry, frozen=True, kw_only=True):
    """An entry the game writes about one slip of a round; ``key`` is unique in the account."""

    table: EntryTable
    round: EntryRound
    slip_id: Id
    key: EntryKey


class StakeDebited(GameEntry, frozen=True, kw_only=True, tag="account.stake-debited.v1"):
    """A slip's stakes, taken before the slip is stored (debit-then-slip)."""

    amount: Stake


class StakeRefunded(GameEntry, frozen=True, kw_only=True, tag="account.stake-refunded.v1"):
    """Stakes given back: a debit whose slip was never stored or was refused, a withdrawn
    slip, a void or a cancellation. ``debit_key`` names the debit it returns."""

    amount: Stake
    debit_key: EntryKey
    reason: Reason


class ReturnCredited(GameEntry, frozen=True, kw_only=True, tag="account.return-credited.v1"):
    """A settled slip's return (stake and winnings), credited once."""

    amount: Stake


class BalanceAdjusted(GameEntry, frozen=True, kw_only=True, tag="account.balance-adjusted.v1"):
    """A correction's or a cancellation's difference (GLI-19 §4.18.4): ``delta`` minor units
    moved, either way. A correction never takes the balance below zero (docs/rules.md "Player
    accounts"): what it would take back beyond the balance is not taken but recorded as
    ``owed``, for the operator to recover only where its terms disclose that (GLI-19)."""

    delta: int
    reason: Reason
    owed: Money = 0


AccountEvent = (
    AccountOpened
    | FundsDeposited
    | FundsWithdrawn
    | StakeDebited
    | StakeRefunded
    | ReturnCredited
    | BalanceAdjusted
)
