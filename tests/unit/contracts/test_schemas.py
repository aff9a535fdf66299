"""The published JSON Schemas: fresh (run `make schemas` to fix), and each one a Draft 2020-12
document a strict validator takes as it is: its dialect, a stable ``$id``, the contract version,
and no keyword outside the 2020-12 vocabularies (Ajv's strict mode refuses unknown ones, such
as the ``discriminator`` msgspec writes). tests/integration/test_node_client.py compiles every
file with Ajv itself."""

import json
import re
from typing import Any

import msgspec

from sicbo_contracts import asyncapi, schemas
from sicbo_contracts.version import CONTRACT_MAJOR, CONTRACT_VERSION

#: The keywords of each Draft 2020-12 vocabulary (https://json-schema.org/draft/2020-12).
VOCABULARIES = {
    "core": "$schema $id $ref $anchor $dynamicRef $dynamicAnchor $vocabulary $comment $defs",
    "applicator": "prefixItems items contains additionalProperties properties "
    "patternProperties dependentSchemas propertyNames if then else allOf anyOf oneOf not",
    "unevaluated": "unevaluatedItems unevaluatedProperties",
    "validation": "type const enum multipleOf maximum exclusiveMaximum minimum "
    "exclusiveMinimum maxLength minLength pattern maxItems minItems uniqueItems maxContains "
    "minContains maxProperties minProperties required dependentRequired",
    "meta-data": "title description default deprecated readOnly writeOnly examples",
    "format-annotation": "format",
    "content": "contentEncoding contentMediaType contentSchema",
}
KEYWORDS_2020_12 = frozenset(word for words in VOCABULARIES.values() for word in words.split())
_SCHEMA_MAPS = {"$defs", "properties", "patternProperties", "dependentSchemas"}
_SCHEMA_LISTS = {"prefixItems", "allOf", "anyOf", "oneOf"}
_SCHEMAS = {"items", "contains", "additionalProperties", "propertyNames", "if", "then", "else"}
_SCHEMAS |= {"not", "unevaluatedItems", "unevaluatedProperties", "contentSchema"}


def unknown_keywords(schema: Any, where: str = "#") -> list[str]:
    """Where ``schema`` uses a keyword that is not JSON Schema 2020-12 (JSON pointers)."""
    if isinstance(schema, bool):
        return []
    found = [f"{where}/{key}" for key in schema if key not in KEYWORDS_2020_12]
    for key, value in schema.items():
        if key in _SCHEMA_MAPS:
            for name, sub in value.items():
                found += unknown_keywords(sub, f"{where}/{key}/{name}")
        elif key in _SCHEMA_LISTS:
            for i, sub in enumerate(value):
                found += unknown_keywords(sub, f"{where}/{key}/{i}")
        elif key in _SCHEMAS:
            found += unknown_keywords(value, f"{where}/{key}")
    return found


def problems(name: str, schema: dict[str, Any]) -> list[str]:
    """What keeps ``schema``, published as ``<name>.json``, from being taken as it is."""
    out = []
    if schema.get("$schema") != "https://json-schema.org/draft/2020-12/schema":
        out.append(f"$schema is {schema.get('$schema')!r}, not Draft 2020-12")
    if schema.get("$id") != f"https://sicbo.example/schemas/{name}/v{CONTRACT_MAJOR}.json":
        out.append(f"$id is {schema.get('$id')!r}")
    if f"sicbo contracts {CONTRACT_VERSION};" not in schema.get("$comment", ""):
        out.append(f"$comment does not state the contract version {CONTRACT_VERSION}")
    out += [f"not a 2020-12 keyword: {where}" for where in unknown_keywords(schema)]
    return out


def test_checked_in_schemas_are_fresh() -> None:
    assert schemas.stale() == [], "run `make schemas` and commit contracts/schemas/"


def test_every_published_schema_names_its_dialect_id_and_version_and_only_2020_12() -> None:
    files = sorted(schemas.SCHEMA_DIR.glob("*.json"))
    assert {path.stem for path in files} == set(schemas.UNIONS)
    for path in files:
        assert problems(path.stem, json.loads(path.read_text(encoding="utf-8"))) == [], path.name


def test_a_schema_as_msgspec_writes_it_fails_the_check() -> None:
    """msgspec's own output (no dialect, no id, OpenAPI's discriminator) is refused, so the
    check above can fail; the published one of the same union passes."""
    raw = msgspec.json.schema(schemas.UNIONS["wager-events"])
    found = problems("wager-events", raw)
    assert len(found) == 4, found
    assert "not a 2020-12 keyword: #/discriminator" in found
    assert problems("wager-events", schemas.published("wager-events")) == []
    assert problems("results", schemas.published("wager-events"))[0].startswith("$id")


def test_property_names_are_not_mistaken_for_keywords() -> None:
    schema = {"properties": {"discriminator": {"type": "string", "x-nope": 1}}}
    assert unknown_keywords(schema) == ["#/properties/discriminator/x-nope"]
    kept = schemas.portable({"properties": {"discriminator": {}}, "discriminator": {}})
    assert kept == {"properties": {"discriminator": {}}}


def test_ids_are_unique_and_url_like() -> None:
    ids = [schemas.schema_id(name) for name in schemas.UNIONS]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(r"https://sicbo\.example/schemas/[a-z-]+/v\d+\.json", i) for i in ids)


def test_one_contract_version_for_the_schemas_and_the_asyncapi_document() -> None:
    assert re.fullmatch(r"\d+\.\d+\.\d+", CONTRACT_VERSION)
    assert asyncapi.document()["info"]["version"] == CONTRACT_VERSION


def test_every_union_has_a_schema_with_versioned_tags() -> None:
    for name in schemas.UNIONS:
        if "quer" in name or "history" in name:
            continue  # request/reply bodies of queries are plain objects, not tagged unions
        text = schemas.render(name)
        assert '"type"' in text and ".v1" in text, name
