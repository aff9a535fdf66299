"""The checked-in JSON Schema must equal a fresh generation (run `make schemas` to fix)."""

from sicbo_contracts import schemas


def test_checked_in_schemas_are_fresh() -> None:
    assert schemas.stale() == [], "run `make schemas` and commit contracts/schemas/"


def test_every_union_has_a_schema_with_versioned_tags() -> None:
    for name in schemas.UNIONS:
        if "quer" in name or "history" in name:
            continue  # request/reply bodies of queries are plain objects, not tagged unions
        text = schemas.render(name)
        assert '"type"' in text and ".v1" in text, name
