"""The partners' AsyncAPI document: checked in fresh, well-formed, its examples valid."""

import json
from typing import Any

import msgspec

from sicbo.results.project import winners
from sicbo_contracts import asyncapi
from sicbo_contracts.results import PublicResult, RoundResult


def test_checked_in_asyncapi_document_is_fresh() -> None:
    assert not asyncapi.stale(), "run `make schemas` and commit contracts/asyncapi.json"


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return own + [r for value in node.values() for r in _refs(value)]
    if isinstance(node, list):
        return [r for item in node for r in _refs(item)]
    return []


def _resolve(doc: dict[str, Any], ref: str) -> Any:
    assert ref.startswith("#/"), ref
    node: Any = doc
    for part in ref[2:].split("/"):
        node = node[part]
    return node


def test_a_3_0_document_of_the_public_subjects_whose_refs_all_resolve() -> None:
    doc = json.loads(asyncapi.render())
    assert doc["asyncapi"] == "3.0.0"
    (channel,) = doc["channels"].values()
    assert channel["address"] == "sicbo.results.{table}"
    assert set(channel["parameters"]) == {"table"}
    (operation,) = doc["operations"].values()
    assert operation["action"] == "receive"
    for ref in _refs(doc):
        assert _resolve(doc, ref) is not None, ref
    message = doc["components"]["messages"]["roundResult"]
    assert _resolve(doc, message["payload"]["$ref"])["properties"]["type"] == {
        "enum": ["result.v1"]
    }
    # Draft 07 tuples (AsyncAPI Schema Object), not 2020-12 prefixItems.
    assert "prefixItems" not in asyncapi.render()
    dice = doc["components"]["schemas"]["RoundResult"]["properties"]["dice"]["anyOf"][0]
    assert len(dice["items"]) == 3 and dice["additionalItems"] is False


def test_the_examples_are_valid_results_with_the_games_winners() -> None:
    doc = json.loads(asyncapi.render())
    examples = doc["components"]["messages"]["roundResult"]["examples"]
    assert {e["name"] for e in examples} == {"result", "void", "correction"}
    for example in examples:
        result = msgspec.json.decode(json.dumps(example["payload"]), type=PublicResult)
        assert isinstance(result, RoundResult)
        if result.dice is not None:
            assert result.winning_bets == winners(result.paytable, result.dice)
            assert result.total == sum(result.dice)
