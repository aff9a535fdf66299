"""Launch operators for the tests: key pairs, the gateway's list of them, and tokens minted
as an operator would (sicbo.gateway.launch_mint), with the time and the token id given."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

from sicbo.gateway.launch_mint import mint_launch_token

AUDIENCE = "sicbo:test-floor"
OPERATOR = "acme"  # EdDSA
HS_OPERATOR = "hsop"  # HS256
HS_SECRET = b"a shared secret of the hsop operator, 32+ bytes long"


@dataclass(frozen=True)
class Issuers:
    key: Ed25519PrivateKey  # OPERATOR's private key
    listing: Path  # the gateway's --launch-operators file

    def token(self, player: str, *, now: float, jti: str | None = None, **overrides: Any) -> str:
        """A token of OPERATOR for ``player``; ``overrides`` go to mint_launch_token."""
        options: dict[str, Any] = {
            "operator": OPERATOR,
            "player": player,
            "currency": "EUR",
            "audience": AUDIENCE,
            "now": now,
            "jti": jti or f"jti-{uuid.uuid4().hex}",
            **overrides,
        }
        key = options.pop("key", self.key)
        return mint_launch_token(key, **options)

    def private_key_file(self, folder: Path) -> Path:
        """OPERATOR's private key in a PEM file (a demo gateway's --demo-launch-key)."""
        path = folder / f"launch-{OPERATOR}.key"
        pem = self.key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
        path.write_bytes(pem)
        return path


def public_pem(key: Ed25519PrivateKey) -> str:
    pem = key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    return pem.decode()


def write_operators(folder: Path) -> Issuers:
    """A list of two launch operators (acme: EdDSA, hsop: HS256 from its key file)."""
    key = Ed25519PrivateKey.generate()
    (folder / "hsop.key").write_bytes(HS_SECRET)
    listing = folder / "launch-operators.toml"
    listing.write_text(
        f'audience = "{AUDIENCE}"\n\n[[operator]]\nid = "{OPERATOR}"\nalgorithm = "EdDSA"\n'
        f'public_key = """\n{public_pem(key)}"""\n\n'
        f'[[operator]]\nid = "{HS_OPERATOR}"\nalgorithm = "HS256"\nkey_file = "hsop.key"\n',
        encoding="utf-8",
    )
    return Issuers(key, listing)


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def handmade(header: dict[str, Any], claims: dict[str, Any], secret: bytes | None) -> str:
    """A JWT made by hand, as a forger would: HS256-signed with ``secret`` (any bytes, a
    public key among them), or unsigned (``alg: none``) when None."""
    signing_input = f"{b64(json.dumps(header).encode())}.{b64(json.dumps(claims).encode())}"
    if secret is None:
        return signing_input + "."
    mac = hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return f"{signing_input}.{b64(mac)}"
