"""Operator launch tokens checked (pure: the token, the operators and the time come in as
arguments; docs/launch.md is the operators' side of it).

A launch token is a JWT (RFC 7519, PyJWT) signed by the player's operator: ``iss`` the
operator, ``sub`` its player, ``aud`` this floor, ``currency``, ``iat``, ``exp`` (at most
:data:`MAX_LIFETIME_SECONDS` after ``iat``) and ``jti`` (its one use: :mod:`sicbo.gateway.
launch_once` remembers it). The order of the checks: the token's form, its issuer among the
floor's launch operators, its ``alg`` that operator's (pinned, so neither ``none`` nor an
HS256 token keyed with a public key passes), its signature by that operator's key, and only
then its claims. Each refusal names what is wrong.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import jwt

from sicbo.gateway.launch_operators import LaunchOperator

#: A launch token is good for at most this long from its issue (the operator opens the game
#: at once: a token seen later, in a log or a history, is worth nothing).
MAX_LIFETIME_SECONDS = 300
#: Clocks of the operator and the floor may differ by this much.
LEEWAY_SECONDS = 30
MAX_TOKEN_CHARS = 4096
#: The latest time a claim may name (2100-01-01): a NumericDate past it is no date of a launch.
MAX_NUMERIC_DATE = 4_102_444_800
REQUIRED = ("iss", "sub", "aud", "currency", "iat", "exp", "jti")
#: The operator's player id; the floor's is ``<operator>:<sub>`` (at most 64 characters).
PLAYER_REF = re.compile(r"[A-Za-z0-9_.@-]{1,47}")
CURRENCY = re.compile(r"[A-Z]{3}")  # ISO 4217
JTI = re.compile(r"[A-Za-z0-9_.:@-]{8,128}")
#: Everything but the signature is checked here, with the time given.
_SIGNATURE_ONLY: Any = {
    "verify_signature": True,
    **{f"verify_{claim}": False for claim in ("exp", "nbf", "iat", "aud", "iss", "sub", "jti")},
}


class LaunchRefused(Exception):
    """A launch token refused: the HTTP status, a stable code, the reason, the claim."""

    def __init__(self, status: int, code: str, reason: str, field: str) -> None:
        super().__init__(reason)
        self.status, self.code, self.reason, self.field = status, code, reason, field


@dataclass(frozen=True, slots=True)
class Launch:
    """A verified launch: who the player is on the floor, in which currency, until when."""

    operator: str
    player_ref: str  # the operator's id of the player (``sub``)
    currency: str
    jti: str
    expires: float

    @property
    def player(self) -> str:
        """The player's id on the floor: the operator's id of them, under the operator's name
        (two operators' players named alike are two players)."""
        return f"{self.operator}:{self.player_ref}"


def verify_launch(
    token: object, operators: Mapping[str, LaunchOperator], audience: str, now: float
) -> Launch:
    """The launch ``token`` stands for at ``now``; :class:`LaunchRefused` otherwise."""
    if not isinstance(token, str) or not token:
        raise _malformed("token: the launch token (a JWT, as a string)")
    if len(token) > MAX_TOKEN_CHARS:
        raise _malformed(f"token: over {MAX_TOKEN_CHARS} characters")
    try:
        header = jwt.get_unverified_header(token)
        unverified = jwt.decode(token, options={"verify_signature": False})
    except jwt.PyJWTError as err:  # not three parts, bad base64, not UTF-8, not JSON
        raise _malformed(f"token: not a JWT ({err})") from None
    operator = _issuer(unverified.get("iss"), operators)
    alg = header.get("alg")
    if alg != operator.algorithm:
        raise LaunchRefused(
            401,
            "algorithm",
            f"alg: {alg!r} is not what operator {operator.id} signs with ({operator.algorithm})",
            "alg",
        )
    try:
        claims = jwt.decode(
            token, operator.key, algorithms=[operator.algorithm], options=_SIGNATURE_ONLY
        )
    except jwt.InvalidSignatureError:
        raise LaunchRefused(
            401, "bad-signature", f"token: not signed by operator {operator.id}'s key", "token"
        ) from None
    except jwt.PyJWTError as err:
        raise _malformed(f"token: {err}") from None
    return _launch(claims, operator.id, audience, now)


def _issuer(iss: object, operators: Mapping[str, LaunchOperator]) -> LaunchOperator:
    if iss is None:
        raise LaunchRefused(400, "missing-claim", "iss: the operator's id is missing", "iss")
    operator = operators.get(iss) if isinstance(iss, str) else None
    if operator is None:
        raise LaunchRefused(
            401, "unknown-operator", f"iss: {iss!r} is no operator of this floor", "iss"
        )
    return operator


def _launch(claims: dict[str, Any], operator: str, audience: str, now: float) -> Launch:
    for claim in REQUIRED:
        if claims.get(claim) is None:
            raise LaunchRefused(400, "missing-claim", f"{claim}: missing", claim)
    aud = claims["aud"]
    audiences = [aud] if isinstance(aud, str) else aud
    if not isinstance(audiences, list) or audience not in audiences:
        raise LaunchRefused(
            401, "wrong-audience", f"aud: {aud!r} does not name this floor ({audience})", "aud"
        )
    iat, exp = _time(claims, "iat"), _time(claims, "exp")
    if iat > now + LEEWAY_SECONDS:
        raise LaunchRefused(401, "not-yet-valid", "iat: issued in the future", "iat")
    if "nbf" in claims and _time(claims, "nbf") > now + LEEWAY_SECONDS:
        raise LaunchRefused(401, "not-yet-valid", "nbf: not valid yet", "nbf")
    if exp <= iat:
        raise _invalid("exp", "exp: must come after iat")
    if exp - iat > MAX_LIFETIME_SECONDS:
        raise LaunchRefused(
            401,
            "lifetime-too-long",
            f"exp: {exp - iat:.0f} s after iat, over the {MAX_LIFETIME_SECONDS} s a launch"
            " token may live",
            "exp",
        )
    if now > exp + LEEWAY_SECONDS:
        raise LaunchRefused(401, "expired", f"exp: expired {now - exp:.0f} s ago", "exp")
    sub, currency, jti = claims["sub"], claims["currency"], claims["jti"]
    if not isinstance(sub, str) or not PLAYER_REF.fullmatch(sub):
        raise _invalid("sub", "sub: the player's id, 1-47 of A-Z a-z 0-9 _ . @ -")
    if not isinstance(currency, str) or not CURRENCY.fullmatch(currency):
        raise _invalid("currency", "currency: an ISO 4217 code of three capitals, e.g. EUR")
    if not isinstance(jti, str) or not JTI.fullmatch(jti):
        raise _invalid("jti", "jti: the token's id, 8-128 of A-Z a-z 0-9 _ . : @ -")
    return Launch(operator=operator, player_ref=sub, currency=currency, jti=jti, expires=exp)


def _time(claims: dict[str, Any], claim: str) -> float:
    value = claims[claim]
    # JSON as PyJWT reads it lets NaN, Infinity and integers of any length through: a NaN
    # ``exp`` compares false with everything (a token never expiring), a huge one overflows.
    if (
        isinstance(value, bool)
        or not isinstance(value, int | float)
        or not 0 <= value <= MAX_NUMERIC_DATE
    ):
        raise _invalid(claim, f"{claim}: a NumericDate (seconds since 1970, before 2100)")
    return float(value)


def _malformed(reason: str) -> LaunchRefused:
    return LaunchRefused(400, "malformed", reason, "token")


def _invalid(claim: str, reason: str) -> LaunchRefused:
    return LaunchRefused(400, "invalid-claim", reason, claim)
