"""Who a request's cookie says is signed in (sicbo.gateway.sessions), on a clock of the test's."""

from http.cookies import SimpleCookie

import pytest
from starlette.requests import Request
from starlette.responses import Response

from sicbo.gateway.http import ApiError
from sicbo.gateway.operators import Operator
from sicbo.gateway.session_store import Kind
from sicbo.gateway.sessions import Sessions
from sicbo_contracts.base import Role

ANA = Operator(id="ana", role=Role.DEALER, salt="00" * 16, pin_hash="11" * 32)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def request_with(cookies: dict[str, str]) -> Request:
    header = "; ".join(f"{k}={v}" for k, v in cookies.items()).encode()
    return Request({"type": "http", "method": "GET", "headers": [(b"cookie", header)]})


def signed_in(sessions: Sessions, kind: Kind, who: str, role: Role) -> dict[str, str]:
    """The cookies a browser holds after the sign-in's answer."""
    response = Response()
    sessions.open(response, kind, who, role)
    jar: SimpleCookie = SimpleCookie()
    for name, value in response.raw_headers:
        if name == b"set-cookie":
            jar.load(value.decode())
    return {k: m.value for k, m in jar.items()}


def code_of(call: object) -> str:
    assert callable(call)
    with pytest.raises(ApiError) as refused:
        call()
    return refused.value.code


def test_the_cookie_is_an_opaque_token_httponly_and_strict() -> None:
    sessions = Sessions({"ana": ANA}, clock=Clock())
    response = Response()
    sessions.open(response, Kind.OPERATOR, "ana", Role.DEALER)
    raw = dict(response.raw_headers)[b"set-cookie"].decode()
    header = raw.lower()
    assert header.startswith("sicbo-operator=")
    assert "httponly" in header and "samesite=strict" in header and "secure" not in header
    # Opaque: a random token, not made from the operator (a second sign-in gets another).
    token = raw.split(";")[0].partition("=")[2]
    again = Response()
    sessions.open(again, Kind.OPERATOR, "ana", Role.DEALER)
    other = dict(again.raw_headers)[b"set-cookie"].decode().split(";")[0].partition("=")[2]
    assert len(token) >= 32 and token != other
    secure = Sessions({"ana": ANA}, https_only=True, clock=Clock())
    response = Response()
    secure.open(response, Kind.OPERATOR, "ana", Role.DEALER)
    header = dict(response.raw_headers)[b"set-cookie"].decode().lower()
    assert header.startswith("__host-sicbo-operator=") and "secure" in header


def test_a_terminal_locks_after_the_idle_time_and_activity_keeps_it_open() -> None:
    clock = Clock()
    sessions = Sessions({"ana": ANA}, idle_lock_seconds=300, clock=clock)
    request = request_with(signed_in(sessions, Kind.OPERATOR, "ana", Role.DEALER))
    clock.now += 299
    assert sessions.operator(request) == ANA  # a command: activity
    clock.now += 299
    assert sessions.operator(request, activity=False) == ANA
    clock.now += 2
    assert code_of(lambda: sessions.operator(request)) == "locked"
    assert sessions.display(request) == ANA  # a display is never idle-locked


def test_no_cookie_an_unknown_token_or_an_operator_no_longer_listed_is_signed_out() -> None:
    sessions = Sessions({"ana": ANA}, clock=Clock())
    assert code_of(lambda: sessions.operator(request_with({}))) == "signed-out"
    forged = request_with({"sicbo-operator": "a" * 43})
    assert code_of(lambda: sessions.operator(forged)) == "signed-out"
    gone = Sessions({}, clock=Clock(), store=sessions.store)
    request = request_with(signed_in(sessions, Kind.OPERATOR, "ana", Role.DEALER))
    assert code_of(lambda: gone.operator(request)) == "signed-out"


def test_each_sign_in_has_its_own_cookie() -> None:
    sessions = Sessions({"ana": ANA}, clock=Clock())
    player = request_with(signed_in(sessions, Kind.PLAYER, "pat", Role.PLAYER))
    assert sessions.player(player) == "pat"
    assert code_of(lambda: sessions.operator(player)) == "signed-out"
    assert code_of(lambda: sessions.display(player)) == "signed-out"
    display = request_with(signed_in(sessions, Kind.DISPLAY, "ana", Role.DEALER))
    assert sessions.display(display) == ANA
    assert code_of(lambda: sessions.operator(display)) == "signed-out"  # no terminal
    assert code_of(lambda: sessions.player(display)) == "signed-out"
