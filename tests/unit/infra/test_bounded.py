"""sicbo.infra.bounded.Recent: at most its limit, the least recently put dropped first."""

from __future__ import annotations

import pytest

from sicbo.infra.bounded import Recent


def test_the_oldest_entry_is_dropped_beyond_the_limit() -> None:
    kept: Recent[str, int] = Recent(2)
    kept.put("a", 1)
    kept.put("b", 2)
    kept.put("c", 3)
    assert dict(kept) == {"b": 2, "c": 3}


def test_putting_a_key_again_makes_it_the_most_recent() -> None:
    kept: Recent[str, int] = Recent(2)
    kept.put("a", 1)
    kept.put("b", 2)
    kept.put("a", 10)
    kept.put("c", 3)
    assert dict(kept) == {"a": 10, "c": 3}
    assert list(kept) == ["a", "c"]


def test_an_entry_in_use_is_kept_until_it_is_free() -> None:
    held = {"a"}
    kept: Recent[str, str] = Recent(1, in_use=lambda value: value in held)
    kept.put("a", "a")
    kept.put("b", "b")
    assert list(kept) == ["a", "b"]  # over the limit while "a" is in use
    held.clear()
    kept.put("c", "c")
    assert list(kept) == ["c"]


def test_pop_forgets_a_key_and_tells_its_value() -> None:
    kept: Recent[str, int] = Recent(3)
    kept.put("a", 1)
    assert kept.pop("a") == 1
    assert kept.pop("a") is None
    assert "a" not in kept and len(kept) == 0
    assert kept.get("a", 0) == 0


def test_a_limit_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one entry, not 0"):
        Recent(0)
