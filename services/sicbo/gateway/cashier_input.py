"""The cashier's commands as the gateway builds them from a page's body (pure): the type from
the route, the player from the path (or the body, to open an account), the actor from the
sign-in. Every refusal names the field at fault, and nothing is sent."""

from __future__ import annotations

import json
from typing import Any

import msgspec

from sicbo.gateway.http import ApiError
from sicbo.gateway.operators import Operator
from sicbo.shell.codec import invalid_input
from sicbo_contracts.accounts import AccountCommand
from sicbo_contracts.base import DECODE_ERRORS

_command: msgspec.json.Decoder[AccountCommand] = msgspec.json.Decoder(AccountCommand)

OPEN = "account.open.v1"
DEPOSIT = "account.deposit.v1"
WITHDRAW = "account.withdraw.v1"

#: What the page sends for each command (``reference``: the cashier's receipt, optional).
_FIELDS: dict[str, tuple[frozenset[str], frozenset[str]]] = {
    OPEN: (frozenset({"command_id", "player", "currency"}), frozenset()),
    DEPOSIT: (frozenset({"command_id", "amount", "currency"}), frozenset({"reference"})),
    WITHDRAW: (frozenset({"command_id", "amount", "currency"}), frozenset({"reference"})),
}


def cashier_command(
    tag: str, body: dict[str, Any], operator: Operator, player: str | None = None
) -> AccountCommand:
    """The command ``tag`` of ``body``, by ``operator``, for ``player`` (the path's) if given."""
    required, optional = _FIELDS[tag]
    if player is not None:
        if body.get("player", player) != player:
            raise ApiError(400, "invalid", "player: the account is the one in the path", "$.player")
        body = {**body, "player": player}
        required = required | {"player"}
    for stamped in ("type", "actor"):
        if stamped in body:
            why = f"{stamped}: set by the gateway from the page and sign-in"
            raise ApiError(400, "invalid", why, f"$.{stamped}")
    unknown = sorted(body.keys() - required - optional)
    if unknown:
        why = f"{unknown[0]}: not part of {tag}"
        raise ApiError(400, "invalid", why, f"$.{unknown[0]}")
    missing = sorted(required - body.keys())
    if missing:
        raise ApiError(400, "invalid", f"{missing[0]}: missing", f"$.{missing[0]}")
    amount = body.get("amount")
    if "amount" in body and (isinstance(amount, bool) or not isinstance(amount, int)):
        # msgspec would take 100.0 for 100: money is a whole number of minor units, as sent.
        why = f"amount: a whole number of minor units (100 = 1.00), not {amount!r}"
        raise ApiError(400, "invalid", why, "$.amount")
    stamped_body = {
        **body,
        "type": tag,
        "actor": {"id": operator.id, "role": operator.role.value},
    }
    try:
        return _command.decode(json.dumps(stamped_body).encode())
    except DECODE_ERRORS as err:
        rejected = invalid_input(err, body.get("command_id"))
        raise ApiError(400, rejected.code, rejected.reason, rejected.field) from None
