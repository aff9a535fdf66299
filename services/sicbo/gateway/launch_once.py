"""Each launch token opens one session, on whichever replica it reaches first.

Replicas keep their sessions in their own processes, so the token's id (``jti``) is remembered
where all of them see it: the KV bucket :data:`LAUNCHES_BUCKET`, written create-only
(``kv.create``: an append expecting no earlier revision of the key, decided by the server, so
two replicas racing with one token cannot both win). The key lives until the token could no
longer be accepted anyway (its ``exp`` and the leeway: a per-key TTL), so the bucket holds
only the tokens still worth something.
"""

from __future__ import annotations

import hashlib
import json
import math

import nats.js.errors
from nats.aio.client import Client as NATS
from nats.errors import Error as NatsError

from sicbo.gateway.http import ApiError
from sicbo.gateway.launch_tokens import LEEWAY_SECONDS, Launch, LaunchRefused
from sicbo_contracts.subjects import LAUNCHES_BUCKET


def launch_key(launch: Launch) -> str:
    """The operator, then a digest of its token id (any characters; a KV key allows few)."""
    return f"{launch.operator}.{hashlib.sha256(launch.jti.encode()).hexdigest()}"


class LaunchesUsed:
    def __init__(self) -> None:
        self._nc: NATS | None = None

    async def start(self, nc: NATS) -> None:
        self._nc = nc

    async def use(self, launch: Launch, now: float) -> None:
        """The token's one use, taken now; :class:`LaunchRefused` if it was taken before."""
        if self._nc is None or not self._nc.is_connected:
            raise ApiError(503, "unavailable", "launches cannot be checked now: try again")
        record = json.dumps({"player": launch.player, "at": now}).encode()
        ttl = max(1, math.ceil(launch.expires + LEEWAY_SECONDS - now))
        try:
            kv = await self._nc.jetstream().key_value(LAUNCHES_BUCKET)
            await kv.create(launch_key(launch), record, msg_ttl=ttl)
        except nats.js.errors.KeyWrongLastSequenceError:
            raise LaunchRefused(
                401, "reused", "jti: this launch token was used already", "jti"
            ) from None
        except (NatsError, TimeoutError) as err:
            raise ApiError(
                503, "unavailable", f"launches cannot be checked now ({err!r}): try again"
            ) from None
