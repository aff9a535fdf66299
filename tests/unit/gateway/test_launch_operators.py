"""The floor's launch operators (``sicbo.gateway.launch_operators``): each with its id, its
pinned algorithm and its key; a malformed list names the entry and the field; a shared secret
is never inline, never shown. The demo operator of ``make run`` (sicbo.demo.launch_keys): a key
pair new at each start, the private key 0600 in secrets/, and its tokens verify."""

from __future__ import annotations

import re
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from sicbo.demo.launch_keys import (
    DEMO_AUDIENCE,
    DEMO_OPERATOR,
    create_demo_launch,
    key_file,
    load_private_key,
)
from sicbo.gateway.launch_mint import mint_launch_token
from sicbo.gateway.launch_operators import LaunchOperatorsError, parse_launch_operators
from sicbo.gateway.launch_tokens import verify_launch
from tests.support.launch import HS_SECRET, write_operators

NOW = 1_800_000_000.0


def parsed(text: str, folder: Path) -> None:
    parse_launch_operators(text, folder, "ops.toml")


def test_the_list_holds_each_operator_with_its_algorithm(tmp_path: Path) -> None:
    ops = write_operators(tmp_path)
    config = parse_launch_operators(ops.listing.read_text(), tmp_path)
    assert config.audience == "sicbo:test-floor"
    assert {o.id: o.algorithm for o in config.operators.values()} == {
        "acme": "EdDSA",
        "hsop": "HS256",
    }
    assert config.operators["hsop"].key == HS_SECRET
    assert HS_SECRET.decode() not in repr(config)  # a secret never reaches a log


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ('[[operator]]\nid = "a"\nalgorithm = "HS256"\nkey_file = "k"\n', "audience"),
        ('audience = "f"\n', "no [[operator]]"),
        ('audience = "f"\nextra = 1\n', "extra"),
        ('audience = "f"\n[[operator]]\nid = "a:b"\nalgorithm = "HS256"\nkey_file = "k"\n', "id"),
        (
            'audience = "f"\n[[operator]]\nid = "a"\nalgorithm = "RS256"\nkey_file = "k"\n',
            "algorithm",
        ),
        (
            'audience = "f"\n[[operator]]\nid = "a"\nalgorithm = "HS256"\npublic_key = "x"\n',
            "never in this list",
        ),
        ('audience = "f"\n[[operator]]\nid = "a"\nalgorithm = "HS256"\n', "exactly one"),
        (
            'audience = "f"\n[[operator]]\nid = "a"\nalgorithm = "HS256"\nkey_file = "short"\n',
            "32 bytes",
        ),
        (
            'audience = "f"\n[[operator]]\nid = "a"\nalgorithm = "HS256"\nkey_file = "none"\n',
            "key_file",
        ),
        ('audience = "f"\n[[operator]]\nid = "a"\nalgorithm = "EdDSA"\npublic_key = "x"\n', "PEM"),
        (
            'audience = "f"\n[[operator]]\nid = "a"\nalgorithm = "EdDSA"\nkey_file = "ec.pem"\n',
            "Ed25519",
        ),
        (
            'audience = "f"\n[[operator]]\nid = "a"\nalgorithm = "HS256"\nkey_file = "long"\n'
            '[[operator]]\nid = "a"\nalgorithm = "HS256"\nkey_file = "long"\n',
            "twice",
        ),
        ("audience = ", "not TOML"),
    ],
)
def test_a_malformed_list_names_what_is_wrong(tmp_path: Path, text: str, names: str) -> None:
    (tmp_path / "short").write_bytes(b"too short")
    (tmp_path / "long").write_bytes(HS_SECRET)
    ec_pem = (
        ec.generate_private_key(ec.SECP256R1())
        .public_key()
        .public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    )
    (tmp_path / "ec.pem").write_bytes(ec_pem)
    with pytest.raises(LaunchOperatorsError, match=re.escape(names)):
        parsed(text, tmp_path)


def test_the_demo_operator_has_a_fresh_key_pair_its_private_key_kept_0600(
    tmp_path: Path,
) -> None:
    listing = create_demo_launch(tmp_path)
    first = key_file(tmp_path).read_bytes()
    assert stat.S_IMODE(key_file(tmp_path).stat().st_mode) == 0o600
    assert b"PRIVATE KEY" not in listing.read_bytes()
    config = parse_launch_operators(listing.read_text(), tmp_path)
    assert config.audience == DEMO_AUDIENCE
    token = mint_launch_token(
        load_private_key(key_file(tmp_path)),
        operator=DEMO_OPERATOR,
        player="guest",
        currency="EUR",
        audience=DEMO_AUDIENCE,
        now=NOW,
        jti="jti-demo-0001",
    )
    assert verify_launch(token, config.operators, config.audience, NOW).player == "demo:guest"
    create_demo_launch(tmp_path)  # the next start: another pair
    assert key_file(tmp_path).read_bytes() != first
