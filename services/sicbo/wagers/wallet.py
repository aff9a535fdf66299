"""Stakes from the player's account, with the slip (issue 14 item 3; docs/architecture.md
"Player accounts": debit-then-slip with a compensating refund).

The shell's command path (:class:`sicbo.shell.commands.CommandHandler`) calls :meth:`hold`
with a decision's events before appending them, then :meth:`stored` once they are stored, or
:meth:`release` when the command ends without them (refused on a fresher state: betting
closed meanwhile, the append conflicted and the decision changed):

- a slip placed, or changed or chosen up, is debited the rise in its chips stake first; a
  slip over the balance is refused (``$.wagers``), a table of another currency too
  (``$.player``), and nothing is appended to either log;
- a slip changed down, withdrawn or cancelled is refunded what its account holds over its
  stake once that is stored (never before: a refund for a change that never happened would
  be money from nothing);
- a debit whose command was not stored is refunded at once (``refund:<debit key>``).

At a table that states a currency a slip of a player without an account is refused
(``$.player``: "no account in EUR for player ..."); everyone at a table that states no currency
bets with chips at the table (a land table's chips; its slips read no account). When the
store fails after a debit (the slip may or may not be stored) nothing is refunded here: settlement's
reconciler squares every debit of the round with the slips stored when betting closes
(:mod:`sicbo.settlement.money`).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import partial
from typing import NamedTuple

from sicbo.accounts.entries import Slip, debit_stake, refund_stake
from sicbo.accounts.squaring import debited, net_debit, refund_excess
from sicbo.accounts.state import AccountState
from sicbo.accounts.writer import AccountWriter
from sicbo.decider import Refused
from sicbo.wagers.stakes import SlipMove, move_of
from sicbo.wagers.state import WagerState
from sicbo_contracts.accounts import GameEntry, StakeDebited
from sicbo_contracts.base import Actor, Event, Role

log = logging.getLogger(__name__)

#: Who writes the game's entries (contracts.writers: a service, never the player).
INTAKE = Actor(id="wagers", role=Role.SERVICE)


class Held(NamedTuple):
    """A debit made for a decision: refunded if its command is not stored."""

    player: str
    key: str
    event: Event


def debit_key(move: SlipMove, version: int) -> str:
    return f"debit:{move.table}:{move.round}:{move.slip_id}:v{version}"


class StakeWallet:
    def __init__(self, writer: AccountWriter) -> None:
        self._writer = writer

    async def hold(self, state: WagerState, events: Sequence[object]) -> list[Held]:
        held: list[Held] = []
        if state.currency is None:
            return held  # a table that states no currency plays chips at the table: no read
        for event in events:
            move = move_of(event)
            if move is None or move.after <= move.before:
                continue
            slip = state.slips.get(move.slip_id)
            version = (slip.version if slip is not None else 0) + 1
            key = debit_key(move, version)
            assert isinstance(event, Event)

            def decide(
                account: AccountState, m: SlipMove = move, k: str = key, e: Event = event
            ) -> GameEntry | None:
                if not account.open:  # an online table's money is the account's: none, no bet
                    raise Refused(
                        f"no account in {state.currency} for player {m.player!r}: table"
                        f" {m.table} plays from the player's account, which the operator's"
                        " cashier opens first",
                        field="$.player",
                        key="wager.no-account",
                    )
                if state.currency != account.currency:
                    raise Refused(
                        f"table {m.table} plays in {state.currency}; the account of"
                        f" {m.player!r} is in {account.currency}: one currency per"
                        " account, never converted",
                        field="$.player",
                        key="wager.currency",
                    )
                net = net_debit(account, m.table, m.slip_id)
                if m.before > 0 and not debited(account, m.table, m.slip_id):
                    return None  # placed with chips at the table (before the account): stays so
                # What the account already holds for the slip (a retried decision) counts.
                rise = m.after - max(m.before, net)
                if rise <= 0:
                    return None
                if rise > account.free:
                    raise Refused(
                        f"the slip's stakes ({rise} {account.currency} more) are over"
                        f" the balance of {account.free} {account.currency} of"
                        f" {m.player!r}",
                        field="$.wagers",
                        key="wager.balance",
                    )
                entry: Slip = {"table": m.table, "round": m.round, "slip_id": m.slip_id, "key": k}
                return debit_stake(account, entry, rise, account.currency or "", INTAKE, e.at)

            written = await self._writer.write(move.player, decide)
            if isinstance(written, StakeDebited):
                held.append(Held(move.player, key, event))
        return held

    async def release(self, held: Sequence[Held], why: str) -> None:
        for h in held:
            await self._writer.write(h.player, partial(_refund_whole, held=h, why=why))

    async def stored(self, state: WagerState, events: Sequence[object]) -> None:
        if state.currency is None:
            return  # chips at the table: nothing was debited (a table's currency never changes)
        for event in events:
            move = move_of(event)
            if move is None or move.after >= move.before or not isinstance(event, Event):
                continue
            slip = state.slips.get(move.slip_id)
            tag = f"v{(slip.version if slip is not None else 0) + 1}"
            square = partial(_square, move=move, tag=tag, event=event)
            try:
                while await self._writer.write(move.player, square):
                    pass
            except Exception:  # the reconciler squares it when betting closes
                log.exception("refund of slip %s left to the reconciler", move.slip_id)


def _square(account: AccountState, *, move: SlipMove, tag: str, event: Event) -> GameEntry | None:
    if not account.open:
        return None
    return refund_excess(
        account,
        move.table,
        move.slip_id,
        move.after,
        tag=tag,
        reason="the slip's stakes were lowered or withdrawn",
        actor=INTAKE,
        at=event.at,
    )


def _refund_whole(account: AccountState, *, held: Held, why: str) -> GameEntry | None:
    debit = account.debits.get(held.key)
    if debit is None or debit.outstanding <= 0:
        return None
    entry: Slip = {
        "table": debit.table,
        "round": debit.round,
        "slip_id": debit.slip_id,
        "key": f"refund:{held.key}",
    }
    return refund_stake(
        account,
        entry,
        held.key,
        debit.outstanding,
        f"the slip was not stored: {why}"[:500],
        INTAKE,
        held.event.at,
    )
