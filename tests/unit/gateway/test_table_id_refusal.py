"""A bad table id in an address is refused naming it, by its start only: the refusal of a
5,000-character id echoed all of it back (in the JSON and in the page saying so)."""

from __future__ import annotations

import pytest

from sicbo.gateway.http import ApiError, table_id


def refusal(value: str) -> ApiError:
    with pytest.raises(ApiError) as caught:
        table_id(value)
    return caught.value


def test_a_long_bad_id_is_named_by_its_start() -> None:
    err = refusal("x" * 5000)
    assert (err.status, err.code, err.field) == (400, "invalid", "table")
    assert err.reason == f"table id {'x' * 40!r}…: 1-32 of A-Z a-z 0-9 _ -"


def test_a_short_bad_id_is_named_whole() -> None:
    assert refusal("a.b").reason == "table id 'a.b': 1-32 of A-Z a-z 0-9 _ -"
    assert table_id("demo-cca") == "demo-cca"
