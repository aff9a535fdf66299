"""TLS to NATS from the environment: the CA that issued the server's certificate, and for
mutual TLS the client's own certificate and key.

``NATS_CA_FILE`` names a PEM file of the CA (cert-manager's ``ca.crt``); only that CA is
trusted, not the system's store, so a certificate bought elsewhere for the same name is
refused. ``NATS_CERT_FILE`` and ``NATS_KEY_FILE`` (both or neither) name the client's
certificate and key, for a server that verifies clients (``verify: true``). TLS is on when
``NATS_CA_FILE`` or a client certificate is set, or when the URL says ``tls://`` (then, without
``NATS_CA_FILE``, the system's trust store verifies the server). Verification is always on:
the certificate must chain to the CA and name the host connected to (an IP address must be
in its subject alternative names); there is no switch to turn it off.

The handshake comes first (nats-py's ``tls_handshake_first``), before the server's INFO: a
client that waits for INFO and then upgrades takes the server's word that TLS is wanted,
and nats-py (unlike the Go client) sends its user and password in clear text to a server,
or a man in the middle, whose INFO says no TLS. The floor's servers accept both orders
(``handshake_first`` with a fallback delay, :mod:`sicbo.infra.nats_server_tls`), so partners'
clients that upgrade after INFO still connect.
"""

from __future__ import annotations

import os
import ssl
from pathlib import Path
from typing import Any

CA_FILE_ENV = "NATS_CA_FILE"
CERT_FILE_ENV = "NATS_CERT_FILE"
KEY_FILE_ENV = "NATS_KEY_FILE"


class NatsTlsError(ValueError):
    """A TLS setting of the environment that cannot be used: which variable, and why."""


def _schemes(url: str | None) -> set[str]:
    if url is None:
        return set()
    listed = [u.strip() for u in url.split(",") if u.strip()]
    # A bare host:port is nats-py's nats://; urlsplit would read "localhost:4222" as a scheme.
    return {u.partition("://")[0].lower() if "://" in u else "nats" for u in listed}


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name, "").strip()
    return Path(value) if value else None


def _readable(name: str, path: Path, what: str) -> None:
    """Fail at start, naming the variable, rather than at the first handshake."""
    try:
        with path.open("rb") as handle:
            handle.read(1)
    except FileNotFoundError:
        raise NatsTlsError(f"{name}={path}: no such file ({what})") from None
    except IsADirectoryError:
        raise NatsTlsError(f"{name}={path}: a directory, not a file ({what})") from None
    except PermissionError:
        raise NatsTlsError(f"{name}={path}: not readable by this process ({what})") from None
    except OSError as exc:
        raise NatsTlsError(f"{name}={path}: cannot be read: {exc.strerror} ({what})") from None


def wants_tls(url: str | None = None) -> bool:
    """Whether a client of ``url`` connects over TLS (see the module's docstring)."""
    return "tls" in _schemes(url) or any(
        _env_path(name) is not None for name in (CA_FILE_ENV, CERT_FILE_ENV, KEY_FILE_ENV)
    )


def client_context(url: str | None = None) -> ssl.SSLContext | None:
    """The ``ssl.SSLContext`` for nats-py's ``tls=``, or None when TLS is not wanted."""
    schemes = _schemes(url)
    if "tls" in schemes and schemes - {"tls"}:
        raise NatsTlsError(
            f"NATS URL mixes tls:// with {', '.join(sorted(schemes - {'tls'}))}://: "
            "every server of one floor speaks TLS, or none"
        )
    if not wants_tls(url):
        return None
    ca_file = _env_path(CA_FILE_ENV)
    cert_file, key_file = _env_path(CERT_FILE_ENV), _env_path(KEY_FILE_ENV)
    if (cert_file is None) != (key_file is None):
        raise NatsTlsError(f"set both {CERT_FILE_ENV} and {KEY_FILE_ENV}, or neither")
    ca_pem = None
    if ca_file is not None:
        what = "the PEM certificate of the CA that issued the NATS server's certificate"
        _readable(CA_FILE_ENV, ca_file, what)
        ca_pem = _ca_pem(ca_file)
    # A client context: the chain and the host name checked (CERT_REQUIRED). Given a CA, it
    # trusts only that one; without, the system's store.
    try:
        context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cadata=ca_pem)
    except ssl.SSLError as exc:  # PEM markers around something that is no certificate
        raise NatsTlsError(
            f"{CA_FILE_ENV}={ca_file}: not a valid PEM certificate ({exc.reason or exc})"
        ) from None
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    if cert_file is not None and key_file is not None:
        _readable(CERT_FILE_ENV, cert_file, "this client's PEM certificate")
        _readable(KEY_FILE_ENV, key_file, "this client's PEM private key")
        try:
            context.load_cert_chain(certfile=cert_file, keyfile=key_file)
        except ssl.SSLError as exc:
            raise NatsTlsError(
                f"{CERT_FILE_ENV}={cert_file}, {KEY_FILE_ENV}={key_file}: not a PEM "
                f"certificate and its private key ({exc.reason or exc})"
            ) from None
    return context


def _ca_pem(path: Path) -> str:
    """The file's text, if it holds a PEM certificate (a CA's key or a DER file does not)."""
    text = path.read_bytes().decode("ascii", errors="replace")
    if "-----BEGIN CERTIFICATE-----" not in text:
        raise NatsTlsError(
            f"{CA_FILE_ENV}={path}: no PEM certificate in it (expected "
            "'-----BEGIN CERTIFICATE-----', the CA's certificate, never its key)"
        )
    return text


def tls_options(url: str | None = None) -> dict[str, Any]:
    """``nats.connect`` keywords: ``tls`` and ``tls_handshake_first``, or none."""
    context = client_context(url)
    return {} if context is None else {"tls": context, "tls_handshake_first": True}
