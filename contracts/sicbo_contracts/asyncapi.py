"""AsyncAPI 3.0 document of the public results subjects, built from msgspec's own schema.

(FastStream's generator crashes on msgspec Structs, faststream#2101.) The payload schema is
msgspec's JSON Schema of :data:`~sicbo_contracts.results.PublicResult`, with tuples written
the Draft 07 way (``items`` as a list) because an AsyncAPI Schema Object is a Draft 07
superset. ``write()`` puts it in ``contracts/asyncapi.json``; a test compares the checked-in
copy with a fresh render, so it can never go stale.
"""

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import msgspec

from sicbo_contracts.results import PublicResult, ResultStatus, RoundResult

#: Where the checked-in document lives, beside the package (and ``schemas/``).
ASYNCAPI_PATH = Path(__file__).resolve().parent.parent / "asyncapi.json"
REF = "#/components/schemas/{name}"

DESCRIPTION = """\
Public results of the Sic Bo floor for integration partners: one message per stored outcome of
a round (result, void, invalidation, cancellation, correction), in order per table, exactly once
per source event. Only outcomes stored in the floor's log are published.

Partners connect as a user of the PARTNERS account (deploy/nats/README.md) and may
- subscribe to `sicbo.results.<table>` (or `sicbo.results.>` for every table): each message
  carries the JetStream headers `Nats-Stream`, `Nats-Sequence` and `Nats-Time-Stamp` of the
  partners' copy of the feed, stream `RESULTS`, which keeps the floor's sequences;
- read the history by JetStream Direct Get on that copy: request on `$JS.API.DIRECT.GET.RESULTS`
  with `{"seq": N, "next_by_subj": "sicbo.results.>", "batch": 100}` (a batch ends with a
  status message) or `{"last_by_subj": "sicbo.results.<table>"}` for a table's last result.

Nothing else: every other publish or subscription is refused. A message's identity is
`(table, source_seq)`: drop a message seen before (e.g. a history read overlapping the live
subscription). Readers must ignore fields they do not know; a new message version would get a
new `type` tag.
"""


def _draft07(node: Any) -> Any:
    """msgspec writes Draft 2020-12 tuples (``prefixItems``); AsyncAPI schemas are Draft 07."""
    if isinstance(node, list):
        return [_draft07(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _draft07(value) for key, value in node.items()}
    if "prefixItems" in out:
        closed = out.pop("items", None) is False
        out["items"] = out.pop("prefixItems")
        if closed:
            out["additionalItems"] = False
    return out


def _examples() -> list[dict[str, Any]]:
    at = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
    common: dict[str, Any] = {
        "table": "T1",
        "paytable": "cca-1992@v1",
        "recorded_at": at,
        "published_at": at,
    }
    samples = {
        "result": RoundResult(
            round=7,
            status=ResultStatus.RESULT,
            dice=(2, 4, 6),
            total=12,
            winning_bets=[
                "big",
                "single:2",
                "single:4",
                "single:6",
                "total:12",
                "combo:2-4",
                "combo:2-6",
                "combo:4-6",
            ],
            source_seq=1041,
            **common,
        ),
        "void": RoundResult(
            round=8, status=ResultStatus.VOID, reason="dice-not-flat", source_seq=1093, **common
        ),
        "correction": RoundResult(
            round=7,
            status=ResultStatus.CORRECTION,
            dice=(2, 4, 5),
            total=11,
            winning_bets=[
                "big",
                "single:2",
                "single:4",
                "single:5",
                "total:11",
                "combo:2-4",
                "combo:2-5",
                "combo:4-5",
            ],
            corrects=(2, 4, 6),
            reason="die read as 6, shows 5",
            source_seq=1120,
            **common,
        ),
    }
    return [
        {"name": name, "payload": msgspec.to_builtins(sample)} for name, sample in samples.items()
    ]


def document() -> dict[str, Any]:
    (payload,), schemas = msgspec.json.schema_components([PublicResult], ref_template=REF)
    headers = {
        "type": "object",
        "properties": {
            "Nats-Stream": {"type": "string", "description": "The stream that stored it."},
            "Nats-Sequence": {
                "type": "string",
                "description": "Its sequence in that stream (the floor's SICBO_RESULTS).",
            },
            "Nats-Time-Stamp": {"type": "string", "description": "When it was stored."},
        },
    }
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Sic Bo public results feed",
            "version": "1.0.0",
            "description": DESCRIPTION,
        },
        "defaultContentType": "application/json",
        "servers": {
            "floor": {
                "host": "localhost:4222",
                "protocol": "nats",
                "description": "The floor's NATS server; partners authenticate as a user of "
                "the PARTNERS account (user and password, or the credentials issued).",
            }
        },
        "channels": {
            "tableResults": {
                "address": "sicbo.results.{table}",
                "title": "Results of one table",
                "parameters": {
                    "table": {
                        "description": "A table id ([A-Za-z0-9_-]{1,32}). Subscribe to "
                        "sicbo.results.> for every table."
                    }
                },
                "messages": {"roundResult": {"$ref": "#/components/messages/roundResult"}},
            }
        },
        "operations": {
            "receiveResults": {
                "action": "receive",
                "title": "Receive results",
                "summary": "Each stored outcome of a round of the table, once, in order.",
                "channel": {"$ref": "#/channels/tableResults"},
                "messages": [{"$ref": "#/channels/tableResults/messages/roundResult"}],
            }
        },
        "components": {
            "messages": {
                "roundResult": {
                    "name": "result.v1",
                    "title": "Round result",
                    "contentType": "application/json",
                    "headers": headers,
                    "payload": _draft07(payload),
                    "examples": _examples(),
                }
            },
            "schemas": _draft07(schemas),
        },
    }


def render() -> str:
    return json.dumps(document(), indent=2) + "\n"


def write(path: Path = ASYNCAPI_PATH) -> Path:
    path.write_text(render(), encoding="utf-8")
    return path


def stale(path: Path = ASYNCAPI_PATH) -> bool:
    """True when the checked-in document differs from a fresh render (or is missing)."""
    return not path.exists() or path.read_text(encoding="utf-8") != render()
