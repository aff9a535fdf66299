"""What the AsyncAPI tests share: the document, its official JSON Schema, and validators of the
schemas embedded in it (resolved inside the document, as AsyncAPI tools resolve them)."""

import json
from pathlib import Path
from typing import Any

from jsonschema import Draft7Validator, Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from sicbo_contracts import asyncapi

#: AsyncAPI's own schema of a 3.0.0 document (vendor/README.md says where it comes from).
OFFICIAL_SCHEMA = Path(__file__).parent / "vendor" / "asyncapi-3.0.0.schema.json"
#: A name for the document, so the embedded schemas' ``$ref`` s resolve in it.
DOC_URI = "urn:sicbo:asyncapi"


def document() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(asyncapi.render())
    return doc


def asyncapi_validator() -> Draft7Validator:
    return Draft7Validator(json.loads(OFFICIAL_SCHEMA.read_text(encoding="utf-8")))


def embedded_validator(doc: dict[str, Any], pointer: str) -> Draft202012Validator:
    """A Draft 2020-12 validator of the schema at ``pointer`` (``#/...``) in ``doc``."""
    registry: Registry[Any] = Registry().with_resource(
        DOC_URI, Resource(contents=doc, specification=DRAFT202012)
    )
    return Draft202012Validator({"$ref": f"{DOC_URI}{pointer}"}, registry=registry)


def refs(node: Any) -> list[str]:
    """Every ``$ref`` in ``node``, depth first."""
    if isinstance(node, dict):
        own = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return own + [r for value in node.values() for r in refs(value)]
    if isinstance(node, list):
        return [r for item in node for r in refs(item)]
    return []


def resolve(doc: dict[str, Any], ref: str) -> Any:
    """The node a document pointer names (a KeyError when it names nothing)."""
    assert ref.startswith("#/"), ref
    node: Any = doc
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def follow(doc: dict[str, Any], ref: str) -> Any:
    """The node a pointer names, through Reference Objects (a channel's message names one of
    ``components.messages``)."""
    node = resolve(doc, ref)
    while isinstance(node, dict) and set(node) == {"$ref"}:
        node = resolve(doc, node["$ref"])
    return node


def errors(validator: Any, instance: Any) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(instance)]
