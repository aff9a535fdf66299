"""Revocations reach every gateway replica: a supervisor's revoke, made on one replica, ends the
operator's sessions on all of them.

Sessions live in each replica's process (:mod:`sicbo.gateway.session_store`; the ingress keeps
a browser on one replica). A revocation is ended here at once, then announced on
:data:`REVOKED` (core NATS, every replica subscribed, none in a queue group); each replica ends
the operator's sessions it holds. A replica that lost its NATS connection may have missed an
announcement, so when it reconnects it ends every session it holds: its terminals sign in
again, and no revoked session outlives a network fault.
"""

from __future__ import annotations

import json
import logging

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from sicbo.gateway.http import ApiError
from sicbo.gateway.operators import ID
from sicbo.gateway.session_store import SessionStore
from sicbo.infra.nats_flush import flush_sent
from sicbo_contracts.subjects import GATEWAY_SESSIONS_REVOKED

log = logging.getLogger(__name__)

#: Published and subscribed by the gateway user only (no other NATS user may end sessions).
REVOKED = GATEWAY_SESSIONS_REVOKED


class Revocations:
    def __init__(self, store: SessionStore) -> None:
        self.store = store
        self._nc: NATS | None = None

    async def start(self, nc: NATS) -> None:
        """Listen for the other replicas' revocations (once connected)."""
        await nc.subscribe(REVOKED, cb=self._revoked)
        self._nc = nc

    async def announce(self, operator: str) -> None:
        """Tell every replica (this one already ended them); 503 if NATS cannot be reached."""
        if self._nc is None or not self._nc.is_connected:
            raise ApiError(
                503,
                "unavailable",
                "ended on this gateway only: the others cannot be told now, revoke again",
            )
        await self._nc.publish(REVOKED, json.dumps({"operator": operator}).encode())
        await flush_sent(self._nc)

    async def reconnected(self) -> None:
        ended = self.store.clear()
        log.warning("reconnected to NATS: %d sessions ended (a revocation may be missed)", ended)

    async def _revoked(self, msg: Msg) -> None:
        try:
            operator = json.loads(msg.data)["operator"]
        except (ValueError, KeyError, TypeError):
            return
        if isinstance(operator, str) and ID.fullmatch(operator):
            ended = self.store.revoke(operator)
            log.info("sessions of %s revoked: %d here", operator, ended)
