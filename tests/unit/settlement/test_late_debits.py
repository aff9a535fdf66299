"""The pure part of squaring debits appended after their round closed
(:mod:`sicbo.settlement.late_debits`): which round a debit names, and when a round's money is
closed."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from sicbo.settlement.late_debits import money_closed, round_of_debit
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
