"""The game's entries written to a player's account: read the account, decide, append once.

Wager intake and settlement write the game's entries (:mod:`.entries`) from their own processes.
Every append expects the account's last sequence as read (an expectation on
``sicbo.acct.<player>.>``, like the lifecycle's on "no more bets"), so of two writers racing to
spend the same funds one is stored and the other decides again on the new balance: two slips
from two tabs can never both spend the same funds. Every entry names an idempotency key, which
is also its ``Nats-Msg-Id``: an entry written again (a retry, a redelivery after kill -9) is
:class:`~.guards.AlreadyEntered` on the account, or a duplicate to the server, and appends
nothing.

The writer keeps each account it has read folded, with the account's last sequence folded
(a player's hundredth slip read a hundred entries when each decision read the whole account):

- an entry is decided on the fold as kept and appended expecting its last sequence, with no
  read: if anyone appended to the account since (the cashier, the other service, another
  replica), the server refuses the append, the writer catches the fold up from its last
  sequence (only what was appended since) and decides again. A stored append proves the fold
  was the account's latest, so the entry is folded in without reading it back;
- a decision that appends nothing (nothing due, already entered, refused: over the balance,
  no account) is never taken on a fold that was not caught up first: with no append there is
  no expectation to catch a stale balance or a missing debit;
- :meth:`AccountWriter.read` always catches up.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable

import msgspec
from nats.aio.client import Client as NATS

from sicbo.accounts.guards import AlreadyEntered
from sicbo.accounts.state import AccountState, evolve, initial_state
from sicbo.decider import Refused
from sicbo.eventstore.errors import AppendConflict
from sicbo.eventstore.records import Expect
from sicbo.eventstore.retry import retry_on_conflict
from sicbo.eventstore.store import EventStore
from sicbo.shell.codec import encode
from sicbo.shell.quarantine import admitted
from sicbo_contracts.accounts import AccountEvent, GameEntry
from sicbo_contracts.subjects import ACCOUNT_STREAM, account_filter, account_subject_of

#: Times an entry is decided again after another writer moved the account (racing slips).
ATTEMPTS = 40

#: Accounts kept folded by one writer (the least recently read is dropped past it, and folded
#: again from its first event when next read).
CACHED_ACCOUNTS = 10_000

#: Decides the entry on the account as read; None: nothing to write (already square).
Decision = Callable[[AccountState], GameEntry | None]

_decoder: msgspec.json.Decoder[AccountEvent] = msgspec.json.Decoder(AccountEvent)


class AccountWriter:
    def __init__(self, nc: NATS) -> None:
        self._store = EventStore(nc, ACCOUNT_STREAM)
        self._folded: OrderedDict[str, _Folded] = OrderedDict()

    async def read(self, player: str) -> tuple[AccountState, int]:
        """The account folded and caught up, and the last sequence of its events (0: none).

        The state is this writer's own, folded further in place by later calls: decide on it
        before awaiting anything (as :meth:`write` does), never keep it to decide later."""
        folded = self._kept(player)
        await self._catch_up(folded)
        return folded.state, folded.last

    async def write(self, player: str, decide: Decision) -> GameEntry | None:
        """Append what ``decide`` says on the freshest account; None when nothing was
        appended (nothing due, or the entry's key is already in the account)."""

        async def attempt() -> GameEntry | None:
            folded = self._kept(player)
            caught_up = False
            if folded.stale:
                await self._catch_up(folded)
                caught_up = True
            while True:
                state, last = folded.state, folded.last
                try:
                    entry = decide(state)
                except AlreadyEntered:
                    entry = None
                except Refused:
                    if caught_up:
                        raise
                    entry = None  # refused on the kept fold: catch up, decide again
                if entry is not None:
                    break
                if caught_up:
                    return None
                await self._catch_up(folded)
                caught_up = True
            data = encode(entry)
            try:
                appended = await self._store.append(
                    account_subject_of(entry),
                    data,
                    expect=Expect(account_filter(player), last),
                    msg_id=f"acct-{player}-{entry.key}",
                )
            except AppendConflict:
                folded.stale = True  # the account moved since the fold: catch up, decide again
                raise
            if appended.duplicate:
                folded.stale = True  # stored earlier, after the fold's last sequence
                return None
            if folded.last == last:  # no catch-up folded it meanwhile: it is the next event
                folded.state = evolve(folded.state, _decoder.decode(data))  # as stored
                folded.last = appended.seq
            return entry

        return await retry_on_conflict(attempt, attempts=ATTEMPTS)

    def _kept(self, player: str) -> _Folded:
        folded = self._folded.pop(player, None) or _Folded(initial_state(player))
        self._folded[player] = folded  # the most recently used last
        while len(self._folded) > CACHED_ACCOUNTS:
            self._folded.popitem(last=False)
        return folded

    async def _catch_up(self, folded: _Folded) -> None:
        async with folded.lock:  # one catch-up at a time: each event is folded once
            stored = await self._store.read(
                account_filter(folded.state.player), after_seq=folded.last
            )
            folded.stale = False
            for s in stored:
                if s.seq > folded.last:
                    entry = admitted("accounts", s, _decoder)  # or skipped, named once
                    if entry is not None:
                        folded.state = evolve(folded.state, entry)
                    folded.last = s.seq


class _Folded:
    __slots__ = ("last", "lock", "stale", "state")

    def __init__(self, state: AccountState) -> None:
        self.state = state
        self.last = 0  # the stream sequence of the last event folded (0: none)
        self.stale = True  # catch up before deciding (never read, or an append conflicted)
        self.lock = asyncio.Lock()


__all__ = ["ATTEMPTS", "AccountWriter", "AppendConflict", "Decision"]
