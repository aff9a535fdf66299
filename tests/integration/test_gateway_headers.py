"""Security headers and origins (issue 25 item 6), on the session's gateways (separate
processes): every page and API answer says its pages run their own scripts only and are never
framed; a gateway that knows its origin (``--origin``, as ``sicbo run`` passes its printed
address) refuses a DNS-rebound request, a Host it does not serve, before anything else."""

from __future__ import annotations

import httpx
import pytest

from tests.floor import browser

PATHS = ["/", "/cashier", "/api/tables", "/static/common.js", "/no-such-page", "/healthz"]


def assert_guarded(answer: httpx.Response) -> None:
    csp = answer.headers["content-security-policy"]
    directives = {d.split()[0]: d.split()[1:] for d in csp.split("; ")}
    assert directives["script-src"] == ["'self'"], csp  # no inline script, no eval
    assert directives["frame-ancestors"] == ["'none'"] and directives["object-src"] == ["'none'"]
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"


@pytest.mark.parametrize("path", PATHS)
async def test_every_answer_carries_the_security_headers(
    gateway: str, quick_lock_gateway: str, path: str
) -> None:
    for base in (gateway, quick_lock_gateway):
        async with browser(base) as web:
            assert_guarded(await web.get(path))
            assert_guarded(await web.post("/api/session", json={}))  # an error answer too


async def test_a_dns_rebound_request_is_refused(quick_lock_gateway: str) -> None:
    evil = {"host": "evil.example", "origin": "http://evil.example"}
    async with httpx.AsyncClient(base_url=quick_lock_gateway, timeout=15) as web:
        for path in ("/", "/api/tables", "/static/common.js"):
            assert (await web.get(path, headers=evil)).status_code == 400, path
        sign_in = {"operator": "ana", "pin": "1111"}
        refused = await web.post("/api/session", json=sign_in, headers=evil)
        assert refused.status_code == 400 and "set-cookie" not in refused.headers
        assert (await web.get("/healthz", headers=evil)).status_code == 200  # the pod's probe
        # Its own name still works, and another Origin on its own Host is refused (403).
        own = {"origin": quick_lock_gateway}
        assert (await web.post("/api/session", json=sign_in, headers=own)).status_code == 200
        other = await web.post(
            "/api/session", json=sign_in, headers={"origin": "http://evil.example"}
        )
        assert other.status_code == 403
