"""JSON Schema of every contract union, generated from the msgspec Structs.

``write(folder)`` writes one file per union; the checked-in copies in ``contracts/schemas/``
are compared with a fresh generation by the tests, so they can never go stale.

Each file is a Draft 2020-12 document any validator takes as it is, Ajv's ``Ajv2020`` in strict
mode included: it names its dialect (``$schema``), has a stable ``$id`` that carries the
contract's major version, and states the full :data:`~sicbo_contracts.version.CONTRACT_VERSION`
in ``$comment`` (JSON Schema has no version keyword, and strict validators refuse made-up
ones). msgspec also writes OpenAPI's ``discriminator`` beside the ``anyOf`` of a tagged union;
it is no JSON Schema keyword (Ajv strict refuses it, and Ajv's own support wants ``oneOf`` and
no ``mapping``), and each branch already pins its ``type`` tag with an ``enum``, so the
published schema leaves it out (:func:`portable`): the same messages validate either way.
"""

import json
from pathlib import Path
from typing import Any

import msgspec

from sicbo_contracts import (
    accounts,
    board,
    dice,
    illumination,
    lifecycle,
    replies,
    results,
    settlement,
    wagers,
)
from sicbo_contracts.version import CONTRACT_MAJOR, CONTRACT_VERSION

UNIONS: dict[str, Any] = {
    "lifecycle-commands": lifecycle.LifecycleCommand,
    "lifecycle-events": lifecycle.LifecycleEvent,
    "dice-commands": dice.DiceCommand,
    "dice-events": dice.DiceEvent,
    "wager-commands": wagers.WagerCommand,
    "wager-events": wagers.WagerEvent,
    "bet-history-query": wagers.BetHistoryQuery,
    "bet-history": wagers.BetHistory,
    "board-stats-query": board.StatsQuery,
    "board-stats": board.StatsBoard,
    "board-recall-query": board.RecallQuery,
    "board-recall": board.Recall,
    "settlement-events": settlement.SettlementEvent,
    "illumination-events": illumination.IlluminationEvent,
    "layout-controller": illumination.LayoutMessage,
    "account-commands": accounts.AccountCommand,
    "account-events": accounts.AccountEvent,
    "replies": replies.Reply,
    "results": results.PublicResult,
    "results-heartbeat": results.FeedHeartbeat,
}

#: Where the checked-in schemas live, beside the package.
SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"

DIALECT = "https://json-schema.org/draft/2020-12/schema"
#: ``$id`` of a schema: ``.example`` is reserved (RFC 2606), so the id never resolves to
#: someone else's document; it names the schema, validators do not fetch it.
ID_TEMPLATE = "https://sicbo.example/schemas/{name}/v{major}.json"
#: Keywords msgspec writes that are not JSON Schema (OpenAPI's), left out of what is published.
NOT_JSON_SCHEMA = frozenset({"discriminator"})
_NAMED = frozenset({"properties", "$defs", "patternProperties", "dependentSchemas"})
_DATA = frozenset({"const", "default", "enum", "examples"})  # instances, not schemas


def portable(node: Any) -> Any:
    """``node`` (a schema or part of one, as msgspec writes it) without the keywords that are
    not JSON Schema, so a strict 2020-12 validator compiles it. Keys under ``properties`` and
    ``$defs`` are names, and values of ``default`` or ``enum`` data: only a schema's own
    keywords are dropped."""
    if isinstance(node, list):
        return [portable(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in NOT_JSON_SCHEMA:
            continue
        if key in _NAMED:
            out[key] = {name: portable(schema) for name, schema in value.items()}
        else:
            out[key] = value if key in _DATA else portable(value)
    return out


def schema_id(name: str) -> str:
    return ID_TEMPLATE.format(name=name, major=CONTRACT_MAJOR)


def published(name: str) -> dict[str, Any]:
    """The published JSON Schema of the union ``name`` (a key of :data:`UNIONS`): a complete
    Draft 2020-12 document with its ``$defs``, as written to ``contracts/schemas/<name>.json``;
    another document may embed it as it is (its ``$id`` keeps its ``$ref`` s resolving)."""
    schema = portable(msgspec.json.schema(UNIONS[name]))
    return {
        "$schema": DIALECT,
        "$id": schema_id(name),
        "$comment": f"sicbo contracts {CONTRACT_VERSION}; generated from the msgspec contracts "
        "by `make schemas`: do not edit",
        **schema,
        "title": f"sicbo {name}",
    }


def render(name: str) -> str:
    return json.dumps(published(name), indent=2, sort_keys=True) + "\n"


def write(folder: Path = SCHEMA_DIR) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name in UNIONS:
        path = folder / f"{name}.json"
        path.write_text(render(name), encoding="utf-8")
        written.append(path)
    return written


def stale(folder: Path = SCHEMA_DIR) -> list[str]:
    """Names whose checked-in schema differs from a fresh generation (or is missing)."""
    out = []
    for name in UNIONS:
        path = folder / f"{name}.json"
        if not path.exists() or path.read_text(encoding="utf-8") != render(name):
            out.append(name)
    return out
