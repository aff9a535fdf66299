"""The demo operator of ``make run``: a key pair made at every start, so a person can be
launched into the floor by a real launch token (``sicbo launch-token``).

The private key goes beside the NATS passwords, in ``<data>/secrets/launch-demo.key`` (0600,
new each run: a token of an earlier run no longer verifies); the floor's list of launch
operators, ``<data>/launch-operators.toml``, holds the public key only. A real operator keeps
its private key to itself and registers the public one (docs/launch.md).
"""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
    load_pem_private_key,
)

from sicbo.infra.local_accounts import SECRETS, write_secret

DEMO_OPERATOR = "demo"
DEMO_AUDIENCE = "sicbo:demo-floor"
DEMO_CURRENCY = "EUR"
OPERATORS_FILE = "launch-operators.toml"


def key_file(data_dir: Path, operator: str = DEMO_OPERATOR) -> Path:
    return data_dir / SECRETS / f"launch-{operator}.key"


def operators_toml(audience: str, operator: str, public_pem: str) -> str:
    return (
        "# DEMO launch operators of `make run`: the key pair is made at each start; the"
        " private key\n# is in secrets/, never in the repository. Not a floor's list.\n"
        f'audience = "{audience}"\n\n[[operator]]\nid = "{operator}"\nalgorithm = "EdDSA"\n'
        f'public_key = """\n{public_pem}"""\n'
    )


def create_demo_launch(data_dir: Path) -> Path:
    """A new demo key pair: the private key in its secret file, the public one in the
    launch operators' list, whose path this returns (for ``--launch-operators``)."""
    (data_dir / SECRETS).mkdir(mode=0o700, parents=True, exist_ok=True)
    key = Ed25519PrivateKey.generate()
    private_pem = key.private_bytes(Encoding.PEM, PrivateFormat.PKCS8, NoEncryption())
    write_secret(key_file(data_dir), private_pem.decode())
    public_pem = key.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    listing = data_dir / OPERATORS_FILE
    listing.write_text(
        operators_toml(DEMO_AUDIENCE, DEMO_OPERATOR, public_pem.decode()), encoding="utf-8"
    )
    return listing


def load_private_key(path: Path) -> Ed25519PrivateKey:
    key = load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, Ed25519PrivateKey):
        raise ValueError(f"{path}: not an Ed25519 private key")
    return key
