"""JSON Schema of every contract union, generated from the msgspec Structs.

``write(folder)`` writes one file per union; the checked-in copies in ``contracts/schemas/``
are compared with a fresh generation by the tests, so they can never go stale.
"""

import json
from pathlib import Path
from typing import Any

import msgspec

from sicbo_contracts import (
    board,
    dice,
    illumination,
    lifecycle,
    replies,
    results,
    settlement,
    wagers,
)

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
    "replies": replies.Reply,
    "results": results.PublicResult,
    "results-heartbeat": results.FeedHeartbeat,
}

#: Where the checked-in schemas live, beside the package.
SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


def render(name: str) -> str:
    schema = msgspec.json.schema(UNIONS[name])
    schema["title"] = f"sicbo {name}"
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


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
