"""The online table's simulated players, launched as a person is (issue 14 item 5): the demo
operator mints each a launch token with its key (``sicbo launch-token``'s code), the player
opens a session with it at the web gateway (``POST /api/launch``, which verifies it as it
verifies anyone's and uses it once), and every slip goes through the gateway's players' API
(``POST /api/tables/<table>/slips``) with that session's cookie: the gateway stamps the
player the token named, and wager intake debits the slip from that player's account.

Each player is its own browser (its own cookies), sending the Origin of the gateway's pages as
a browser does. A session the gateway no longer knows (signed out, the gateway restarted, its
lifetime over) is launched again with a new token.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import msgspec
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from sicbo.demo.launch_keys import DEMO_AUDIENCE, DEMO_OPERATOR, key_file, load_private_key
from sicbo.gateway.launch_mint import mint_launch_token
from sicbo_contracts.wagers import PlaceSlip

#: Seconds a simulated player waits for the gateway (the floor's commands answer in ms).
TIMEOUT_SECONDS = 15.0


class LaunchFailed(RuntimeError):
    """The gateway refused the demo operator's token (its answer names why)."""


class LaunchedPlayers:
    """Sends the slips of players ``<operator>:<sub>`` through the gateway at ``gateway_url``,
    each in the session its launch token opened."""

    def __init__(
        self,
        gateway_url: str,
        key: Ed25519PrivateKey,
        currency: str,
        *,
        operator: str,
        audience: str,
    ) -> None:
        self.gateway_url = gateway_url.rstrip("/")
        self._key = key
        self.operator = operator
        self.audience = audience
        self.currency = currency
        self._browsers: dict[str, httpx.AsyncClient] = {}

    def sub_of(self, player: str) -> str:
        """The operator's own id of a launched player (``demo:player-1`` -> ``player-1``)."""
        operator, sep, sub = player.partition(":")
        if not sep or operator != self.operator or not sub:
            raise ValueError(f"{player!r} is not a player of operator {self.operator!r}")
        return sub

    async def launch(self, player: str) -> httpx.AsyncClient:
        """A new session for ``player``: a token minted now, posted to the gateway once."""
        token = mint_launch_token(
            self._key,
            operator=self.operator,
            player=self.sub_of(player),
            currency=self.currency,
            audience=self.audience,
            now=time.time(),
            jti=f"demo-{uuid.uuid4().hex}",
        )
        browser = self._browsers.get(player)
        if browser is None:
            browser = httpx.AsyncClient(
                base_url=self.gateway_url,
                timeout=TIMEOUT_SECONDS,
                headers={"origin": self.gateway_url},  # as the gateway's own launch page
            )
            self._browsers[player] = browser
        answer = await browser.post("/api/launch", json={"token": token})
        if answer.status_code != 200:
            raise LaunchFailed(f"launch of {player}: {answer.status_code} {answer.text}")
        launched = answer.json()
        if launched.get("player") != player:
            raise LaunchFailed(f"launched {launched.get('player')!r}, not {player!r}")
        return browser

    def browser_of(self, player: str) -> httpx.AsyncClient | None:
        """The player's browser (its session's cookie), once launched."""
        return self._browsers.get(player)

    async def place(self, slip: PlaceSlip) -> tuple[bool, str]:
        """The slip placed as its player (launched first if need be): accepted, and the
        refusal's reason if not."""
        body: dict[str, Any] = {
            "command_id": slip.command_id,
            "round": slip.round,
            "wagers": [{"bet": w.bet, "stake": w.stake} for w in slip.wagers],
        }
        path = f"/api/tables/{slip.table}/slips"
        browser = self._browsers.get(slip.player) or await self.launch(slip.player)
        answer = await browser.post(path, json=body)
        if answer.status_code == 401:  # the session is gone: launched again, sent again
            browser = await self.launch(slip.player)
            answer = await browser.post(path, json=body)
        if answer.status_code == 200:
            return True, ""
        try:
            reason = str(msgspec.json.decode(answer.content).get("reason", answer.text))
        except msgspec.DecodeError:
            reason = answer.text
        return False, f"{answer.status_code}: {reason}"

    @classmethod
    def of_demo(cls, gateway_url: str, data_dir: Path, currency: str) -> LaunchedPlayers:
        """The demo operator's players (``make run``: its key made at this start)."""
        key = load_private_key(key_file(data_dir, DEMO_OPERATOR))
        return cls(gateway_url, key, currency, operator=DEMO_OPERATOR, audience=DEMO_AUDIENCE)

    async def close(self) -> None:
        for browser in self._browsers.values():
            await browser.aclose()
        self._browsers.clear()
