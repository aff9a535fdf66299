"""The pure part of squaring debits appended after their round closed
(:mod:`sicbo.settlement.late_debits`): which round a debit names, and when a round's money is
closed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import cast

import pytest

from sicbo.eventstore.store import EventStore
from sicbo.settlement.late_debits import LateDebits, RoundChecks, money_closed, round_of_debit
from sicbo.settlement.money import RoundMoney
from sicbo_contracts.accounts import ReturnCredited, StakeDebited, StakeRefunded
from sicbo_contracts.lifecycle import BettingClosed, BettingOpened, RoundCancelled
from sicbo_contracts.subjects import Aggregate, account_event, event


def test_a_debit_names_its_table_and_round() -> None:
    subject = account_event("p-1", StakeDebited, "t1", 7)
    assert round_of_debit(subject) == ("t1", 7)


def test_other_entries_and_debits_without_their_round_name_none() -> None:
    assert round_of_debit(account_event("p-1", StakeRefunded, "t1", 7)) is None
    assert round_of_debit(account_event("p-1", ReturnCredited, "t1", 7)) is None
    # A debit stored before contracts 1.2.0: on the account's subject without the round.
    assert round_of_debit(account_event("p-1", StakeDebited)) is None
    assert round_of_debit("sicbo.evt.t1.lc.7.round-betting-closed-v1") is None


def lookup(*stored: str) -> tuple[Callable[[str], Awaitable[bool]], list[str]]:
    """A lookup of the leader's subjects holding ``stored``, and what it was asked."""
    asked: list[str] = []

    async def is_stored(subject: str) -> bool:
        asked.append(subject)
        return subject in stored

    return is_stored, asked


async def test_a_round_is_closed_once_betting_closed_or_the_round_cancelled_is_stored() -> None:
    closed, _ = lookup(event("t1", Aggregate.LIFECYCLE, 7, BettingClosed))
    assert await money_closed(closed, "t1", 7)
    cancelled, _ = lookup(event("t1", Aggregate.LIFECYCLE, 7, RoundCancelled))
    assert await money_closed(cancelled, "t1", 7)


async def test_a_round_still_betting_or_another_rounds_close_is_open() -> None:
    betting, asked = lookup(
        event("t1", Aggregate.LIFECYCLE, 7, BettingOpened),
        event("t1", Aggregate.LIFECYCLE, 6, BettingClosed),
        event("t2", Aggregate.LIFECYCLE, 7, BettingClosed),
    )
    assert not await money_closed(betting, "t1", 7)
    assert asked == [
        event("t1", Aggregate.LIFECYCLE, 7, BettingClosed),
        event("t1", Aggregate.LIFECYCLE, 7, RoundCancelled),
    ]


async def test_one_lookup_answers_for_the_debits_delivered_before_it_started() -> None:
    is_stored, asked = lookup()
    rounds = RoundChecks(is_stored)
    # A batch of debits of one round, run concurrently as the consumer runs its batch.
    answers = await asyncio.gather(*(rounds.closed("t1", 7, seq) for seq in range(1, 51)))
    assert answers == [False] * 50
    assert len(asked) == 2  # BettingClosed, RoundCancelled: once for the whole batch
    # A debit delivered after that lookup started is not covered by it: asked again.
    assert not await rounds.closed("t1", 7, 51)
    assert len(asked) == 4


async def test_a_closed_round_stays_closed_without_asking_again() -> None:
    is_stored, asked = lookup(event("t1", Aggregate.LIFECYCLE, 7, BettingClosed))
    rounds = RoundChecks(is_stored)
    assert await rounds.closed("t1", 7, 1)
    assert await rounds.closed("t1", 7, 2)
    assert len(asked) == 1
    assert not await rounds.closed("t1", 8, 3)  # another round: its own lookup


async def test_an_open_answer_is_not_kept_for_a_round_that_closes_later() -> None:
    stored: set[str] = set()

    async def is_stored(subject: str) -> bool:
        return subject in stored

    rounds = RoundChecks(is_stored)
    assert not await rounds.closed("t1", 7, 1)
    stored.add(event("t1", Aggregate.LIFECYCLE, 7, BettingClosed))
    assert await rounds.closed("t1", 7, 2)  # delivered after the first lookup: asked anew


async def test_a_failed_lookup_is_asked_again() -> None:
    calls = 0

    async def flaky(subject: str) -> bool:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise TimeoutError
        return False

    rounds = RoundChecks(flaky)
    with pytest.raises(TimeoutError):
        await rounds.closed("t1", 7, 1)
    assert not await rounds.closed("t1", 7, 1)  # the redelivery


class _Money:
    """A reconciler that reads the round's debits up to ``upto`` each time it is asked."""

    def __init__(self, upto: int) -> None:
        self.upto = upto
        self.calls = 0
        self.squared_upto: dict[tuple[str, int], int] = {}

    async def reconcile(self, table: str, round_no: int) -> int:
        self.calls += 1
        await asyncio.sleep(0)
        self.squared_upto[(table, round_no)] = self.upto
        return 0


async def test_a_backlog_of_a_closed_rounds_debits_is_squared_by_one_reconcile() -> None:
    money = _Money(upto=100)
    late = LateDebits(cast(EventStore, None), cast(RoundMoney, money))
    late._rounds = RoundChecks(lambda subject: _true())  # every round closed
    subject = account_event("p-1", StakeDebited, "t1", 7)
    await asyncio.gather(*(late.on_debit(subject, seq) for seq in range(1, 101)))
    assert money.calls == 1  # the first read them all; the rest were in it
    await late.on_debit(subject, 101)  # appended after that read: squared again
    assert money.calls == 2


async def _true() -> bool:
    return True
