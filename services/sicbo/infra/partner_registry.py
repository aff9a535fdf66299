"""The results feed's integration partners: who they are and the public nkey each signs with.

The registry is a TOML file (``deploy/nats/partners.toml`` for the floor's deployment; the
local floor of ``sicbo run`` keeps its own in its data folder), one ``[[partner]]`` table per
partner: ``name``, ``public_key`` (a NATS user nkey, ``U...``), ``added`` and, once rotated,
``rotated`` (dates). It holds no secret: a partner's seed stays with the partner (or in the
file ``sicbo partners add`` wrote it to, handed over once). Each partner becomes an account of
its own (:mod:`sicbo.infra.partner_accounts`), rendered by ``make nats-config``.

Every change goes through :func:`added`, :func:`rotated` or :func:`removed`, which refuse bad
input with a :class:`RegistryError` that says what is wrong, before anything is written.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path

import nkeys

#: Lower-case letters, digits and inner dashes: the account is ``PARTNER_<NAME>`` with dashes
#: as underscores, so two names can never give one account.
NAME = re.compile(r"[a-z][a-z0-9-]{0,30}[a-z0-9]")
HEADER = """\
# The results feed's integration partners, one NATS account each (deploy/nats/README.md).
# Changed by `sicbo partners add|rotate|remove NAME`, rendered into the accounts by
# `make nats-config`. Public keys only: a partner's seed never comes here.
"""


class RegistryError(ValueError):
    """A registry, or a change to it, that cannot be right; nothing was changed."""


@dataclass(frozen=True, slots=True)
class Partner:
    name: str
    public_key: str
    added: date
    rotated: date | None = None

    @property
    def account(self) -> str:
        return f"PARTNER_{self.name.upper().replace('-', '_')}"


def check_name(name: str) -> str:
    if not NAME.fullmatch(name):
        raise RegistryError(
            f"bad partner name {name!r}: 2-32 characters, lower-case letters, digits and"
            " inner dashes, starting with a letter (e.g. acme or acme-bets)"
        )
    return name


def check_public_key(key: str) -> str:
    """A NATS *user* public nkey (``U`` and 55 more base32 characters, checksum right)."""
    if key.startswith("S"):
        raise RegistryError("that is a seed (a secret), not a public key: give the U... key")
    try:
        raw = base64.b32decode(key, casefold=False) if len(key) == 56 else b""
    except binascii.Error:
        raw = b""
    if (
        len(raw) != 35
        or raw[0] != nkeys.PREFIX_BYTE_USER
        or nkeys.crc16_checksum(raw[:-2]) != raw[-2:]
    ):
        raise RegistryError(
            f"bad public key {key!r}: expected a NATS user nkey (56 characters starting with U,"
            " as `nk -gen user -pubout` prints)"
        )
    return key


def new_key_pair() -> tuple[str, str]:
    """A fresh user nkey: ``(seed, public key)``."""
    seed = nkeys.encode_seed(os.urandom(32), nkeys.PREFIX_BYTE_USER)
    public: bytes = nkeys.from_seed(bytearray(seed)).public_key
    return seed.decode(), public.decode()


# -- the file --------------------------------------------------------------------------------


def _partner(entry: object, where: str) -> Partner:
    if not isinstance(entry, dict):
        raise RegistryError(f"{where}: expected a [[partner]] table")
    unknown = set(entry) - {"name", "public_key", "added", "rotated"}
    if unknown:
        raise RegistryError(f"{where}: unknown keys {sorted(unknown)}")
    name, key, added, rotated = (entry.get(k) for k in ("name", "public_key", "added", "rotated"))
    if not isinstance(name, str) or not isinstance(key, str):
        raise RegistryError(f"{where}: name and public_key must be strings")
    if not isinstance(added, date) or not (rotated is None or isinstance(rotated, date)):
        raise RegistryError(f"{where}: added (and rotated) must be dates, e.g. 2026-12-01")
    try:
        return Partner(check_name(name), check_public_key(key), added, rotated)
    except RegistryError as exc:
        raise RegistryError(f"{where}: {exc}") from None


def _unique(partners: Sequence[Partner]) -> tuple[Partner, ...]:
    names: set[str] = set()
    keys: dict[str, str] = {}
    for p in partners:
        if p.name in names:
            raise RegistryError(f"partner {p.name!r} is already registered")
        if p.public_key in keys:
            raise RegistryError(
                f"partner {p.name!r}: that public key is already {keys[p.public_key]!r}'s"
            )
        names.add(p.name)
        keys[p.public_key] = p.name
    return tuple(partners)


def parse(text: str, source: str = "partners.toml") -> tuple[Partner, ...]:
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RegistryError(f"{source}: not valid TOML ({exc})") from None
    extra = set(document) - {"partner"}
    if extra:
        raise RegistryError(f"{source}: unknown keys {sorted(extra)} (only [[partner]] tables)")
    entries = document.get("partner", [])
    if not isinstance(entries, list):
        raise RegistryError(f"{source}: partner must be [[partner]] tables")
    return _unique([_partner(e, f"{source}, partner {n + 1}") for n, e in enumerate(entries)])


def load(path: Path) -> tuple[Partner, ...]:
    """The registry at ``path``; none yet (no file) is no partner."""
    if not path.exists():
        return ()
    return parse(path.read_text(encoding="utf-8"), str(path))


def dump(partners: Sequence[Partner]) -> str:
    blocks = [HEADER]
    for p in partners:
        lines = ["[[partner]]", f'name = "{p.name}"', f'public_key = "{p.public_key}"']
        lines.append(f"added = {p.added.isoformat()}")
        if p.rotated is not None:
            lines.append(f"rotated = {p.rotated.isoformat()}")
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


def save(path: Path, partners: Sequence[Partner]) -> None:
    """Whole or not at all: a reader never sees half a registry."""
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(f".{path.name}.new")
    scratch.write_text(dump(partners), encoding="utf-8")
    os.replace(scratch, path)


# -- changes ---------------------------------------------------------------------------------


def find(partners: Sequence[Partner], name: str) -> Partner:
    for p in partners:
        if p.name == name:
            return p
    known = ", ".join(p.name for p in partners) or "none"
    raise RegistryError(f"no partner {name!r} (registered: {known})")


def added(partners: Sequence[Partner], name: str, key: str, today: date) -> tuple[Partner, ...]:
    check_name(name)
    check_public_key(key)
    if any(p.name == name for p in partners):
        raise RegistryError(f"partner {name!r} is already registered (rotate its key instead)")
    return _unique([*partners, Partner(name, key, today)])


def rotated(partners: Sequence[Partner], name: str, key: str, today: date) -> tuple[Partner, ...]:
    old = find(partners, check_name(name))
    if check_public_key(key) == old.public_key:
        raise RegistryError(f"partner {name!r} already has that public key: give a new one")
    return _unique([replace(p, public_key=key, rotated=today) if p is old else p for p in partners])


def removed(partners: Sequence[Partner], name: str) -> tuple[Partner, ...]:
    old = find(partners, check_name(name))
    return tuple(p for p in partners if p is not old)
