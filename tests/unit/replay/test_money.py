"""Replay's join of the accounts with the tables' logs (pure): each debit of a closed round its
slip or its refund, each payment owed by a settlement and of its amount, each owed one paid."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import msgspec

from sicbo.replay.money import check_money, check_money_live
from sicbo.shell.codec import encode
from sicbo_contracts.accounts import ReturnCredited, StakeDebited, StakeRefunded
from sicbo_contracts.lifecycle import BettingClosed
from sicbo_contracts.settlement import WagerOutcome, WagerResult, WagersSettled
from sicbo_contracts.subjects import Aggregate, account_subject_of, subject_of
from sicbo_contracts.wagers import SlipPlaced, Wager
from tests.support.accounts import INTAKE, PLAYER, account_opened, deposited
from tests.support.common import NOW, TABLE
from tests.support.lifecycle import table_opened

AT = datetime(2026, 12, 1, tzinfo=UTC)


@dataclass
class Stored:
    seq: int
    subject: str
    data: bytes
    time: datetime = AT
    headers: dict[str, str] = field(default_factory=dict)


def table_log(*, slip: bool = True, currency: str | None = "EUR") -> list[Stored]:
    """A round of one slip at a table opened in ``currency`` (None: chips at the table)."""
    opened = table_opened()
    priced = msgspec.structs.replace(opened.config, currency=currency)
    opened = msgspec.structs.replace(opened, config=priced)
    events: list[tuple[Any, Aggregate]] = [(opened, Aggregate.LIFECYCLE)]
    if slip:
        placed = SlipPlaced(
            table=TABLE,
            actor=INTAKE,
            at=NOW,
            round=1,
            slip_id="s-1",
            player=PLAYER,
            wagers=[Wager(bet="big", stake=300)],
        )
        events.append((placed, Aggregate.BETS))
    events.append((BettingClosed(table=TABLE, actor=INTAKE, at=NOW, round=1), Aggregate.LIFECYCLE))
    if slip:
        result = WagerResult(
            slip_id="s-1",
            index=0,
            player=PLAYER,
            bet="big",
            stake=300,
            medium="chips",
            outcome=WagerOutcome.WIN,
            winnings=300,
            returned=600,
        )
        settled = WagersSettled(table=TABLE, actor=INTAKE, at=NOW, round=1, part=1, wagers=[result])
        events.append((settled, Aggregate.SETTLE))
    return [Stored(n, subject_of(e, a), encode(e)) for n, (e, a) in enumerate(events, 1)]


def account(*credits: tuple[str, int], refunded: int = 0) -> list[Stored]:
    """The account's debit of slip s-1 (300), then ``credits``; ``refunded`` of the debit given
    back first (the reconciler's refund of a debit whose slip was never stored)."""
    common: dict[str, Any] = {
        "player": PLAYER,
        "actor": INTAKE,
        "at": NOW,
        "currency": "EUR",
        "table": TABLE,
        "round": 1,
        "slip_id": "s-1",
    }
    events: list[Any] = [
        account_opened(),
        deposited(1_000, 1_000),
        StakeDebited(**common, key=f"debit:{TABLE}:1:s-1:v1", amount=300, balance=700),
    ]
    balance = 700
    if refunded:
        balance += refunded
        debit_key = f"debit:{TABLE}:1:s-1:v1"
        events.append(
            StakeRefunded(
                **common,
                key=f"refund:{debit_key}",
                amount=refunded,
                debit_key=debit_key,
                reason="the slip was never stored",
                balance=balance,
            )
        )
    for key, amount in credits:
        balance += amount
        events.append(ReturnCredited(**common, key=key, amount=amount, balance=balance))
    return [Stored(n, account_subject_of(e), encode(e)) for n, e in enumerate(events, 1)]


RETURN = f"return:{TABLE}:1:s-1:0"


def messages(table: list[Stored], accounts: list[Stored]) -> list[str]:
    return [f.message for f in check_money(table, accounts)]


def test_a_round_paid_once_has_no_finding() -> None:
    assert messages(table_log(), account((RETURN, 600))) == []


def test_a_settled_wager_not_credited_is_found() -> None:
    assert messages(table_log(), account()) == [
        f"'{RETURN}' (600) is owed by the settlement and not in the account"
    ]


def test_a_forged_credit_and_a_wrong_amount_are_found() -> None:
    found = messages(table_log(), account((RETURN, 650), (f"return:{TABLE}:1:s-1:3", 5)))
    assert len(found) == 2, found
    assert found[0] == f"'{RETURN}' pays 650; the settlement owes 600"
    assert "no settlement in the log owes it (a forged credit)" in found[1]


def test_a_credit_of_a_wager_at_a_table_playing_chips_is_no_settlements() -> None:
    """A table opened with no currency plays chips and pays at the table: settlement credits
    no account for it (only a debited slip is credited), so a credit of its wager, even of
    the very amount settled, is forged (the player would be paid twice)."""
    found = messages(table_log(currency=None), account((RETURN, 600)))
    assert len(found) == 1 and RETURN in found[0] and "(a forged credit)" in found[0], found


def test_a_debit_of_a_closed_round_without_its_slip_or_refund_is_found() -> None:
    found = messages(table_log(slip=False), account())
    assert found == [
        f"debit 'debit:{TABLE}:1:s-1:v1' has no stored slip and 300 of it was never refunded"
    ]


def test_a_credit_whose_settlement_was_stored_after_the_tables_read_is_no_forgery() -> None:
    """verify reads the tables, then the accounts: a round settled and credited between the
    two reads is in the accounts only. The tables are read again (the settlement is stored
    before its credit), and only a credit still owed by nothing is named forged."""
    before = table_log()[:-1]  # the settlement not stored yet
    reads: list[str] = []

    def after() -> list[Stored]:
        reads.append("again")
        return table_log()

    assert check_money_live(before, account((RETURN, 600)), after) == []
    assert reads == ["again"]
    forged = f"return:{TABLE}:1:s-1:3"
    found = [f.message for f in check_money_live(before, account((forged, 5)), after)]
    assert len(found) == 1 and "(a forged credit)" in found[0] and forged in found[0]


def test_the_tables_are_read_once_where_every_credit_is_owed() -> None:
    def after() -> list[Stored]:
        raise AssertionError("read again")

    assert check_money_live(table_log(), account((RETURN, 600)), after) == []


def test_a_payment_made_after_the_accounts_read_is_no_finding_on_a_later_read() -> None:
    """Settlement stores a round's payments, then credits them: a round settled before the
    tables' read may be credited after the accounts' read. The finding stands only if a later
    read of the accounts still lacks the credit."""

    def nothing_more() -> list[Stored]:
        raise AssertionError("the tables are not read again: no credit looks forged")

    late = [f.message for f in check_money_live(table_log(), account(), nothing_more)]
    assert late == [f"'{RETURN}' (600) is owed by the settlement and not in the account"]
    credited = check_money_live(
        table_log(), account(), nothing_more, lambda: account((RETURN, 600))
    )
    assert credited == []
    still = check_money_live(table_log(), account(), nothing_more, account)
    assert [f.message for f in still] == late


def test_a_debit_refunded_after_the_accounts_read_is_no_finding_on_a_later_read() -> None:
    def nothing_more() -> list[Stored]:
        raise AssertionError("read again")

    tables = table_log(slip=False)
    assert check_money_live(tables, account(), nothing_more, lambda: account(refunded=300)) == []
    part = check_money_live(tables, account(), nothing_more, lambda: account(refunded=100))
    assert [f.message for f in part] == [
        f"debit 'debit:{TABLE}:1:s-1:v1' has no stored slip and 200 of it was never refunded"
    ]
