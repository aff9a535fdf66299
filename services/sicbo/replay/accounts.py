"""Replay of the players' accounts (pure): every account re-folded from ``SICBO_ACCOUNTS``
in log order, and each entry checked against what the services would have stored.

Checked for every stored message (each violation a :class:`~.findings.Finding` with the
account named, under check ``account`` unless said):

- ``subject``, ``contract``, ``role``: an event of the account contracts, on its own account's
  subject with its own type token, by a role that writes it (``WRITTEN_BY``);
- the account opened once, before any entry, and every entry in its currency;
- the balance equals the sum of the entries at every step: each entry's recorded balance is
  the fold's, and never below zero (never overdrawn);
- no entry without its command: a cashier's entry carries the command id it was decided
  from, and no command id takes effect twice in an account; a game entry's idempotency key is
  used once (a second credit of one return is a violation), a refund returns a stored debit
  of the account and never more than is outstanding of it, an adjustment moves something.

Whether each debit has its slip or its refund, and each settled wager its return, joins the
accounts with the tables' logs: :mod:`.money`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

import msgspec

from sicbo.accounts.state import AccountState, evolve, initial_state, movement
from sicbo.replay.findings import ACCOUNT, CONTRACT, ROLE, SUBJECT, Finding
from sicbo.replay.gcpause import without_gc
from sicbo_contracts.accounts import (
    AccountEvent,
    AccountOpened,
    BalanceAdjusted,
    FundsDeposited,
    FundsWithdrawn,
    GameEntry,
    MoneyEntry,
    StakeRefunded,
)
from sicbo_contracts.base import DECODE_ERRORS, tag_of
from sicbo_contracts.subjects import AccountSubject, parse_account_subject, token, tokens
from sicbo_contracts.writers import may_write

_decode = msgspec.json.Decoder(AccountEvent).decode
_CASHIER_ENTRIES = (AccountOpened, FundsDeposited, FundsWithdrawn)
_CASHIER_TOKENS = tokens(*_CASHIER_ENTRIES)


def headers_checked(subject: str) -> bool:
    """Whether :func:`check_accounts` reads the headers of an entry stored on ``subject``: a
    cashier's entry's (the command it was decided from), or any on a subject of no account.
    An entry reaches that check only on its own type's subject, so the subject says it (a
    bulk read parses no other entry's headers: :data:`~sicbo.eventstore.records.HeadersWanted`)."""
    parsed = parse_account_subject(subject)
    return parsed is None or parsed.token in _CASHIER_TOKENS


class StoredEntry(Protocol):
    @property
    def seq(self) -> int: ...
    @property
    def subject(self) -> str: ...
    @property
    def data(self) -> bytes: ...
    @property
    def time(self) -> datetime: ...
    @property
    def headers(self) -> Mapping[str, str]: ...


class _Account:
    def __init__(self, player: str) -> None:
        self.state: AccountState = initial_state(player)
        self.commands: set[str] = set()


def read_entries(stored: Iterable[StoredEntry]) -> list[tuple[AccountEvent | None, str]]:
    """Each message decoded once, for :func:`check_accounts` and the money join: the entry,
    or None and why it is none."""
    return [_read_entry(e.data) for e in stored]


@without_gc
def check_accounts(
    stored: Iterable[StoredEntry],
    *,
    command_header: str,
    player: str | None = None,
    decoded: Sequence[tuple[AccountEvent | None, str]] | None = None,
) -> list[Finding]:
    """The violations of every account (or ``player``'s) in ``stored``, in log order.
    ``command_header``: the header naming the command an event was decided from;
    ``decoded``: each message as :func:`read_entries` read it."""
    accounts: dict[str, _Account] = {}
    findings: list[Finding] = []
    for n, e in enumerate(stored):
        subject = parse_account_subject(e.subject)
        if player is not None and (subject is None or subject.player != player):
            continue
        if subject is None:
            why = (
                f"{e.subject} is not an account's subject (sicbo.acct.<player>.<type>, a game"
                " entry's .<table>.<round>)"
            )
            findings.append(entry_finding(e, SUBJECT, why, None))
            continue
        event, error = decoded[n] if decoded is not None else _read_entry(e.data)
        if event is None:
            why = f"it is not an event of the account contracts: {error}"
            findings.append(entry_finding(e, CONTRACT, why, None))
            continue
        # Past this guard an entry is on its own type's subject: what headers_checked relies
        # on to parse the cashier's entries' headers alone (test_accounts_headers.py).
        if (
            event.player != subject.player
            or subject.token != token(event)
            or not _on_round(subject, event)
        ):
            why = f"stored on {e.subject}, not its own account's subject"
            findings.append(entry_finding(e, SUBJECT, why, event))
            continue
        if not may_write(event.actor.role, tag_of(event)):
            why = f"written by a {event.actor.role.value}, who writes no {tag_of(event)}"
            findings.append(entry_finding(e, ROLE, why, event))
        account = accounts.get(subject.player)
        if account is None:
            account = accounts[subject.player] = _Account(subject.player)
        for problem in _problems(account, event, e.headers.get(command_header)):
            findings.append(entry_finding(e, ACCOUNT, problem, event))
        account.state = evolve(account.state, event)
    return findings


def _read_entry(data: bytes) -> tuple[AccountEvent | None, str]:
    try:
        return _decode(data), ""
    except DECODE_ERRORS as error:
        return None, str(error)


def _on_round(subject: AccountSubject, event: AccountEvent) -> bool:
    """A game entry's subject names its own table's round (one stored before contracts 1.2.0
    names none); a cashier's entry names none."""
    if not isinstance(event, GameEntry):
        return subject.table is None
    return subject.table is None or (subject.table, subject.round) == (event.table, event.round)


def entry_finding(e: StoredEntry, check: str, message: str, event: Any) -> Finding:
    """A finding at an account's stored entry (its table and round if a game entry)."""
    entry = event if isinstance(event, GameEntry) else None
    subject = parse_account_subject(e.subject)
    return Finding(
        seq=e.seq,
        table=entry.table if entry is not None else "",
        round=entry.round if entry is not None else 0,
        check=check,
        event=tag_of(event) if event is not None else e.subject.rsplit(".", 1)[-1],
        message=message,
        time=e.time,
        account=subject.player if subject is not None else "?",
    )


def _problems(account: _Account, event: AccountEvent, command_id: str | None) -> list[str]:
    state, problems = account.state, []
    if isinstance(event, _CASHIER_ENTRIES):
        if not command_id:
            problems.append("a cashier's entry without the command it was decided from")
        elif command_id in account.commands:
            problems.append(f"command {command_id!r} took effect twice in this account")
        else:
            account.commands.add(command_id)
    if isinstance(event, AccountOpened):
        if state.open:
            problems.append(f"the account is opened again (it is in {state.currency})")
        return problems
    if not state.open:
        problems.append("an entry in an account that was never opened")
    elif isinstance(event, MoneyEntry) and event.currency != state.currency:
        problems.append(f"an entry in {event.currency} in an account in {state.currency}")
    if isinstance(event, GameEntry) and event.key in state.keys:
        problems.append(f"entry {event.key!r} is applied twice: each entry moves money once")
    if isinstance(event, StakeRefunded):
        debit = state.debits.get(event.debit_key)
        if debit is None:
            problems.append(f"a refund of {event.debit_key!r}, which debited nothing here")
        elif event.amount > debit.outstanding:
            problems.append(
                f"a refund of {event.amount} of {event.debit_key!r}: only {debit.outstanding}"
                " of it is outstanding"
            )
    if isinstance(event, BalanceAdjusted) and event.delta == 0 and event.owed == 0:
        problems.append("an adjustment that moves nothing")
    if isinstance(event, MoneyEntry):
        after = state.balance + movement(event)
        if after < 0:
            problems.append(f"the account is overdrawn: the entries sum to {after}")
        if event.balance != after:
            problems.append(f"it records a balance of {event.balance}; the entries sum to {after}")
    return problems
