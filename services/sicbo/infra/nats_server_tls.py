"""The NATS server's TLS for clients: one source for ``deploy/nats/tls.conf`` (included by
``deploy/nats/floor-tls.conf``), the Helm values that turn TLS on
(``deploy/nats-helm/values-tls.yaml``) and the tests' servers (``LocalNatsServer(tls=...)``).

Every client must speak TLS (``tls_required``). The server waits :data:`HANDSHAKE_FALLBACK` for
a client that starts the handshake at once (the floor's own, :mod:`sicbo.infra.nats_tls`: it
never reads an INFO in clear text, so nothing can talk it out of TLS), then sends INFO to a
client that upgrades after it (most partners' libraries by default). A client that stays in
clear text is dropped at its first bytes. ``verify`` asks every client for a certificate
issued by ``ca_file`` as well (mutual TLS).

``python -m sicbo.infra.nats_config write`` (``make nats-config``) writes the generated files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HEADER = "# Generated from services/sicbo/infra/nats_server_tls.py (make nats-config): do not edit."
CONF = Path("deploy/nats/tls.conf")
HELM_VALUES = Path("deploy/nats-helm/values-tls.yaml")
#: How long the server waits for a client's TLS handshake before it sends INFO in clear.
HANDSHAKE_FALLBACK_MS = 300
#: The whole TLS handshake must be done within this (nats-server's ``timeout``, seconds).
HANDSHAKE_TIMEOUT_S = 2
#: Where a server started from floor-tls.conf finds its certificate and key (absolute paths).
CERT_FILE_ENV, KEY_FILE_ENV = "NATS_TLS_CERT_FILE", "NATS_TLS_KEY_FILE"
#: The chart's Secrets (cert-manager Certificates): the client port's and the routes'.
SERVER_SECRET, CLUSTER_SECRET = "nats-server-tls", "nats-cluster-tls"


class Variable(str):
    """A value the server reads from its environment: written ``$NAME``, unquoted."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class ServerTls:
    """The server's certificate and key; with ``verify``, clients' certificates are required
    and checked against ``ca_file``."""

    cert_file: str
    key_file: str
    ca_file: str | None = None
    verify: bool = False

    def __post_init__(self) -> None:
        if self.verify and self.ca_file is None:
            raise ValueError("verify (mutual TLS) needs ca_file: the CA of the clients' certs")

    def block(self) -> dict[str, Any]:
        """The ``tls`` map of the server's configuration."""
        block: dict[str, Any] = {"cert_file": self.cert_file, "key_file": self.key_file}
        if self.ca_file is not None:
            block["ca_file"] = self.ca_file
        if self.verify:
            block["verify"] = True
        return block | common()

    def conf_text(self) -> str:
        lines = [f"  {key}: {_conf_value(value)}" for key, value in self.block().items()]
        return "tls {\n" + "\n".join(lines) + "\n}\n"


def common() -> dict[str, Any]:
    """What every TLS listener of the floor sets besides its files."""
    return {"handshake_first": f"{HANDSHAKE_FALLBACK_MS}ms", "timeout": HANDSHAKE_TIMEOUT_S}


def _conf_value(value: Any) -> str:
    if isinstance(value, Variable):
        return f"${value}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value))


#: deploy/nats/tls.conf: the files named by the server's environment.
DEPLOYED = ServerTls(cert_file=Variable(CERT_FILE_ENV), key_file=Variable(KEY_FILE_ENV))


def conf_text() -> str:
    """``deploy/nats/tls.conf``."""
    return "\n".join(
        [
            HEADER,
            '# TLS for every client (deploy/nats/README.md, "TLS"): the certificate and key',
            f"# named by ${CERT_FILE_ENV} and ${KEY_FILE_ENV}, absolute paths in the",
            "# server's environment. Included by floor-tls.conf.",
            DEPLOYED.conf_text(),
        ]
    )


def helm_values() -> dict[str, Any]:
    """``values-tls.yaml``: the client port and the routes over TLS, the certificates from
    cert-manager's Secrets (``tls.crt``, ``tls.key``, ``ca.crt``), mounted by the chart."""
    return {
        "config": {
            "nats": {"tls": {"enabled": True, "secretName": SERVER_SECRET, "merge": common()}},
            # Routes always verify both ends (nats-server): only a pod holding a certificate
            # of the CA joins the cluster.
            "cluster": {"tls": {"enabled": True, "secretName": CLUSTER_SECRET}},
        },
        # ca_file in every tls block: the CA that verifies the routes (and, with verify, the
        # clients). Only the CA's certificate (ca.crt) of the server's Secret, never a key.
        "tlsCA": {"enabled": True, "secretName": SERVER_SECRET, "key": "ca.crt"},
    }
