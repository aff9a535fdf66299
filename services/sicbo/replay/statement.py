"""A player's statement from the log alone (pure): ``sicbo replay account PLAYER``.

Every entry of the account in log order with the balance before and after it (re-folded, and
what the entry recorded), and the game's entries grouped per round they name: the balance
before the round's first entry, the stakes, refunds, returns and adjustments, and the balance
after its last. The account's violations (:mod:`.accounts`) come with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import msgspec

from sicbo.accounts.state import evolve, initial_state, movement
from sicbo.replay.accounts import StoredEntry, check_accounts
from sicbo.replay.findings import Finding
from sicbo_contracts.accounts import (
    AccountEvent,
    BalanceAdjusted,
    GameEntry,
    MoneyEntry,
    ReturnCredited,
    StakeDebited,
    StakeRefunded,
)
from sicbo_contracts.base import DECODE_ERRORS, tag_of
from sicbo_contracts.subjects import parse_account_subject

_decode = msgspec.json.Decoder(AccountEvent).decode


class Line(msgspec.Struct, frozen=True, kw_only=True):
    seq: int  # in SICBO_ACCOUNTS
    at: datetime
    type: str
    actor: str
    amount: int  # signed: what the entry moves
    before: int
    after: int
    recorded: int | None  # the balance the entry recorded (None: it records none)
    table: str | None = None
    round: int | None = None
    slip_id: str | None = None
    key: str | None = None


class RoundLine(msgspec.Struct, frozen=True, kw_only=True):
    table: str
    round: int
    before: int
    staked: int = 0
    refunded: int = 0
    returned: int = 0
    adjusted: int = 0
    after: int = 0


class Statement(msgspec.Struct, frozen=True, kw_only=True):
    player: str
    currency: str | None  # None: the log holds no opened account of the player
    balance: int
    lines: list[Line]
    rounds: list[RoundLine]
    violations: list[Finding]

    @property
    def ok(self) -> bool:
        return not self.violations


def statement(stored: Iterable[StoredEntry], player: str, *, command_header: str) -> Statement:
    """``player``'s statement from the stored events of the accounts' stream."""
    mine = [e for e in stored if (s := parse_account_subject(e.subject)) and s.player == player]
    state = initial_state(player)
    lines: list[Line] = []
    rounds: dict[tuple[str, int], RoundLine] = {}
    for e in mine:
        try:
            event = _decode(e.data)
        except DECODE_ERRORS:
            continue  # listed among the violations
        if event.player != player:
            continue
        before = state.balance
        state = evolve(state, event)
        entry = event if isinstance(event, GameEntry) else None
        lines.append(
            Line(
                seq=e.seq,
                at=event.at,
                type=tag_of(event),
                actor=f"{event.actor.role.value}:{event.actor.id}",
                amount=movement(event),
                before=before,
                after=state.balance,
                recorded=event.balance if isinstance(event, MoneyEntry) else None,
                table=entry.table if entry else None,
                round=entry.round if entry else None,
                slip_id=entry.slip_id if entry else None,
                key=entry.key if entry else None,
            )
        )
        if entry is not None:
            where = (entry.table, entry.round)
            line = rounds.get(where) or RoundLine(
                table=entry.table, round=entry.round, before=before
            )
            rounds[where] = _add(line, entry, state.balance)
    return Statement(
        player=player,
        currency=state.currency,
        balance=state.balance,
        lines=lines,
        rounds=list(rounds.values()),
        violations=check_accounts(mine, command_header=command_header, player=player),
    )


def _add(line: RoundLine, entry: GameEntry, after: int) -> RoundLine:
    moved = movement(entry)
    match entry:
        case StakeDebited():
            return msgspec.structs.replace(line, staked=line.staked - moved, after=after)
        case StakeRefunded():
            return msgspec.structs.replace(line, refunded=line.refunded + moved, after=after)
        case ReturnCredited():
            return msgspec.structs.replace(line, returned=line.returned + moved, after=after)
        case BalanceAdjusted():
            return msgspec.structs.replace(line, adjusted=line.adjusted + moved, after=after)
    return msgspec.structs.replace(line, after=after)
