"""Revocations heard from the other replicas, and a reconnect that may have missed one."""

from dataclasses import dataclass
from typing import Any

import pytest

from sicbo.gateway.http import ApiError
from sicbo.gateway.revocation import Revocations
from sicbo.gateway.session_store import Kind, SessionStore
from sicbo_contracts.base import Role


@dataclass
class Announcement:
    data: bytes


def store_with_ana_and_ben() -> SessionStore:
    store = SessionStore()
    store.open("ana-1", Kind.OPERATOR, "ana", Role.DEALER, now=0.0)
    store.open("ana-2", Kind.DISPLAY, "ana", Role.DEALER, now=0.0)
    store.open("ben-1", Kind.OPERATOR, "ben", Role.DEALER, now=0.0)
    return store


async def test_an_announced_revocation_ends_the_operators_sessions_here() -> None:
    store = store_with_ana_and_ben()
    message: Any = Announcement(b'{"operator": "ana"}')
    await Revocations(store)._revoked(message)
    assert store.get("ana-1", Kind.OPERATOR, now=1.0) is None
    assert store.get("ana-2", Kind.DISPLAY, now=1.0) is None
    assert store.get("ben-1", Kind.OPERATOR, now=1.0) is not None


@pytest.mark.parametrize(
    "data", [b"", b"not json", b"[]", b'"ana"', b"{}", b'{"operator": 7}', b'{"operator": "a b"}']
)
async def test_a_malformed_announcement_ends_nothing(data: bytes) -> None:
    store = store_with_ana_and_ben()
    message: Any = Announcement(data)
    await Revocations(store)._revoked(message)
    assert store.count(Kind.OPERATOR) == 2 and store.count(Kind.DISPLAY) == 1


async def test_a_reconnect_ends_every_session_an_announcement_may_have_missed() -> None:
    store = store_with_ana_and_ben()
    await Revocations(store).reconnected()
    assert store.count(Kind.OPERATOR) == store.count(Kind.DISPLAY) == 0


async def test_announcing_without_nats_is_unavailable() -> None:
    with pytest.raises(ApiError) as refused:
        await Revocations(SessionStore()).announce("ana")
    assert refused.value.status == 503 and "revoke again" in refused.value.reason
