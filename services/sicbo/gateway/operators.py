"""The local operator list: who may sign in at a terminal, with which role (pure).

The list is a TOML file (``SICBO_OPERATORS``), one ``[[operator]]`` table each::

    [[operator]]
    id = "ana"
    role = "dealer"
    salt = "9f2c..."             # hex, per operator
    pin_hash = "5e88..."         # hex PBKDF2-HMAC-SHA256 of the PIN

PINs are never stored in clear; ``sicbo gateway hash-pin`` makes the two hex strings.
"""

import hashlib
import hmac
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sicbo_contracts.base import Role

#: Roles that work at a terminal; players and service accounts never sign in here.
TERMINAL_ROLES = frozenset({Role.DEALER, Role.SUPERVISOR, Role.INSPECTOR, Role.OPERATOR})
PIN = re.compile(r"[0-9]{4,12}")
ITERATIONS = 120_000
ID = re.compile(r"[A-Za-z0-9_.:@-]{1,64}")


class OperatorListError(ValueError):
    """The operator list is malformed: which entry and why."""


@dataclass(frozen=True, slots=True)
class Operator:
    id: str
    role: Role
    salt: str
    pin_hash: str

    def pin_matches(self, pin: str) -> bool:
        return hmac.compare_digest(hash_pin(pin, self.salt), self.pin_hash)


def hash_pin(pin: str, salt: str) -> str:
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), ITERATIONS).hex()


def parse_operators(text: str, where: str = "operator list") -> dict[str, Operator]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise OperatorListError(f"{where}: not TOML ({err})") from None
    entries = doc.get("operator", [])
    if not isinstance(entries, list) or not entries:
        raise OperatorListError(f"{where}: no [[operator]] entries")
    operators: dict[str, Operator] = {}
    for n, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise OperatorListError(f"{where}, operator #{n}: an [[operator]] table, not {entry!r}")
        operator = _operator(entry, f"{where}, operator #{n}")
        if operator.id in operators:
            raise OperatorListError(f"{where}, operator #{n}: id {operator.id!r} listed twice")
        operators[operator.id] = operator
    return operators


def _operator(entry: Mapping[str, Any], where: str) -> Operator:
    fields = {"id", "role", "salt", "pin_hash"}
    missing = fields - entry.keys()
    if missing:
        raise OperatorListError(f"{where}: missing {', '.join(sorted(missing))}")
    unknown = entry.keys() - fields - {"name"}
    if unknown:
        raise OperatorListError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    op_id, role, salt, pin_hash = (entry[f] for f in ("id", "role", "salt", "pin_hash"))
    if not isinstance(op_id, str) or not ID.fullmatch(op_id):
        raise OperatorListError(f"{where}: id must be 1-64 of A-Z a-z 0-9 _ . : @ -")
    if role not in {r.value for r in TERMINAL_ROLES}:
        allowed = ", ".join(sorted(r.value for r in TERMINAL_ROLES))
        raise OperatorListError(f"{where} ({op_id}): role must be one of {allowed}")
    for name, value in (("salt", salt), ("pin_hash", pin_hash)):
        if not isinstance(value, str) or not re.fullmatch(r"[0-9a-f]{32,128}", value):
            raise OperatorListError(
                f"{where} ({op_id}): {name} must be 32-128 lowercase hex digits"
            )
    return Operator(id=op_id, role=Role(role), salt=salt, pin_hash=pin_hash)


def operator_entry(op_id: str, role: Role, pin: str, salt: str) -> str:
    """The TOML entry of one operator (``salt``: hex, e.g. ``secrets.token_hex(16)``)."""
    if not PIN.fullmatch(pin):
        raise OperatorListError("the PIN must be 4 to 12 digits")
    return (
        f'[[operator]]\nid = "{op_id}"\nrole = "{role.value}"\n'
        f'salt = "{salt}"\npin_hash = "{hash_pin(pin, salt)}"\n'
    )
