"""The published JSON Schemas inside the AsyncAPI document, in their own dialect (2020-12).

AsyncAPI 3.0's Schema Object is a Draft 07 superset, so a schema written in Draft 2020-12
(msgspec writes ``prefixItems`` and ``$defs``) goes in a Multi Format Schema Object naming its
format. The spec's table lists ``application/schema+json;version=draft-07`` and allows custom
values; :data:`DRAFT_2020_12` is that identifier with the 2020-12 version, the name JSON Schema's
own media type takes. (AsyncAPI's JS parser accepts formats it has no parser for since
parser-js#1218; before, it reported "Unknown schema format".)

The embedded schema is the generator's own (:func:`sicbo_contracts.schemas.published`, what
``contracts/schemas/<name>.json`` holds) with two changes, both forced by where it sits:

- its ``$ref`` s point into this document (``#/components/schemas/<name>/schema/$defs/X``
  instead of ``#/$defs/X``): AsyncAPI tools resolve every ``$ref`` against the document's root
  and ignore ``$id`` (parser-js#403), so only a document pointer means the same to them and
  to a JSON Schema validator;
- so ``$id`` goes (with it, a 2020-12 validator would resolve ``#`` inside the schema, not in
  the document) and ``$schema`` with it (2020-12 allows it only at a resource's root); the
  dialect is the ``schemaFormat``.

:func:`published` undoes the relocation; the tests hold it equal to the generator's output.
"""

from typing import Any

import msgspec

from sicbo_contracts import schemas

DRAFT_2020_12 = "application/schema+json;version=draft-2020-12"
#: Keywords of a schema document's root that do not survive embedding (see the module doc).
ROOT_ONLY = ("$schema", "$id")
_LOCAL = "#"


def location(name: str) -> str:
    """Where the schema of ``name`` (a key of :data:`schemas.UNIONS`) sits in the document."""
    return f"#/components/schemas/{name}/schema"


def _moved(node: Any, old: str, new: str) -> Any:
    if isinstance(node, list):
        return [_moved(item, old, new) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _moved(value, old, new) for key, value in node.items()}
    ref = out.get("$ref")
    if isinstance(ref, str) and (ref == old or ref.startswith(old + "/")):
        out["$ref"] = new + ref[len(old) :]
    return out


def relocated(schema: dict[str, Any], at: str) -> dict[str, Any]:
    """A standalone schema document rewritten to sit at the document pointer ``at``."""
    body = {key: value for key, value in schema.items() if key not in ROOT_ONLY}
    moved: dict[str, Any] = _moved(body, _LOCAL, at)
    return moved


def generated(name: str) -> dict[str, Any]:
    """The schema of ``name`` exactly as ``make schemas`` writes it to its own file."""
    return schemas.published(name)


def embedded(name: str) -> dict[str, Any]:
    """The Multi Format Schema Object of ``name`` for ``components.schemas``."""
    return {"schemaFormat": DRAFT_2020_12, "schema": relocated(generated(name), location(name))}


def published(document: dict[str, Any], name: str) -> dict[str, Any]:
    """The schema of ``name`` taken back out of ``document``: its ``$ref`` s local again (for
    the test that it is the generator's output without :data:`ROOT_ONLY`)."""
    schema: dict[str, Any] = document["components"]["schemas"][name]["schema"]
    back: dict[str, Any] = _moved(schema, location(name), _LOCAL)
    return back


def struct_schema(cls: Any, name: str) -> dict[str, Any]:
    """A Multi Format Schema Object of one msgspec type that has no published file (the Direct
    Get request), written by msgspec in the same dialect and placed the same way."""
    schema: dict[str, Any] = schemas.portable(msgspec.json.schema(cls))
    return {"schemaFormat": DRAFT_2020_12, "schema": relocated(schema, location(name))}
