"""The operators that may launch players into the floor, and the key each signs with (pure:
the file's text and folder come in as arguments).

A TOML file (``SICBO_LAUNCH_OPERATORS``, ``--launch-operators``), the floor's audience and
one ``[[operator]]`` table per operator::

    audience = "sicbo:floor-1"        # the aud every launch token must name

    [[operator]]
    id = "acme"                       # the tokens' iss; 1-16 of a-z 0-9 _ -
    algorithm = "EdDSA"               # pinned: a token with another alg is refused
    public_key = \"\"\"-----BEGIN PUBLIC KEY-----
    MCowBQYDK2VwAyEA...
    -----END PUBLIC KEY-----\"\"\"

    [[operator]]
    id = "other"
    algorithm = "HS256"               # a shared secret: kept in a file of its own
    key_file = "secrets/other.key"    # relative to this file's folder

EdDSA (Ed25519) is preferred: the floor holds only the operator's public key. A shared HS256
secret (at least 32 bytes) can sign tokens too, so it lives in a file readable by the gateway
only (a mounted Secret), never in this list. Nothing here is a private key.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key

#: An operator's id: the tokens' ``iss``, and the first part of its players' ids on the floor
#: (``acme:player-7``), so it holds no ``:``.
LAUNCH_OPERATOR_ID = re.compile(r"[a-z0-9][a-z0-9_-]{0,15}")
ALGORITHMS = ("EdDSA", "HS256")
#: RFC 7518 §3.2: an HS256 key at least as long as the hash.
MIN_SECRET_BYTES = 32
AUDIENCE = re.compile(r"[A-Za-z0-9_.:/@-]{1,128}")


class LaunchOperatorsError(ValueError):
    """The launch operators' file is malformed: which entry and why."""


@dataclass(frozen=True, slots=True)
class LaunchOperator:
    id: str
    algorithm: str  # one of ALGORITHMS: the only alg accepted from this operator
    key: Ed25519PublicKey | bytes  # EdDSA: the public key; HS256: the shared secret

    def __repr__(self) -> str:  # a shared secret never reaches a log
        return f"LaunchOperator(id={self.id!r}, algorithm={self.algorithm!r})"


@dataclass(frozen=True, slots=True)
class LaunchConfig:
    audience: str
    operators: Mapping[str, LaunchOperator]


def parse_launch_operators(
    text: str, folder: Path, where: str = "launch operators"
) -> LaunchConfig:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise LaunchOperatorsError(f"{where}: not TOML ({err})") from None
    unknown = doc.keys() - {"audience", "operator"}
    if unknown:
        raise LaunchOperatorsError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    audience = doc.get("audience")
    if not isinstance(audience, str) or not AUDIENCE.fullmatch(audience):
        raise LaunchOperatorsError(
            f"{where}: audience must be 1-128 of A-Z a-z 0-9 _ . : / @ - (the tokens' aud)"
        )
    entries = doc.get("operator", [])
    if not isinstance(entries, list) or not entries:
        raise LaunchOperatorsError(f"{where}: no [[operator]] entries")
    operators: dict[str, LaunchOperator] = {}
    for n, entry in enumerate(entries, 1):
        if not isinstance(entry, dict):
            raise LaunchOperatorsError(f"{where}, operator #{n}: an [[operator]] table")
        operator = _operator(entry, folder, f"{where}, operator #{n}")
        if operator.id in operators:
            raise LaunchOperatorsError(f"{where}, operator #{n}: id {operator.id!r} twice")
        operators[operator.id] = operator
    return LaunchConfig(audience=audience, operators=operators)


def _operator(entry: Mapping[str, Any], folder: Path, where: str) -> LaunchOperator:
    unknown = entry.keys() - {"id", "algorithm", "public_key", "key_file", "name"}
    if unknown:
        raise LaunchOperatorsError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}")
    op_id, algorithm = entry.get("id"), entry.get("algorithm")
    if not isinstance(op_id, str) or not LAUNCH_OPERATOR_ID.fullmatch(op_id):
        raise LaunchOperatorsError(
            f"{where}: id must be 1-16 of a-z 0-9 _ - (a letter or digit first)"
        )
    where = f"{where} ({op_id})"
    if algorithm not in ALGORITHMS:
        raise LaunchOperatorsError(f"{where}: algorithm must be one of {', '.join(ALGORITHMS)}")
    has_inline, has_file = "public_key" in entry, "key_file" in entry
    if has_inline == has_file:
        raise LaunchOperatorsError(f"{where}: give exactly one of public_key, key_file")
    if has_inline:
        if algorithm != "EdDSA":
            raise LaunchOperatorsError(
                f"{where}: an {algorithm} secret goes in key_file, never in this list"
            )
        raw = _text(entry["public_key"], where, "public_key").encode()
    else:
        path = folder / _text(entry["key_file"], where, "key_file")
        try:
            raw = path.read_bytes()
        except OSError as err:
            raise LaunchOperatorsError(f"{where}: key_file: {err}") from None
    return LaunchOperator(op_id, algorithm, _key(algorithm, raw, where))


def _text(value: object, where: str, field: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise LaunchOperatorsError(f"{where}: {field} must be a string")
    return value


def _key(algorithm: str, raw: bytes, where: str) -> Ed25519PublicKey | bytes:
    if algorithm == "HS256":
        secret = raw.strip()
        if len(secret) < MIN_SECRET_BYTES:
            raise LaunchOperatorsError(
                f"{where}: an HS256 secret of at least {MIN_SECRET_BYTES} bytes"
            )
        return secret
    try:
        key = load_pem_public_key(raw)
    except ValueError as err:
        raise LaunchOperatorsError(f"{where}: not a PEM public key ({err})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise LaunchOperatorsError(f"{where}: EdDSA needs an Ed25519 public key")
    return key
