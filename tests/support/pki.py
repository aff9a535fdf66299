"""Certificates made for a test with trustme: a CA, a server certificate for 127.0.0.1 and
localhost, a client certificate, and an unrelated CA (tests/integration/test_tls.py)."""

from __future__ import annotations

import ssl
from dataclasses import dataclass
from pathlib import Path

import trustme

from sicbo.infra.nats_server import HOST


@dataclass(frozen=True)
class Pki:
    """PEM files: the floor's CA, the server's certificate and key, a client's, and the
    certificate of a CA that has nothing to do with the floor."""

    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path
    other_ca: Path


def make_pki(directory: Path) -> Pki:
    ca = trustme.CA()
    server = ca.issue_cert(HOST, "localhost")
    client = ca.issue_cert("sicbo-lifecycle")
    files = Pki(*(directory / f"{n}.pem" for n in ("ca", "sc", "sk", "cc", "ck", "other")))
    ca.cert_pem.write_to_path(files.ca)
    server.cert_chain_pems[0].write_to_path(files.server_cert)
    server.private_key_pem.write_to_path(files.server_key)
    client.cert_chain_pems[0].write_to_path(files.client_cert)
    client.private_key_pem.write_to_path(files.client_key)
    trustme.CA().cert_pem.write_to_path(files.other_ca)
    return files


def trusting(ca: Path) -> ssl.SSLContext:
    """A client context that trusts ``ca`` only (verification on)."""
    return ssl.create_default_context(cafile=str(ca))
