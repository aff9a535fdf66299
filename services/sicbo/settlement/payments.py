"""What a round's settlement pays into the players' accounts (pure; issue 14 item 3).

Settlement's events say what goes back to each wager (:mod:`sicbo_contracts.settlement`); for a
slip whose stakes came from an account (the account holds a debit of it) this module decides
the entry that pays it, once, under a key of the wager:

- a settled wager's return (stake and winnings, 004 "winnings will be paid to the player"):
  ``ReturnCredited``, key ``return:<table>:<round>:<slip>:<index>``;
- a void wager (no result with refund, 000 §7.5; an invalidation, 000 §8.4; a void player,
  000 §8.3.1): its stake refunded against the slip's debit, ``StakeRefunded``, key
  ``void:<table>:<round>:<slip>:<index>``;
- a correction's (GLI-19 §4.18.4) or a cancellation's (004 "Ralat Pengendalian") difference:
  ``BalanceAdjusted``, keys ``adjust:<table>:<round>:<correction seq>:<slip>:<index>`` and
  ``cancel:<table>:<round>:<slip>:<index>``.

Chips only: colour checks and tokens are the table's (:mod:`sicbo.wagers.media`). A slip with
no debit in the account was bet with chips at the table and is paid there.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import NamedTuple, Protocol

from sicbo.accounts.entries import Slip, adjust, credit_return, refund_stake
from sicbo.accounts.squaring import debited, debits_of
from sicbo.accounts.state import AccountState
from sicbo_contracts.accounts import GameEntry
from sicbo_contracts.base import Actor
from sicbo_contracts.settlement import (
    SettlementAdjusted,
    SettlementVoided,
    WagerOutcome,
    WagersSettled,
)
from sicbo_contracts.wagers import Medium

Paying = WagersSettled | SettlementAdjusted | SettlementVoided


class Payment(NamedTuple):
    """One wager's money: what kind, how much (signed for an adjustment), under which key."""

    player: str
    slip_id: str
    kind: str  # "return", "void" or "adjust"
    amount: int
    key: str
    reason: str


class SettledWager(Protocol):
    """What a wager's payment is made of: a :class:`WagerResult`, or replay's leaner read."""

    @property
    def slip_id(self) -> str: ...
    @property
    def index(self) -> int: ...
    @property
    def player(self) -> str: ...
    @property
    def medium(self) -> str: ...
    @property
    def outcome(self) -> WagerOutcome: ...
    @property
    def returned(self) -> int: ...


def returns_of(t: str, r: int, wagers: Iterable[SettledWager]) -> Iterator[Payment]:
    """The payments of a settlement part's wagers (table ``t``, round ``r``)."""
    for w in wagers:
        if w.medium != Medium.CHIPS or w.returned <= 0:
            continue
        if w.outcome is WagerOutcome.VOID:
            key = f"void:{t}:{r}:{w.slip_id}:{w.index}"
            yield Payment(w.player, w.slip_id, "void", w.returned, key, "the wager is void")
        elif w.outcome is not WagerOutcome.CARRIED:
            key = f"return:{t}:{r}:{w.slip_id}:{w.index}"
            yield Payment(w.player, w.slip_id, "return", w.returned, key, "settled")


def payments_of(event: Paying) -> Iterator[Payment]:
    t, r = event.table, event.round
    if isinstance(event, WagersSettled):
        yield from returns_of(t, r, event.wagers)
        return
    if isinstance(event, SettlementAdjusted):
        prefix, why = f"adjust:{t}:{r}:{event.correction_seq}", "the result was corrected"
    else:
        prefix, why = f"cancel:{t}:{r}", f"the round was cancelled: {event.reason}"
    for a in event.adjustments:
        if a.after.medium != Medium.CHIPS or a.delta == 0:
            continue
        key = f"{prefix}:{a.slip_id}:{a.index}"
        yield Payment(a.player, a.slip_id, "adjust", a.delta, key, why[:500])


def entry_for(
    account: AccountState, table: str, round_no: int, pay: Payment, actor: Actor, at: datetime
) -> GameEntry | None:
    """The entry paying ``pay`` into ``account``, None where the slip was not debited from it
    (or the account is not open). A key already in the account is refused "duplicate"."""
    if not account.open or not debited(account, table, pay.slip_id):
        return None
    currency = account.currency or ""
    slip: Slip = {"table": table, "round": round_no, "slip_id": pay.slip_id, "key": pay.key}
    if pay.kind == "return":
        return credit_return(account, slip, pay.amount, currency, actor, at)
    if pay.kind == "adjust":
        return adjust(account, slip, pay.amount, currency, pay.reason, actor, at)
    # A void: the stake back against the slip's debit that still holds it.
    for key, debit in reversed(debits_of(account, table, pay.slip_id)):
        if debit.outstanding >= pay.amount:
            return refund_stake(account, slip, key, pay.amount, pay.reason, actor, at)
    # Spread over several debits (a slip changed up): credited as its return instead.
    return credit_return(account, slip, pay.amount, currency, actor, at)
