"""NATS credentials from the environment: a user name and a password file (a mounted Secret).

``NATS_USER`` names the user (a user of the FLOOR account, deploy/nats: each service its own,
``floor`` for the tooling) and ``NATS_PASSWORD_FILE`` the file holding its password; both or
neither. The file is read again on every (re)connect (nats-py calls a callable password each
time), so a rotated Secret is used by the next reconnection without a restart: update the
Secret, wait for the kubelet to refresh the file, then let the servers take the new password,
which disconnects the clients still on the old one (docs/runbook.md). Neither set: no
credentials (a local server). A URL that carries its own ``user:password@`` (``--nats``) wins:
nats-py would otherwise send the environment's user, so an operator in a pod can still connect
as another user.

TLS (``NATS_CA_FILE``, ``NATS_CERT_FILE`` / ``NATS_KEY_FILE``, ``tls://`` URLs) comes with the
same options, :mod:`sicbo.infra.nats_tls`: every client of the floor connects through
:func:`connect_options` or :func:`broker_security`.

A results-feed partner has no user name nor password but an nkey (deploy/nats/README.md,
"Partners"): ``NATS_NKEY`` names the file holding its seed (the variable the ``nats`` CLI
reads for ``--nkey``), exclusive of the two above.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

from faststream.nats import NatsSecurity, NatsUserPassword

from sicbo.infra.nats_tls import client_context, tls_options
from sicbo_contracts.subjects import inbox

USER_ENV = "NATS_USER"
PASSWORD_FILE_ENV = "NATS_PASSWORD_FILE"
NKEY_ENV = "NATS_NKEY"


@dataclass(frozen=True, slots=True)
class NatsAuth:
    user: str
    password_file: Path

    def password(self) -> str:
        """The password as the file says now (a trailing newline is not part of it)."""
        return self.password_file.read_text(encoding="utf-8").rstrip("\r\n")


def from_env(url: str | None = None) -> NatsAuth | None:
    """The credentials of the environment, unless ``url`` (comma-separated servers) names its
    own user or token."""
    if url is not None and any(urlsplit(u.strip()).username for u in url.split(",")):
        return None
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


def nkey_seed_file(url: str | None = None) -> Path | None:
    """The seed file of ``NATS_NKEY``, unless ``url`` names its own user or token."""
    if url is not None and any(urlsplit(u.strip()).username for u in url.split(",")):
        return None
    seed = os.environ.get(NKEY_ENV, "").strip()
    if not seed:
        return None
    if os.environ.get(USER_ENV, "").strip() or os.environ.get(PASSWORD_FILE_ENV, "").strip():
        raise ValueError(f"set {NKEY_ENV} or {USER_ENV}/{PASSWORD_FILE_ENV}, not both")
    if not Path(seed).is_file():
        raise ValueError(f"{NKEY_ENV}={seed}: no such file (the seed `sicbo partners add` wrote)")
    return Path(seed)


def connect_options(url: str | None = None) -> dict[str, Any]:
    """Keyword arguments for ``nats.connect(url, ...)``: the credentials and TLS, if any."""
    seed = nkey_seed_file(url)
    if seed is not None:  # read again at each (re)connect by nats-py
        return {"nkeys_seed": str(seed), **tls_options(url)}
    auth = from_env(url)
    credentials = {} if auth is None else {"user": auth.user, "password": auth.password}
    return {**credentials, **tls_options(url)}


def user_of(url: str | None = None) -> str | None:
    """The NATS user a client of ``url`` connects as: the URL's own ``user:password@`` (the
    first server naming one), else ``NATS_USER``; None when neither (a bare token in a URL
    is no user name)."""
    if url is not None:
        for server in url.split(","):
            parts = urlsplit(server.strip())
            if parts.username:
                return parts.username if parts.password is not None else None
    auth = from_env(url)
    return None if auth is None else auth.user


def inbox_options(url: str | None = None) -> dict[str, Any]:
    """``inbox_prefix`` for ``nats.connect``: the user's own inbox (``_INBOX.<user>``), where a
    terminal's, a reader's or the gateway's permissions let it read replies (deploy/nats)."""
    user = user_of(url)
    return {} if user is None else {"inbox_prefix": inbox(user)}


def broker_security(url: str | None = None) -> NatsSecurity | None:
    """The same credentials and TLS for a FastStream ``NatsBroker(url, security=...)``."""
    auth = from_env(url)
    context = client_context(url)
    tls: dict[str, Any] = (
        {} if context is None else {"ssl_context": context, "tls_handshake_first": True}
    )
    if auth is None:
        return None if context is None else NatsSecurity(**tls)
    # FastStream hands ``password`` to nats.connect unchanged, and nats-py calls a callable
    # password on every (re)connect; FastStream's annotation only says ``str``.
    return NatsUserPassword(auth.user, cast(str, auth.password), **tls)
