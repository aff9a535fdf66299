"""Replay of the players' accounts (sicbo.replay.accounts): every account re-folded from the
accounts' log; each invariant held, then forged."""

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import msgspec

from sicbo.accounts.entries import credit_return, debit_stake, refund_stake
from sicbo.accounts.state import evolve, fold
from sicbo.replay.accounts import check_accounts
from sicbo.replay.findings import ACCOUNT, CONTRACT, ROLE, SUBJECT
from sicbo.replay.statement import statement
from sicbo.shell.codec import encode
from sicbo_contracts.accounts import FundsWithdrawn, GameEntry
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.subjects import account_subject_of
from tests.support.accounts import (
    CASHIER,
    CURRENCY,
    INTAKE,
    PLAYER,
    account_opened,
    deposited,
    slip,
)
from tests.support.common import NOW

HEADER = "Sicbo-Command-Id"


@dataclass(frozen=True)
class Entry:
    seq: int
    subject: str
    data: bytes
    time: datetime
    headers: dict[str, str] = field(default_factory=dict)


def stored(*events: Any, subject: str | None = None) -> list[Entry]:
    """The events as the services store them: cashier entries with their command id."""
    return [
        Entry(
            n,
            subject or account_subject_of(e),
            encode(e),
            NOW,
            {HEADER: f"c-{n}"} if not isinstance(e, GameEntry) else {},
        )
        for n, e in enumerate(events, 1)
    ]


def played() -> list[Any]:
    """Opened, funded, a slip debited, half refunded, a return credited."""
    events: list[Any] = [account_opened(), deposited(1_000, 1_000)]
    state = fold(PLAYER, events)
    for make in (
        lambda s: debit_stake(s, slip("s-1"), 400, CURRENCY, INTAKE, NOW),
        lambda s: refund_stake(
            s, slip("s-1", kind="refund"), "debit:s-1", 200, "void", INTAKE, NOW
        ),
        lambda s: credit_return(s, slip("s-1", kind="return"), 300, CURRENCY, INTAKE, NOW),
    ):
        event = make(state)
        events.append(event)
        state = evolve(state, event)
    return events


def checks(entries: list[Entry]) -> list[tuple[int, str]]:
    return [(f.seq, f.check) for f in check_accounts(entries, command_header=HEADER)]


def test_an_account_as_the_services_write_it_breaks_nothing() -> None:
    assert checks(stored(*played())) == []


def test_a_recorded_balance_the_entries_do_not_sum_to() -> None:
    forged = msgspec.structs.replace(played()[-1], balance=1_000_000)
    [found] = check_accounts(stored(*played()[:-1], forged), command_header=HEADER)
    assert (found.seq, found.check, found.account) == (5, ACCOUNT, PLAYER)
    assert (found.table, found.round) == ("T1", 1)
    assert "the entries sum to 1100" in found.message


def test_a_return_credited_twice() -> None:
    events = played()
    twice = msgspec.structs.replace(events[-1], balance=1_400)
    assert checks(stored(*events, twice)) == [(6, ACCOUNT)]


def test_an_overdrawn_account() -> None:
    out = FundsWithdrawn(
        player=PLAYER, actor=CASHIER, at=NOW, currency=CURRENCY, amount=2_000, balance=0
    )
    found = check_accounts(stored(*played(), out), command_header=HEADER)
    assert [f.message for f in found] == [
        "the account is overdrawn: the entries sum to -900",
        "it records a balance of 0; the entries sum to -900",
    ]


def test_a_cashier_entry_without_its_command_and_one_command_twice() -> None:
    events = stored(*played())
    events[1] = Entry(2, events[1].subject, events[1].data, NOW, {})
    assert checks(events) == [(2, ACCOUNT)]
    reused = stored(account_opened(), deposited(5, 5), deposited(5, 10))
    reused[2] = Entry(3, reused[2].subject, reused[2].data, NOW, {HEADER: "c-2"})
    assert checks(reused) == [(3, ACCOUNT)]


def test_entries_before_the_account_is_opened_in_another_currency_or_opened_twice() -> None:
    assert checks(stored(deposited(5, 5))) == [(1, ACCOUNT)]
    assert checks(stored(account_opened(), account_opened())) == [(2, ACCOUNT)]
    dollars = msgspec.structs.replace(deposited(5, 5), currency="USD")
    assert checks(stored(account_opened(), dollars)) == [(2, ACCOUNT)]


def test_a_refund_of_no_debit_or_more_than_is_outstanding() -> None:
    events = played()
    stray = msgspec.structs.replace(
        events[3], key="refund:s-2", debit_key="debit:s-9", balance=1_300
    )
    over = msgspec.structs.replace(events[3], key="refund:s-3", amount=300, balance=1_400)
    assert checks(stored(*events, stray)) == [(6, ACCOUNT)]
    assert checks(stored(*events, over)) == [(6, ACCOUNT)]


def test_a_foreign_subject_an_unreadable_message_and_a_wrong_role() -> None:
    [event] = stored(deposited(5, 5))
    assert checks([Entry(1, "sicbo.acct.bob.account-funds-deposited-v1", event.data, NOW)]) == [
        (1, SUBJECT)
    ]
    assert checks([Entry(1, "sicbo.acct.alice.x", b"{", NOW)]) == [(1, CONTRACT)]
    by_dealer = msgspec.structs.replace(account_opened(), actor=Actor(id="d", role=Role.DEALER))
    assert checks(stored(by_dealer, subject=None)) == [(1, ROLE)]


def test_the_statement_lists_each_entry_and_each_round() -> None:
    found = statement(stored(*played()), PLAYER, command_header=HEADER)
    assert [(line.before, line.after, line.amount) for line in found.lines] == [
        (0, 0, 0),
        (0, 1_000, 1_000),
        (1_000, 600, -400),
        (600, 800, 200),
        (800, 1_100, 300),
    ]
    [one] = found.rounds
    assert (one.before, one.staked, one.refunded, one.returned, one.after) == (
        1_000,
        400,
        200,
        300,
        1_100,
    )
    assert found.ok and found.balance == 1_100 and found.currency == CURRENCY


def test_a_game_entry_on_another_rounds_subject_and_one_stored_before_the_round_token() -> None:
    """A game entry names its table's round in its subject (contracts 1.2.0): on another
    round's, it is misfiled; on the account's subject without a round (as stored before
    1.2.0), it stands; a cashier's entry naming a round is misfiled."""
    events = played()
    as_written = stored(*events)
    debit = as_written[2]
    assert debit.subject.endswith(f".account-stake-debited-v1.{events[2].table}.1")
    other_round = debit.subject.rsplit(".", 1)[0] + ".2"
    legacy = debit.subject.rsplit(".", 2)[0]
    assert checks([*as_written[:2], dataclasses.replace(debit, subject=other_round)]) == [
        (3, SUBJECT)
    ]
    assert checks([*as_written[:2], dataclasses.replace(debit, subject=legacy)]) == []
    funds = as_written[1]
    assert checks([as_written[0], dataclasses.replace(funds, subject=f"{funds.subject}.T.1")]) == [
        (2, SUBJECT)
    ]
