"""The game's entries written to a player's account: read the account, decide, append once.

Wager intake and settlement write the game's entries (:mod:`.entries`) from their own processes.
Every append expects the account's last sequence as read (an expectation on
``sicbo.acct.<player>.>``, like the lifecycle's on "no more bets"), so of two writers racing to
spend the same funds one is stored and the other decides again on the new balance: two slips
from two tabs can never both spend the same funds. Every entry names an idempotency key, which
is also its ``Nats-Msg-Id``: an entry written again (a retry, a redelivery after kill -9) is
:class:`~.guards.AlreadyEntered` on the account, or a duplicate to the server, and appends
nothing.
"""

from __future__ import annotations

from collections.abc import Callable

import msgspec
from nats.aio.client import Client as NATS

from sicbo.accounts.guards import AlreadyEntered
from sicbo.accounts.state import AccountState, fold
from sicbo.eventstore.errors import AppendConflict
from sicbo.eventstore.records import Expect
from sicbo.eventstore.retry import retry_on_conflict
from sicbo.eventstore.store import EventStore
from sicbo.shell.codec import encode
from sicbo_contracts.accounts import AccountEvent, GameEntry
from sicbo_contracts.subjects import ACCOUNT_STREAM, account_filter, account_subject_of

#: Times an entry is decided again after another writer moved the account (racing slips).
ATTEMPTS = 40

#: Decides the entry on the account as read; None: nothing to write (already square).
Decision = Callable[[AccountState], GameEntry | None]

_decoder: msgspec.json.Decoder[AccountEvent] = msgspec.json.Decoder(AccountEvent)


class AccountWriter:
    def __init__(self, nc: NATS) -> None:
        self._store = EventStore(nc, ACCOUNT_STREAM)

    async def read(self, player: str) -> tuple[AccountState, int]:
        """The account folded, and the last sequence of its events (0: none)."""
        stored = await self._store.read(account_filter(player))
        state = fold(player, (_decoder.decode(s.data) for s in stored))
        return state, stored[-1].seq if stored else 0

    async def write(self, player: str, decide: Decision) -> GameEntry | None:
        """Append what ``decide`` says on the freshest account; None when nothing was
        appended (nothing due, or the entry's key is already in the account)."""

        async def attempt() -> GameEntry | None:
            state, last = await self.read(player)
            try:
                entry = decide(state)
            except AlreadyEntered:
                return None
            if entry is None:
                return None
            appended = await self._store.append(
                account_subject_of(entry),
                encode(entry),
                expect=Expect(account_filter(player), last),
                msg_id=f"acct-{player}-{entry.key}",
            )
            return None if appended.duplicate else entry

        return await retry_on_conflict(attempt, attempts=ATTEMPTS)


__all__ = ["ATTEMPTS", "AccountWriter", "AppendConflict", "Decision"]
