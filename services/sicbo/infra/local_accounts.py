"""The floor's NATS accounts on a local nats-server (``sicbo run``): what production enforces.

The configuration is rendered from :mod:`sicbo.infra.nats_accounts` by
:func:`sicbo.infra.nats_config.conf_text` (the same text as ``deploy/nats/accounts.conf``),
behind a throwaway password per user: ``secrets.token_urlsafe``, new at every start, each in
its own file ``<data>/secrets/<user>.password`` (the folder 0700, the files 0600). The folder
is the data folder's, reused by every run: its path stays what ``NATS_PASSWORD_FILE`` was
exported as in another terminal, while the passwords it holds live only as long as one run (the
previous run's stop being useless to anyone who read them).

A password is printed nowhere and never on a command line: the server reads them from its
environment (``$<USER>_PASSWORD`` in the configuration), every process it serves from its
password file (``NATS_USER`` / ``NATS_PASSWORD_FILE``, :mod:`sicbo.infra.nats_auth`).
"""

from __future__ import annotations

import os
import secrets
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sicbo.infra.nats_accounts import users
from sicbo.infra.nats_auth import PASSWORD_FILE_ENV, USER_ENV
from sicbo.infra.nats_config import conf_text
from sicbo_contracts.subjects import inbox

#: Beside the floor's data: the server's accounts and a password file per user (0600).
SECRETS, CONFIG = "secrets", "nats-accounts.conf"


@dataclass(frozen=True, slots=True)
class LocalAccounts:
    """The rendered configuration (``config``) and the password files (in ``secrets_dir``)
    of one run of the floor."""

    config: Path
    secrets_dir: Path

    def password_file(self, user: str) -> Path:
        if user not in users():
            raise KeyError(f"no NATS user {user!r} (sicbo.infra.nats_accounts)")
        return self.secrets_dir / f"{user}.password"

    def password(self, user: str) -> str:
        return self.password_file(user).read_text(encoding="utf-8").strip()

    def env_of(self, user: str) -> dict[str, str]:
        """A process's environment to connect as ``user`` (its password file, not the password)."""
        return {USER_ENV: user, PASSWORD_FILE_ENV: str(self.password_file(user))}

    def connect_options(self, user: str) -> dict[str, Any]:
        """``nats.connect`` keywords to connect as ``user`` in this process, replies on the
        user's own inbox (where a terminal's or the gateway's permissions let it read them)."""
        return {"user": user, "password": self.password(user), "inbox_prefix": inbox(user)}

    def server_env(self) -> dict[str, str]:
        """What the server reads: every ``<USER>_PASSWORD`` of the configuration."""
        return {u.password_env: self.password(u.name) for u in users().values()}


def write_secret(path: Path, text: str) -> None:
    """Readable by the user only, from its creation (no window with a wider mode)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)  # an older file keeps its mode through O_TRUNC
        os.write(fd, text.encode("utf-8"))
    finally:
        os.close(fd)


def new_password() -> str:
    """``secrets.token_urlsafe``, behind a letter: the server parses a variable's value as a
    configuration value, and one starting with a digit or ``-`` as a number (it then refuses
    to start, "Expected a digit")."""
    return secrets.choice(string.ascii_letters) + secrets.token_urlsafe(32)


def create(data_dir: Path) -> LocalAccounts:
    """A new password for every user of every account, and the configuration that names them."""
    data_dir.mkdir(parents=True, exist_ok=True)
    secrets_dir = data_dir / SECRETS
    secrets_dir.mkdir(mode=0o700, exist_ok=True)
    secrets_dir.chmod(0o700)
    accounts = LocalAccounts(data_dir / CONFIG, secrets_dir)
    for user in users():
        write_secret(accounts.password_file(user), new_password() + "\n")
    accounts.config.write_text("jetstream: enabled\n" + conf_text(), encoding="utf-8")
    return accounts
