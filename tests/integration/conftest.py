"""The integration tests' floor: its fixtures live in tests/floor.py (registered by
tests/conftest.py, so the browser tests share the same floor); the helpers are re-exported here
for the modules that import them from this folder."""

from collections.abc import AsyncIterator

import httpx
import pytest

from tests.floor import (
    DEALER,
    FLOOR_SERVICES,
    INSPECTOR,
    LIMITS,
    OPERATOR,
    QUICK_LOCK_SECONDS,
    SERVICE,
    SUPERVISOR,
    Floor,
    actor,
    browser,
    new_id,
    start_services,
)

__all__ = [
    "DEALER",
    "FLOOR_SERVICES",
    "INSPECTOR",
    "LIMITS",
    "OPERATOR",
    "QUICK_LOCK_SECONDS",
    "SERVICE",
    "SUPERVISOR",
    "Floor",
    "actor",
    "new_id",
    "start_services",
]


@pytest.fixture
async def web(gateway: str) -> AsyncIterator[httpx.AsyncClient]:
    """A browser on the session's gateway (its own cookies), for the gateway API tests."""
    async with browser(gateway) as client:
        yield client
