"""``POST /api/launch`` on a gateway with no launch operators: refused (403), nobody signed in,
whatever the token; the launch page is served with no referrer sent onwards."""

from __future__ import annotations

import httpx
from starlette.applications import Starlette

from sicbo.gateway.launch import LaunchRoutes
from sicbo.gateway.launch_once import LaunchesUsed
from sicbo.gateway.session_store import Kind
from sicbo.gateway.sessions import Sessions


async def test_a_floor_without_launch_operators_launches_nobody() -> None:
    sessions = Sessions({})
    app = Starlette(routes=LaunchRoutes(sessions, LaunchesUsed(), None).routes())
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://gw") as web:
        answer = await web.post("/api/launch", json={"token": "x.y.z"})
        assert answer.status_code == 403 and answer.json()["code"] == "forbidden"
        assert "--launch-operators" in answer.json()["reason"]
        assert not answer.cookies
        page = await web.get("/launch")
        assert page.status_code == 200 and "/static/launch.js" in page.text
    assert sessions.store.count(Kind.PLAYER) == 0
