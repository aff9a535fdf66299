"""Replay joins the players' accounts with the tables' logs (pure; issue 14 item 4).

:func:`check_money` reads both logs in order and reports, under check ``account``:

- a stake debited for a slip of a table in the log that no stored slip holds and that was not
  refunded in full (the crash gap left open: the reconciler refunds it at "no more bets");
- an entry paying a wager (keys ``return:``, ``void:``, ``adjust:``, ``cancel:``,
  :mod:`sicbo.settlement.payments`) that no settlement in the log owes, or of another amount
  (a forged credit);
- a wager settled (or adjusted, or voided) from a slip debited from an account whose payment
  is not in that account: every settled wager's return credited, every void refunded.

A second entry under one key is :mod:`.accounts`' finding. Entries naming a table the log
does not hold are not joined (``--table``, or a log of the accounts alone).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import msgspec

from sicbo.replay.accounts import StoredEntry, entry_finding
from sicbo.replay.findings import ACCOUNT, Finding
from sicbo.replay.gcpause import without_gc
from sicbo.settlement.payments import Payment, payments_of
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
from sicbo_contracts.lifecycle import BettingClosed
from sicbo_contracts.settlement import SettlementAdjusted, SettlementVoided, WagersSettled
from sicbo_contracts.subjects import (
    Aggregate,
    parse_account_subject,
    parse_event_subject,
    token,
    tokens,
)
from sicbo_contracts.wagers import WagerEvent

_PAYING = tokens(WagersSettled, SettlementAdjusted, SettlementVoided)
_paying: msgspec.json.Decoder[Any] = msgspec.json.Decoder(
    WagersSettled | SettlementAdjusted | SettlementVoided
)
_bets: msgspec.json.Decoder[WagerEvent] = msgspec.json.Decoder(WagerEvent)
_entry: msgspec.json.Decoder[AccountEvent] = msgspec.json.Decoder(AccountEvent)
_BETTING_CLOSED = token(BettingClosed)
_PAY_KEYS = ("return:", "void:", "adjust:", "cancel:")
#: How a credit no settlement owes is named (:func:`check_money_live` judges it again).
UNOWED_CREDIT = "no settlement in the log owes it (a forged credit)"


class _Owed(msgspec.Struct):
    table: str
    round: int
    payment: Payment


_Log = tuple[set[str], set[tuple[str, str]], dict[str, _Owed], set[tuple[str, int]]]


def _table_log(events: Iterable[StoredEntry]) -> _Log:
    """The tables in the log, the (table, slip) stored, what settlement owes by key, and the
    rounds whose betting closed (only then is a debit without its slip left open)."""
    closed: set[tuple[str, int]] = set()
    tables: set[str] = set()
    slips: set[tuple[str, str]] = set()
    owed: dict[str, _Owed] = {}
    for e in events:
        subject = parse_event_subject(e.subject)
        if subject is None:
            continue
        tables.add(subject.table)
        if subject.token == _BETTING_CLOSED:
            closed.add((subject.table, subject.round))
        try:
            if subject.aggregate is Aggregate.BETS:
                move = move_of(_bets.decode(e.data))
                if move is not None:
                    slips.add((move.table, move.slip_id))
            elif subject.aggregate is Aggregate.SETTLE and subject.token in _PAYING:
                for p in payments_of(_paying.decode(e.data)):
                    owed[p.key] = _Owed(subject.table, subject.round, p)
        except DECODE_ERRORS:
            continue  # the log's own checks report an event that does not decode
    return tables, slips, owed, closed


def _moved(entry: GameEntry) -> int:
    if isinstance(entry, BalanceAdjusted):
        return entry.delta - entry.owed  # what the correction asked: taken and owed
    return int(getattr(entry, "amount", 0))


@without_gc
def check_money(
    table_events: Iterable[StoredEntry], account_events: Iterable[StoredEntry]
) -> list[Finding]:
    tables, slips, owed, closed = _table_log(table_events)
    findings: list[Finding] = []
    debits: dict[str, tuple[StoredEntry, StakeDebited, int]] = {}  # key -> (where, debit, refunded)
    paid: dict[tuple[str, str], set[str]] = {}  # (player, table) -> payment keys entered
    debited_slips: set[tuple[str, str, str]] = set()  # (player, table, slip)
    last: StoredEntry | None = None
    for e in account_events:
        last = e
        if parse_account_subject(e.subject) is None:
            continue
        try:
            entry = _entry.decode(e.data)
        except DECODE_ERRORS:
            continue  # .accounts reports it
        if not isinstance(entry, GameEntry) or entry.table not in tables:
            continue
        if isinstance(entry, StakeDebited):
            debits[entry.key] = (e, entry, 0)
            debited_slips.add((entry.player, entry.table, entry.slip_id))
        if isinstance(entry, StakeRefunded) and entry.debit_key in debits:
            where, debit, refunded = debits[entry.debit_key]
            debits[entry.debit_key] = (where, debit, refunded + entry.amount)
        if entry.key.startswith(_PAY_KEYS) and not isinstance(entry, StakeDebited):
            paid.setdefault((entry.player, entry.table), set()).add(entry.key)
            due = owed.get(entry.key)
            if due is None or due.payment.player != entry.player:
                findings.append(
                    entry_finding(
                        e,
                        ACCOUNT,
                        f"{tag_of(entry)} {entry.key!r}: {UNOWED_CREDIT}",
                        entry,
                    )
                )
            elif _moved(entry) != due.payment.amount:
                findings.append(
                    entry_finding(
                        e,
                        ACCOUNT,
                        f"{entry.key!r} pays {_moved(entry)}; the"
                        f" settlement owes {due.payment.amount}",
                        entry,
                    )
                )
    for where, debit, refunded in debits.values():
        if (debit.table, debit.round) not in closed:
            continue  # betting is open: its slip may be on its way
        if (debit.table, debit.slip_id) not in slips and refunded < debit.amount:
            findings.append(
                entry_finding(
                    where,
                    ACCOUNT,
                    f"debit {debit.key!r} has no stored slip and"
                    f" {debit.amount - refunded} of it was never refunded",
                    debit,
                )
            )
    for key, due in owed.items():
        p = due.payment
        if (
            (p.player, due.table, p.slip_id) in debited_slips
            and key not in paid.get((p.player, due.table), set())
            and last is not None
        ):
            findings.append(
                Finding(
                    seq=last.seq,
                    table=due.table,
                    round=due.round,
                    check=ACCOUNT,
                    event=tag_of(ReturnCredited),
                    message=f"{key!r} ({p.amount}) is owed by the settlement"
                    " and not in the account",
                    time=last.time,
                    account=p.player,
                )
            )
    return findings


def check_money_live(
    tables_before: Sequence[StoredEntry],
    account_events: Sequence[StoredEntry],
    tables_after: Callable[[], Iterable[StoredEntry]],
) -> list[Finding]:
    """:func:`check_money` of logs read one after the other while the floor plays: the
    tables' log read before the accounts, and again after them only to judge a credit no
    settlement owes.

    Settlement stores a round's payments before it credits them, so a credit read in the
    accounts has its settlement in any read of the tables made after the accounts' read; a
    settlement stored between the first read and the accounts' would otherwise name its
    credit forged. The other findings keep the first read: a settlement in it is owed in
    the accounts read after it."""
    found = check_money(tables_before, account_events)
    if not any(_unowed(f) for f in found):
        return found
    again = [f for f in check_money(tables_after(), account_events) if _unowed(f)]
    return [f for f in found if not _unowed(f)] + again


def _unowed(finding: Finding) -> bool:
    return finding.message.endswith(UNOWED_CREDIT)
