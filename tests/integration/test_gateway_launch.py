"""Players launched by their operator's token, against the real floor (two gateway processes
as two replicas, the services as processes, a real nats-server):

- a token opens one session, once: raced to both replicas, exactly one opens a session, the
  other is told it was used (the KV bucket sicbo-launches, written create-only, decides);
- a bad token (expired, forged, foreign, for another floor, unsigned, malformed, too long-lived)
  is refused naming the claim, opens no session and leaves no trace: its id is still free;
- a launched player is ``<operator>:<sub>`` in the token's currency, bets as that player and
  reads only their own history; another player's id in a request is refused (403).
"""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nats.aio.client import Client as NATS

from sicbo.gateway.launch_once import launch_key
from sicbo.gateway.launch_tokens import LEEWAY_SECONDS, Launch
from sicbo_contracts.subjects import LAUNCHES_BUCKET
from tests.integration.conftest import Floor
from tests.integration.test_gateway import accepted, browser, error_of, opened, sign_in
from tests.support.launch import HS_OPERATOR, HS_SECRET, Issuers, handmade

START = {"type": "round.start.v1", "round": 1, "tumbles": 3}


def jti() -> str:
    return f"jti-{uuid.uuid4().hex}"


async def launched(web: httpx.AsyncClient, token: str) -> dict[str, object]:
    answer = await web.post("/api/launch", json={"token": token})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


async def test_a_token_opens_one_session_on_one_replica_only(
    gateway: str, quick_lock_gateway: str, launch_issuers: Issuers
) -> None:
    token = launch_issuers.token("p-race", now=time.time())
    async with browser(gateway) as one, browser(quick_lock_gateway) as other:
        answers = await asyncio.gather(
            one.post("/api/launch", json={"token": token}),
            other.post("/api/launch", json={"token": token}),
        )
        codes = sorted(a.status_code for a in answers)
        assert codes == [200, 401], [a.text for a in answers]
        won = next(a for a in answers if a.status_code == 200)
        lost = next(a for a in answers if a.status_code == 401)
        assert won.json() == {"player": "acme:p-race", "operator": "acme", "currency": "EUR"}
        assert error_of(lost, 401, "reused")["field"] == "jti"
        winner, loser = (one, other) if answers[0].status_code == 200 else (other, one)
        me = (await winner.get("/api/player")).json()
        assert me == {"player": "acme:p-race", "currency": "EUR"}
        error_of(await loser.get("/api/player"), 401, "signed-out")
        # Signed out, the token is still used: it opens nothing, on either replica.
        await winner.delete("/api/player")
        for web in (one, other):
            error_of(await web.post("/api/launch", json={"token": token}), 401, "reused")
            error_of(await web.get("/api/player"), 401, "signed-out")


async def test_a_used_token_is_remembered_until_it_expires_and_no_longer(
    quick_lock_gateway: str, launch_issuers: Issuers, nc: NATS
) -> None:
    """The bucket keeps the token's id with a TTL of its remaining life and the leeway (the
    server drops it then: a token that old is refused as expired anyway)."""
    now, token_id = time.time(), jti()
    async with browser(quick_lock_gateway) as web:
        await launched(web, launch_issuers.token("p-ttl", now=now, jti=token_id, lifetime=60))
    used = Launch("acme", "p-ttl", "EUR", token_id, expires=float(int(now + 60)))
    stored = await nc.jetstream().get_msg(
        f"KV_{LAUNCHES_BUCKET}", subject=f"$KV.{LAUNCHES_BUCKET}.{launch_key(used)}"
    )
    ttl = int((stored.headers or {})["Nats-TTL"].removesuffix("s"))
    assert 1 <= ttl <= 60 + LEEWAY_SECONDS + 1, stored.headers


async def test_bad_tokens_are_refused_by_name_and_open_no_session(
    quick_lock_gateway: str, launch_issuers: Issuers
) -> None:
    now = time.time()
    ops = launch_issuers
    expired_id = jti()
    bad = [
        (ops.token("p-1", now=now - 400, jti=expired_id), 401, "expired", "exp"),
        (
            ops.token("p-1", now=now, key=Ed25519PrivateKey.generate()),
            401,
            "bad-signature",
            "token",
        ),
        (ops.token("p-1", now=now, operator="nobody"), 401, "unknown-operator", "iss"),
        (ops.token("p-1", now=now, audience="sicbo:other"), 401, "wrong-audience", "aud"),
        (ops.token("p-1", now=now, lifetime=3600), 401, "lifetime-too-long", "exp"),
        (ops.token("p-1", now=now, currency="euro"), 400, "invalid-claim", "currency"),
        (handmade({"alg": "none"}, {"iss": "acme", "sub": "p-1"}, None), 401, "algorithm", "alg"),
        (ops.token("p-1", now=now, operator=HS_OPERATOR), 401, "algorithm", "alg"),
        ("not-a-jwt", 400, "malformed", "token"),
        (12, 400, "malformed", "token"),
    ]
    async with browser(quick_lock_gateway) as web:
        for token, status, code, claim in bad:
            answer = await web.post("/api/launch", json={"token": token})
            assert error_of(answer, status, code)["field"] == claim, answer.text
            error_of(await web.get("/api/player"), 401, "signed-out")
        error_of(await web.post("/api/launch", content=b"\xff\xfe"), 400, "invalid")
        error_of(await web.post("/api/launch", json={}), 400, "malformed")
        # The expired token left no trace: its id is still free for a good one.
        fresh = ops.token("p-1", now=time.time(), jti=expired_id)
        assert (await launched(web, fresh))["player"] == "acme:p-1"
        # An HS256 operator's own token is good; the launch replaced nobody else's session.
        hs = ops.token("p-1", now=time.time(), operator=HS_OPERATOR, key=HS_SECRET)
        assert (await launched(web, hs))["player"] == "hsop:p-1"


async def test_a_refused_token_leaves_the_browsers_player_signed_in(
    quick_lock_gateway: str, launch_issuers: Issuers
) -> None:
    """A link to /launch with a forged, expired or used token is refused and changes nothing:
    the player signed in in that browser stays signed in (it was signed out first)."""
    now, ops = time.time(), launch_issuers
    used = ops.token("p-stays", now=now)
    async with browser(quick_lock_gateway) as web:
        await launched(web, used)
        for token in (
            ops.token("p-other", now=now, key=Ed25519PrivateKey.generate()),
            ops.token("p-other", now=now - 400),
            used,
            "not-a-jwt",
        ):
            assert (await web.post("/api/launch", json={"token": token})).status_code in (400, 401)
            me = (await web.get("/api/player")).json()
            assert me == {"player": "acme:p-stays", "currency": "EUR"}, token
        # A good token replaces the browser's player, as before.
        assert (await launched(web, ops.token("p-next", now=now)))["player"] == "acme:p-next"
        assert (await web.get("/api/player")).json()["player"] == "acme:p-next"


async def test_a_launch_comes_from_the_gateways_own_page_only(
    quick_lock_gateway: str, launch_issuers: Issuers
) -> None:
    """The launch page (the token in its fragment) is served; a post from another site's page
    is refused before the token is looked at, so the token stays unused."""
    token = launch_issuers.token("p-site", now=time.time())
    async with httpx.AsyncClient(base_url=quick_lock_gateway, timeout=15) as raw:
        page = await raw.get("/launch")
        assert page.status_code == 200 and 'content="no-referrer"' in page.text
        foreign = await raw.post(
            "/api/launch", json={"token": token}, headers={"origin": "https://evil.example"}
        )
        assert foreign.status_code == 403, foreign.text
    async with browser(quick_lock_gateway) as web:
        assert (await launched(web, token))["player"] == "acme:p-site"


async def test_a_launched_player_bets_as_themselves_and_reads_only_their_history(
    quick_lock_gateway: str, floor: Floor, nc: NATS, launch_issuers: Issuers
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    ops, gw = launch_issuers, quick_lock_gateway
    async with browser(gw) as dealer, browser(gw) as ann, browser(gw) as bob, browser(gw) as twin:
        await sign_in(dealer, "ana", "1111")
        await accepted(dealer, table, START)
        await accepted(dealer, table, {"type": "round.open-betting.v1", "round": 1})
        players = (
            (ann, ops.token("ann", now=time.time()), "big"),
            (bob, ops.token("bob", now=time.time()), "small"),
            # Another operator's "ann" is another player.
            (twin, ops.token("ann", now=time.time(), operator=HS_OPERATOR, key=HS_SECRET), "odd"),
        )
        for web, token, bet in players:
            await launched(web, token)
            slip = {"command_id": jti(), "round": 1, "wagers": [{"bet": bet, "stake": 200}]}
            placed = await web.post(f"/api/tables/{table}/slips", json=slip)
            assert placed.status_code == 200 and placed.json()["type"] == "accepted.v1", placed.text
        for web, player, bets in (
            (ann, "acme:ann", ["big"]),
            (bob, "acme:bob", ["small"]),
            (twin, "hsop:ann", ["odd"]),
        ):
            history = (await web.get(f"/api/tables/{table}/history")).json()
            assert history["player"] == player
            assert [w["bet"] for s in history["slips"] for w in s["wagers"]] == bets
            assert history["slips"][0]["placed_by"] == {"id": player, "role": "player"}
        asked = await ann.get(f"/api/tables/{table}/history", params={"player": "acme:bob"})
        assert error_of(asked, 403, "forbidden")["field"] == "player"
        as_bob = {
            "command_id": jti(),
            "round": 1,
            "player": "acme:bob",
            "wagers": [{"bet": "big", "stake": 200}],
        }
        refused = await ann.post(f"/api/tables/{table}/slips", json=as_bob)
        assert error_of(refused, 403, "forbidden")["field"] == "$.player"
        bob_history = (await bob.get(f"/api/tables/{table}/history")).json()
        assert len(bob_history["slips"]) == 1  # nothing placed in bob's name
