"""NATS credentials from the environment: a user name and a password file (a mounted Secret).

``NATS_USER`` names the user (``floor`` in deploy/nats/floor.conf) and ``NATS_PASSWORD_FILE``
the file holding its password; both or neither. The file is read again on every (re)connect
(nats-py calls a callable password each time), so a rotated Secret is used by the next
reconnection without a restart: update the Secret, wait for the kubelet to refresh the file,
then reload the server, which disconnects the clients still on the old password
(docs/runbook.md). Neither set: no credentials (a local server, or a ``NATS_URL`` with
``user:password@``, which nats-py also reads).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from faststream.nats import NatsUserPassword

USER_ENV = "NATS_USER"
PASSWORD_FILE_ENV = "NATS_PASSWORD_FILE"


@dataclass(frozen=True, slots=True)
class NatsAuth:
    user: str
    password_file: Path

    def password(self) -> str:
        """The password as the file says now (a trailing newline is not part of it)."""
        return self.password_file.read_text(encoding="utf-8").rstrip("\r\n")


def from_env() -> NatsAuth | None:
    user = os.environ.get(USER_ENV, "").strip()
    password_file = os.environ.get(PASSWORD_FILE_ENV, "").strip()
    if not user and not password_file:
        return None
    if not user or not password_file:
        raise ValueError(f"set both {USER_ENV} and {PASSWORD_FILE_ENV}, or neither")
    auth = NatsAuth(user, Path(password_file))
    if not auth.password():  # unreadable or empty: fail at start, not at the first reconnect
        raise ValueError(f"{PASSWORD_FILE_ENV}={password_file}: the file is empty")
    return auth


def connect_options() -> dict[str, Any]:
    """Keyword arguments for ``nats.connect``: the credentials, if any."""
    auth = from_env()
    return {} if auth is None else {"user": auth.user, "password": auth.password}


def broker_security() -> NatsUserPassword | None:
    """The same credentials for a FastStream ``NatsBroker(security=...)``."""
    auth = from_env()
    if auth is None:
        return None
    # FastStream hands ``password`` to nats.connect unchanged, and nats-py calls a callable
    # password on every (re)connect; FastStream's annotation only says ``str``.
    return NatsUserPassword(auth.user, cast(str, auth.password))
