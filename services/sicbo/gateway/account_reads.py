"""A player's account as the gateway reads it: the account's events from ``SICBO_ACCOUNTS``
folded by replay's own statement (:func:`sicbo.replay.statement.statement`), so the page shows
what ``sicbo replay account PLAYER`` prints and there is no second fold to drift from it.

The answers carry no replay findings: a player is shown their money, the operator's tooling
(``sicbo replay verify``) the account's violations.
"""

from __future__ import annotations

from typing import Any

import msgspec
from nats.aio.client import Client as NATS

from sicbo.eventstore.store import EventStore
from sicbo.gateway.http import ApiError
from sicbo.replay.statement import Statement, statement
from sicbo.shell.headers import COMMAND_ID
from sicbo_contracts.accounts import AccountId
from sicbo_contracts.subjects import ACCOUNT_STREAM, account_filter

_account_id = msgspec.json.Decoder(AccountId)


def account_id(value: object, field: str = "$.player") -> str:
    """A player's account id as the contracts allow it (it goes into a NATS subject)."""
    try:
        return _account_id.decode(msgspec.json.encode(value))
    except msgspec.ValidationError:
        raise ApiError(
            400, "invalid", f"{field}: a player's id, 1-64 of A-Z a-z 0-9 _ : @ -", field
        ) from None


class AccountReads:
    def __init__(self, nc: NATS) -> None:
        self._store = EventStore(nc, ACCOUNT_STREAM)

    async def statement(self, player: str) -> Statement:
        """The player's statement as of now (no account: no currency, no lines)."""
        stored = await self._store.read(account_filter(account_id(player)))
        return statement(stored, player, command_header=COMMAND_ID)

    async def has_account(self, player: str) -> bool:
        """Whether any entry of an account of ``player`` is stored (any currency)."""
        try:
            wanted = account_filter(account_id(player))
        except ApiError:
            return False  # not an account id: no account can be named by it
        return await self._store.last_sequence(wanted) > 0


def balance_answer(found: Statement) -> dict[str, Any]:
    """``GET /api/account``: the balance in integer minor units, with its currency."""
    return {
        "player": found.player,
        "open": found.currency is not None,
        "currency": found.currency,
        "balance": found.balance,
    }


def statement_answer(found: Statement) -> dict[str, Any]:
    """The statement: the balance, each round (table, round, before, stakes, refunds, returns,
    adjustments, after; newest first) and each entry (newest first)."""
    return {
        **balance_answer(found),
        "rounds": [msgspec.to_builtins(r) for r in reversed(found.rounds)],
        "lines": [msgspec.to_builtins(line) for line in reversed(found.lines)],
    }
