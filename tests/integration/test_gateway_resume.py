"""004 "Ralat Pengendalian" through the web gateway's commands API: the signed-in supervisor
resumes a suspended online round (a dealer may not); betting reopens with its time left."""

from __future__ import annotations

import httpx
from nats.aio.client import Client as NATS

from tests.integration.conftest import Floor
from tests.integration.test_gateway import accepted, error_of, opened, send, sign_in


async def test_004_the_supervisor_resumes_a_suspended_online_round_from_the_terminal(
    web: httpx.AsyncClient, floor: Floor, nc: NATS
) -> None:
    table = await opened(floor, nc, "online-live", betting_seconds=600)
    await sign_in(web, "ana", "1111")  # the dealer
    await accepted(web, table, {"type": "round.start.v1", "round": 1, "tumbles": 3})
    await accepted(web, table, {"type": "round.open-betting.v1", "round": 1})
    fault = {"type": "table.report-malfunction.v1", "equipment": "video", "detail": "froze"}
    await accepted(web, table, fault)
    paused = (await web.get(f"/api/tables/{table}")).json()
    assert paused["suspended"]["policy"] == "suspend-round"
    assert paused["round"]["closes_at"] is None  # the countdown no longer runs

    resume = {"type": "round.resume.v1", "round": 1, "detail": "stream back"}
    error_of(await send(web, table, resume), 403, "forbidden")  # the dealer tells the supervisor
    session = await sign_in(web, "sofia", "3333")
    assert "round.resume.v1" in session["actions"]  # type: ignore[operator]
    await accepted(web, table, resume)
    view = (await web.get(f"/api/tables/{table}")).json()
    assert view["suspended"] is None and view["round"]["phase"] == "betting-open"
    assert view["round"]["closes_at"] is not None  # the resumed countdown's deadline
