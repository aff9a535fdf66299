"""Replay joins the players' accounts with the tables' logs (pure; issue 14 item 4).

:func:`check_money` reads both logs in order and reports, under check ``account``:

- a stake debited for a slip of a table in the log that no stored slip holds and that was not
  refunded in full (the crash gap left open: the reconciler refunds it at "no more bets");
- an entry paying a wager (keys ``return:``, ``void:``, ``adjust:``, ``cancel:``,
  :mod:`sicbo.settlement.payments`) that no settlement in the log owes, or of another amount
  (a forged credit); settlement owes an account nothing at a table that plays chips (opened
  with no currency): its wagers are paid at the table;
- a wager settled (or adjusted, or voided) from a slip debited from an account whose payment
  is not in that account: every settled wager's return credited, every void refunded.

A second entry under one key is :mod:`.accounts`' finding. Entries naming a table the log
does not hold are not joined (``--table``, or a log of the accounts alone).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import msgspec

from sicbo.replay.accounts import StoredEntry, entry_finding
from sicbo.replay.findings import ACCOUNT, Finding
from sicbo.replay.gcpause import without_gc
from sicbo.settlement.payments import payments_of, returns_of
from sicbo.wagers.stakes import move_of
from sicbo_contracts.accounts import (
    AccountEvent,
    BalanceAdjusted,
    GameEntry,
    ReturnCredited,
    StakeDebited,
    StakeRefunded,
)
from sicbo_contracts.base import DECODE_ERRORS, tag_of
from sicbo_contracts.lifecycle import BettingClosed, TableOpened
from sicbo_contracts.settlement import (
    SettlementAdjusted,
    SettlementVoided,
    WagerOutcome,
    WagersSettled,
)
from sicbo_contracts.subjects import (
    Aggregate,
    parse_account_subject,
    parse_event_subject,
    token,
    tokens,
)
from sicbo_contracts.wagers import WagerEvent

_PAYING = tokens(WagersSettled, SettlementAdjusted, SettlementVoided)


class _PaidWager(msgspec.Struct, frozen=True):
    """What the join needs of a settled wager (a third of decoding the whole WagerResult)."""

    slip_id: str
    index: int
    player: str
    medium: str
    outcome: WagerOutcome
    returned: int


class _PaidPart(msgspec.Struct, frozen=True, tag=tag_of(WagersSettled), tag_field="type"):
    table: str
    round: int
    wagers: list[_PaidWager]


_paying: msgspec.json.Decoder[Any] = msgspec.json.Decoder(
    _PaidPart | SettlementAdjusted | SettlementVoided
)
_bets: msgspec.json.Decoder[WagerEvent] = msgspec.json.Decoder(WagerEvent)
_entry: msgspec.json.Decoder[AccountEvent] = msgspec.json.Decoder(AccountEvent)
_BETTING_CLOSED = token(BettingClosed)
_TABLE_OPENED = token(TableOpened)
_opened: msgspec.json.Decoder[TableOpened] = msgspec.json.Decoder(TableOpened)
_PAY_KEYS = ("return:", "void:", "adjust:", "cancel:")
#: How a credit no settlement owes is named (:func:`check_money_live` judges it again).
UNOWED_CREDIT = "no settlement in the log owes it (a forged credit)"
#: How a debit without its slip, and a payment not made, are named (judged again on a later
#: read of the accounts, :func:`check_money_live`).
NO_SLIP = "has no stored slip and"
NOT_PAID = "is owed by the settlement and not in the account"


class Owed(NamedTuple):
    """A wager's payment that a settlement in the log owes (plain values: replay's workers
    send a table's many of them to the parent)."""

    table: str
    round: int
    player: str
    slip_id: str
    amount: int


@dataclass
class TableMoney:
    """The tables' side of the join, from the tables' log alone: the tables in it, the
    (table, slip) stored, what settlement owes by key, and the rounds whose betting closed
    (only then is a debit without its slip left open). Tables are independent, so the parts
    of a log read table by table (replay's workers) merge into the whole log's."""

    tables: set[str] = field(default_factory=set)
    slips: set[tuple[str, str]] = field(default_factory=set)
    owed: dict[str, Owed] = field(default_factory=dict)
    closed: set[tuple[str, int]] = field(default_factory=set)

    def merge(self, other: TableMoney) -> None:
        self.tables |= other.tables
        self.slips |= other.slips
        self.owed.update(other.owed)
        self.closed |= other.closed


@dataclass
class AccountMoney:
    """The accounts' side of the join, from the accounts' log alone (in log order)."""

    #: debit key -> (where, the debit, refunded so far)
    debits: dict[str, tuple[StoredEntry, StakeDebited, int]] = field(default_factory=dict)
    #: (player, table) -> the payment keys entered
    paid: dict[tuple[str, str], set[str]] = field(default_factory=dict)
    debited_slips: set[tuple[str, str, str]] = field(default_factory=set)  # (player, table, slip)
    #: Every entry paying a wager, with where it is stored, in log order.
    credits: list[tuple[StoredEntry, GameEntry]] = field(default_factory=list)
    last: StoredEntry | None = None  # the accounts' last message


def table_money(
    events: Iterable[StoredEntry], decoded: Sequence[tuple[Any, str]] | None = None
) -> TableMoney:
    """The tables' side of the join. ``decoded``: each event as :func:`~.owners.read_event`
    read it (verify's one decode): its slips are not decoded again (its settlement parts
    are, since that read keeps only their wagers' keys).

    Settlement owes an account only at a table opened in a currency: wager intake debits a
    slip's stakes only there (elsewhere chips are played and paid at the table,
    :mod:`sicbo.wagers.wallet`), and settlement credits only a debited slip. So a table's
    payments are owed from its first opening in a currency on; a credit of a chips table's
    wager is no settlement's (a forged credit), and its parts are not read here."""
    money = TableMoney()
    closed, tables, slips, owed = money.closed, money.tables, money.slips, money.owed
    priced: set[str] = set()  # the tables opened in a currency so far
    for n, e in enumerate(events):
        subject = parse_event_subject(e.subject)
        if subject is None:
            continue
        tables.add(subject.table)
        if subject.token == _BETTING_CLOSED:
            closed.add((subject.table, subject.round))
        try:
            if subject.token == _TABLE_OPENED and subject.aggregate is Aggregate.LIFECYCLE:
                opened = decoded[n][0] if decoded is not None else _opened.decode(e.data)
                if isinstance(opened, TableOpened) and opened.config.currency is not None:
                    priced.add(subject.table)
            elif subject.aggregate is Aggregate.BETS:
                event = decoded[n][0] if decoded is not None else _bets.decode(e.data)
                move = move_of(event)
                if move is not None:
                    slips.add((move.table, move.slip_id))
            elif (
                subject.aggregate is Aggregate.SETTLE
                and subject.token in _PAYING
                and subject.table in priced
            ):
                paying = _paying.decode(e.data)
                paid = (
                    returns_of(paying.table, paying.round, paying.wagers)
                    if isinstance(paying, _PaidPart)
                    else payments_of(paying)
                )
                for p in paid:
                    owed[p.key] = Owed(subject.table, subject.round, p.player, p.slip_id, p.amount)
        except DECODE_ERRORS:
            continue  # the log's own checks report an event that does not decode
    return money


def _moved(entry: GameEntry) -> int:
    if isinstance(entry, BalanceAdjusted):
        return entry.delta - entry.owed  # what the correction asked: taken and owed
    return int(getattr(entry, "amount", 0))


def account_money(
    account_events: Iterable[StoredEntry], decoded: Sequence[tuple[Any, str]] | None = None
) -> AccountMoney:
    """The accounts' side of the join. ``decoded``: each entry as
    :func:`~.accounts.read_entries` read it (one decode for both checks)."""
    money = AccountMoney()
    debits, paid, debited_slips = money.debits, money.paid, money.debited_slips
    for n, e in enumerate(account_events):
        money.last = e
        if parse_account_subject(e.subject) is None:
            continue
        if decoded is not None:
            entry = decoded[n][0]
        else:
            try:
                entry = _entry.decode(e.data)
            except DECODE_ERRORS:
                continue  # .accounts reports it
        if not isinstance(entry, GameEntry):
            continue
        if isinstance(entry, StakeDebited):
            debits[entry.key] = (e, entry, 0)
            debited_slips.add((entry.player, entry.table, entry.slip_id))
        if isinstance(entry, StakeRefunded) and entry.debit_key in debits:
            where, debit, refunded = debits[entry.debit_key]
            debits[entry.debit_key] = (where, debit, refunded + entry.amount)
        if entry.key.startswith(_PAY_KEYS) and not isinstance(entry, StakeDebited):
            paid.setdefault((entry.player, entry.table), set()).add(entry.key)
            money.credits.append((e, entry))
    return money


@without_gc
def check_money(
    table_events: Iterable[StoredEntry], account_events: Iterable[StoredEntry]
) -> list[Finding]:
    return join_money(table_money(table_events), account_money(account_events))


def join_money(log: TableMoney, accounts: AccountMoney) -> list[Finding]:
    """The findings of the join (see the module's docstring). Entries naming a table the
    tables' log does not hold are left out."""
    tables, owed = log.tables, log.owed
    findings: list[Finding] = []
    for e, entry in accounts.credits:
        if entry.table not in tables:
            continue
        due = owed.get(entry.key)
        if due is None or due.player != entry.player:
            message = f"{tag_of(entry)} {entry.key!r}: {UNOWED_CREDIT}"
            findings.append(entry_finding(e, ACCOUNT, message, entry))
        elif _moved(entry) != due.amount:
            message = f"{entry.key!r} pays {_moved(entry)}; the settlement owes {due.amount}"
            findings.append(entry_finding(e, ACCOUNT, message, entry))
    for where, debit, refunded in accounts.debits.values():
        if debit.table not in tables or (debit.table, debit.round) not in log.closed:
            continue  # betting is open: its slip may be on its way
        if (debit.table, debit.slip_id) not in log.slips and refunded < debit.amount:
            findings.append(
                entry_finding(
                    where,
                    ACCOUNT,
                    f"debit {debit.key!r} {NO_SLIP}"
                    f" {debit.amount - refunded} of it was never refunded",
                    debit,
                )
            )
    last = accounts.last
    for key, due in owed.items():
        if (
            (due.player, due.table, due.slip_id) in accounts.debited_slips
            and key not in accounts.paid.get((due.player, due.table), set())
            and last is not None
        ):
            findings.append(
                Finding(
                    seq=last.seq,
                    table=due.table,
                    round=due.round,
                    check=ACCOUNT,
                    event=tag_of(ReturnCredited),
                    message=f"{key!r} ({due.amount}) {NOT_PAID}",
                    time=last.time,
                    account=due.player,
                )
            )
    return findings


def check_money_live(
    tables_before: Sequence[StoredEntry] | TableMoney,
    account_events: Sequence[StoredEntry] | AccountMoney,
    tables_after: Callable[[], Iterable[StoredEntry]],
    accounts_after: Callable[[], Iterable[StoredEntry]] | None = None,
) -> list[Finding]:
    """:func:`check_money` of logs read one after the other while the floor plays: the
    tables' log read before the accounts; the tables again after them only to judge a credit
    no settlement owes, and the accounts again (``accounts_after``) only to judge a payment
    not made or a debit without its slip. Either side may come already summed up
    (:func:`table_money`, :func:`account_money`: replay's workers sum up their own tables).

    Settlement stores a round's payments before it credits them, so a credit read in the
    accounts has its settlement in any read of the tables made after the accounts' read; a
    settlement stored between the first read and the accounts' would otherwise name its
    credit forged. And its credits may come after the accounts' read, as may the refund of a
    debit whose slip was never stored (the reconciler's, at "no more bets"): such a finding
    stands only if a read of the accounts made after it finds it too (its figures then)."""
    log = tables_before if isinstance(tables_before, TableMoney) else table_money(tables_before)
    accounts = (
        account_events
        if isinstance(account_events, AccountMoney)
        else account_money(account_events)
    )
    found = join_money(log, accounts)
    if any(_unowed(f) for f in found):
        again = [f for f in join_money(table_money(tables_after()), accounts) if _unowed(f)]
        found = [f for f in found if not _unowed(f)] + again
    awaited = {_awaited(f) for f in found} - {None}
    if accounts_after is None or not awaited:
        return found
    later = join_money(log, account_money(accounts_after()))
    still = [f for f in later if _awaited(f) in awaited]
    return [f for f in found if _awaited(f) is None] + still


def _awaited(finding: Finding) -> tuple[str, int, str | None, str] | None:
    """A payment not made or a debit without its slip (what a later credit or refund may
    square), by its table, round, account and key; None for any other finding."""
    if not finding.message.endswith(NOT_PAID) and NO_SLIP not in finding.message:
        return None
    return finding.table, finding.round, finding.account, finding.message.split("'")[1]


def _unowed(finding: Finding) -> bool:
    return finding.message.endswith(UNOWED_CREDIT)
