"""Operator launch tokens checked (``sicbo.gateway.launch_tokens``, pure: the time is given).
A token is accepted only signed by its issuer's key with that issuer's algorithm, for this
floor, short-lived and not expired, with every claim; each refusal names the claim."""

from __future__ import annotations

import json
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from sicbo.gateway.launch_operators import LaunchConfig, parse_launch_operators
from sicbo.gateway.launch_tokens import (
    LEEWAY_SECONDS,
    MAX_LIFETIME_SECONDS,
    REQUIRED,
    Launch,
    LaunchRefused,
    verify_launch,
)
from tests.support.launch import (
    AUDIENCE,
    HS_OPERATOR,
    HS_SECRET,
    OPERATOR,
    Issuers,
    b64,
    handmade,
    public_pem,
    write_operators,
)

NOW = 1_800_000_000.0
EDDSA_HEADER = b64(json.dumps({"alg": "EdDSA"}).encode())


@pytest.fixture(scope="module")
def ops(tmp_path_factory: pytest.TempPathFactory) -> Issuers:
    return write_operators(tmp_path_factory.mktemp("launch"))


@pytest.fixture(scope="module")
def config(ops: Issuers) -> LaunchConfig:
    return parse_launch_operators(ops.listing.read_text(), ops.listing.parent)


def verify(config: LaunchConfig, token: object, now: float = NOW) -> Launch:
    return verify_launch(token, config.operators, config.audience, now)


def refused(config: LaunchConfig, token: object, now: float = NOW) -> LaunchRefused:
    with pytest.raises(LaunchRefused) as caught:
        verify(config, token, now)
    return caught.value


def claims(**changes: Any) -> dict[str, Any]:
    base = {
        "iss": OPERATOR,
        "sub": "p-1",
        "aud": AUDIENCE,
        "currency": "EUR",
        "iat": int(NOW),
        "exp": int(NOW) + 120,
        "jti": "jti-0123456789",
    }
    return {k: v for k, v in {**base, **changes}.items() if v is not None}


def signed(ops: Issuers, body: dict[str, Any]) -> str:
    """``body`` as acme's EdDSA token, whatever claims it has or lacks."""
    return jwt.encode(body, ops.key, algorithm="EdDSA")


def test_a_token_of_a_launch_operator_is_its_player_in_its_currency(
    ops: Issuers, config: LaunchConfig
) -> None:
    launch = verify(config, ops.token("p-1", now=NOW, jti="jti-0123456789", currency="GBP"))
    assert launch == Launch(
        operator=OPERATOR,
        player_ref="p-1",
        currency="GBP",
        jti="jti-0123456789",
        expires=NOW + 120,
    )
    assert launch.player == "acme:p-1"  # two operators' "p-1" are two players


def test_an_hs256_operator_signs_with_its_shared_secret(ops: Issuers, config: LaunchConfig) -> None:
    token = ops.token("p-2", now=NOW, operator=HS_OPERATOR, key=HS_SECRET)
    assert verify(config, token).player == "hsop:p-2"


def test_expired_after_the_leeway_not_before(ops: Issuers, config: LaunchConfig) -> None:
    token = ops.token("p-1", now=NOW)  # exp: NOW + 120
    assert verify(config, token, now=NOW + 120 + LEEWAY_SECONDS).player == "acme:p-1"
    err = refused(config, token, now=NOW + 121 + LEEWAY_SECONDS)
    assert (err.status, err.code, err.field) == (401, "expired", "exp")


def test_a_lifetime_over_the_cap_is_refused(ops: Issuers, config: LaunchConfig) -> None:
    assert verify(config, ops.token("p-1", now=NOW, lifetime=MAX_LIFETIME_SECONDS))
    err = refused(config, ops.token("p-1", now=NOW, lifetime=MAX_LIFETIME_SECONDS + 1))
    assert (err.status, err.code, err.field) == (401, "lifetime-too-long", "exp")
    assert f"{MAX_LIFETIME_SECONDS} s" in err.reason


def test_issued_in_the_future_is_refused(ops: Issuers, config: LaunchConfig) -> None:
    err = refused(config, ops.token("p-1", now=NOW + LEEWAY_SECONDS + 5))
    assert (err.status, err.code, err.field) == (401, "not-yet-valid", "iat")


def test_a_signature_by_another_key_is_refused(ops: Issuers, config: LaunchConfig) -> None:
    forged = ops.token("p-1", now=NOW, key=Ed25519PrivateKey.generate())
    err = refused(config, forged)
    assert (err.status, err.code, err.field) == (401, "bad-signature", "token")
    # A real token whose payload was changed (another player) no longer verifies either.
    header, _, signature = ops.token("p-1", now=NOW).split(".")
    other = b64(json.dumps(claims(sub="p-9")).encode())
    assert refused(config, f"{header}.{other}.{signature}").code == "bad-signature"


def test_an_unknown_or_foreign_operator_is_refused(ops: Issuers, config: LaunchConfig) -> None:
    err = refused(config, ops.token("p-1", now=NOW, operator="nobody"))
    assert (err.status, err.code, err.field) == (401, "unknown-operator", "iss")
    # acme's key does not sign for hsop (nor would hsop's secret for acme).
    err = refused(config, signed(ops, claims(iss=HS_OPERATOR)))
    assert (err.status, err.code, err.field) == (401, "algorithm", "alg")
    err = refused(config, handmade({"alg": "HS256"}, claims(iss=HS_OPERATOR), b"x" * 40))
    assert (err.status, err.code) == (401, "bad-signature")


def test_another_floors_audience_is_refused(ops: Issuers, config: LaunchConfig) -> None:
    err = refused(config, ops.token("p-1", now=NOW, audience="sicbo:other-floor"))
    assert (err.status, err.code, err.field) == (401, "wrong-audience", "aud")
    both = signed(ops, claims(aud=["sicbo:other-floor", AUDIENCE]))
    assert verify(config, both).player == "acme:p-1"


@pytest.mark.parametrize("claim", REQUIRED)
def test_every_claim_is_required(ops: Issuers, config: LaunchConfig, claim: str) -> None:
    err = refused(config, signed(ops, claims(**{claim: None})))
    assert (err.status, err.code, err.field) == (400, "missing-claim", claim)


def test_alg_none_and_alg_confusion_are_refused(ops: Issuers, config: LaunchConfig) -> None:
    unsigned = handmade({"alg": "none", "typ": "JWT"}, claims(), None)
    err = refused(config, unsigned)
    assert (err.status, err.code, err.field) == (401, "algorithm", "alg")
    # HS256 "signed" with acme's public key as the secret: the classic confusion.
    confused = handmade({"alg": "HS256"}, claims(), public_pem(ops.key).encode())
    assert refused(config, confused).code == "algorithm"
    # An HS256 operator's tokens are not taken as EdDSA either.
    eddsa = ops.token("p-1", now=NOW, operator=HS_OPERATOR)
    assert refused(config, eddsa).code == "algorithm"


@pytest.mark.parametrize(
    "token",
    [
        "",
        123,
        None,
        "not-a-jwt",
        "a.b.c",  # not base64 JSON
        f"{b64(b'{}')}.{b64(bytes([0xFF, 0xFE]))}.{b64(b'sig')}",  # payload not UTF-8
        f"{b64(bytes([0xC3, 0x28]))}.{b64(b'{}')}.{b64(b'sig')}",  # header not UTF-8
        f"{EDDSA_HEADER}.{b64(b'[1,2]')}.{b64(b'sig')}",  # payload no object
        "é.é.é",
        "x" * 5000,
    ],
)
def test_malformed_tokens_are_refused(config: LaunchConfig, token: object) -> None:
    err = refused(config, token)
    assert (err.status, err.code, err.field) == (400, "malformed", "token")


@pytest.mark.parametrize(
    ("change", "claim"),
    [
        ({"sub": "acme:p-1"}, "sub"),  # no ':' (the floor's ids are operator:player)
        ({"sub": "p" * 48}, "sub"),
        ({"currency": "eur"}, "currency"),
        ({"jti": "short"}, "jti"),
        ({"jti": 12345678}, "jti"),
        ({"exp": "soon"}, "exp"),
        ({"iat": True}, "iat"),
        ({"exp": int(NOW) - 1}, "exp"),  # before iat
    ],
)
def test_claims_of_the_wrong_form_are_refused(
    ops: Issuers, config: LaunchConfig, change: dict[str, Any], claim: str
) -> None:
    err = refused(config, signed(ops, claims(**change)))
    assert (err.status, err.code, err.field) == (400, "invalid-claim", claim)


def test_the_claim_checks_come_after_the_signature(config: LaunchConfig) -> None:
    """A forger learns nothing of the claim rules: an unsigned token with bad claims is
    refused for its signature."""
    forged = handmade({"alg": "EdDSA"}, claims(currency="eur"), b"not a signature")
    assert refused(config, forged).code == "bad-signature"


@pytest.mark.parametrize("claim", ["iat", "exp", "nbf"])
@pytest.mark.parametrize(
    "value", [float("nan"), float("inf"), 10**400, -1], ids=["nan", "inf", "huge", "negative"]
)
def test_a_signed_date_that_is_no_time_is_refused_by_name(
    ops: Issuers, config: LaunchConfig, claim: str, value: float
) -> None:
    """JSON as a JWT library reads it carries NaN, Infinity and integers of any length: a
    NaN ``exp`` compared false with every time (a token that never expired, and a 500 where
    its use was remembered), a huge one overflowed to a 500."""
    err = refused(config, signed(ops, claims(**{claim: value})))
    assert (err.status, err.code, err.field) == (400, "invalid-claim", claim)
