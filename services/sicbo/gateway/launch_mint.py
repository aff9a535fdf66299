"""An operator's side of a launch: a launch token minted (pure: the key, the time and the
token's id come in as arguments). The demo operator (``sicbo launch-token``) and the tests
mint with it; a real operator mints with its own JWT library (docs/launch.md)."""

from __future__ import annotations

import jwt
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

#: Long enough to open the game, well under the floor's cap (sicbo.gateway.launch_tokens).
DEFAULT_LIFETIME_SECONDS = 120


def mint_launch_token(
    key: Ed25519PrivateKey | bytes,
    *,
    operator: str,
    player: str,
    currency: str,
    audience: str,
    now: float,
    jti: str,
    lifetime: float = DEFAULT_LIFETIME_SECONDS,
) -> str:
    """A launch token for ``player`` of ``operator``: EdDSA with an Ed25519 key, HS256 with
    a shared secret (bytes)."""
    claims = {
        "iss": operator,
        "sub": player,
        "aud": audience,
        "currency": currency,
        "iat": int(now),
        "exp": int(now + lifetime),
        "jti": jti,
    }
    algorithm = "HS256" if isinstance(key, bytes) else "EdDSA"
    return jwt.encode(claims, key, algorithm=algorithm, headers={"typ": "JWT"})
