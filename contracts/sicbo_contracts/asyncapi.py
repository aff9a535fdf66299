"""AsyncAPI 3.0 document of what a results-feed partner receives and may ask, all of it.

Built from the contracts, not written by hand (FastStream's generator crashes on msgspec Structs,
faststream#2101): the payload schemas are the published JSON Schemas in their own dialect
(:mod:`.asyncapi_embed`), the servers and security schemes are :mod:`.asyncapi_servers`, every
header :mod:`.asyncapi_headers`, the catch-up by Direct Get :mod:`.asyncapi_direct_get`, the
examples Structs encoded by msgspec (:mod:`.asyncapi_examples`). ``write()`` puts it in
``contracts/asyncapi.json`` (``make schemas``); a test compares the checked-in copy with a fresh
render, so it can never go stale, and validates it against AsyncAPI's own JSON Schema.
"""

import json
from pathlib import Path
from typing import Any

from sicbo_contracts import asyncapi_direct_get as direct_get
from sicbo_contracts import asyncapi_headers as headers
from sicbo_contracts import asyncapi_heartbeat as heartbeats
from sicbo_contracts.asyncapi_embed import embedded
from sicbo_contracts.asyncapi_examples import live_examples
from sicbo_contracts.asyncapi_servers import SECURITY_SCHEMES, SERVERS
from sicbo_contracts.base import tag_of
from sicbo_contracts.results import RoundResult
from sicbo_contracts.subjects import PARTNER_STREAM
from sicbo_contracts.version import CONTRACT_VERSION

#: Where the checked-in document lives, beside the package (and ``schemas/``).
ASYNCAPI_PATH = Path(__file__).resolve().parent.parent / "asyncapi.json"
#: The schema file (``contracts/schemas/<name>.json``) of the feed's messages.
RESULTS_SCHEMA = "results"
#: Where the kit is published; ``.example`` (RFC 2606) stands for the operator's own address.
KIT_URL = "https://sicbo.example/partners/"
CHANGELOG = "contracts/CHANGELOG.md"

DESCRIPTION = f"""\
Public results of the Sic Bo floor for integration partners: one message per stored outcome of
a round (result, void, invalidation, cancellation, correction), in order per table, exactly once
per source event. Only outcomes stored in the floor's log are published.

You connect with an nkey of your own, into an account of your own (`PARTNER_<NAME>`, made by
the operator's `sicbo partners add`; deploy/nats/README.md, "Partners"), over TLS (see
`servers`); the quick-start is docs/partners.md. You may do exactly this; every other publish
or subscription is refused, and nothing another partner does reaches your account:
- subscribe to `sicbo.results.<table>` (or `sicbo.results.*` for every table): the copy
  `{PARTNER_STREAM}` republishes each result it stores, with its stream headers (operation
  `receiveResults`);
- subscribe to `sicbo.results.<table>.heartbeat` (or `sicbo.results.*.heartbeat`): every few
  seconds each table's last result, so that silence means something (operation
  `receiveHeartbeats`); `sicbo.results.>` matches both kinds, told apart by `type`;
- read what is stored by JetStream Direct Get on that copy, by sequence, by time, or the last
  of each table (operations `catchUp` and `lastResultOfTable`).

A message's identity is `(table, source_seq)`: drop one you have (a catch-up overlapping the
live subscription). A correction or an invalidation names in `supersedes` the `source_seq` of
the round's message it replaces. Per table, `Nats-Last-Sequence` names the message before it: a
gap shows. What to do with each status: docs/feed.md.
Readers must ignore fields and headers they do not know. The payload schema is
`contracts/schemas/{RESULTS_SCHEMA}.json` (JSON Schema 2020-12), embedded here unchanged but for
where its `$ref`s point and its `$schema` and `$id` (the `schemaFormat` names the dialect).

Versions: this document and the schemas carry the contract version (`info.version`). What
changed in each, and how a message type is replaced (a new `type` tag such as `result.v2`,
published beside the old one for a stated time, announced in the changelog first) is in
[{CHANGELOG}](CHANGELOG.md), "Deprecation policy".
"""


def _ref(kind: str, name: str) -> dict[str, str]:
    return {"$ref": f"#/components/{kind}/{name}"}


def _results_channel() -> dict[str, Any]:
    return {
        "address": "sicbo.results.{table}",
        "title": "Results of one table",
        "description": "Republished by the copy once stored, into your account: only stored "
        "results, each once. Your account is yours alone: a Direct Get reply can arrive here "
        "only if you aimed one of your own requests at this subject.",
        "parameters": {
            "table": {
                "description": "A table id ([A-Za-z0-9_-]{1,32}). Subscribe to "
                "sicbo.results.* for every table."
            }
        },
        "messages": {"roundResult": _ref("messages", "roundResult")},
    }


def _round_result() -> dict[str, Any]:
    return {
        "name": tag_of(RoundResult),
        "title": "Round result",
        "summary": "One stored outcome of a round (see `status`).",
        "contentType": "application/json",
        "headers": headers.LIVE_RESULT,
        "payload": _ref("schemas", RESULTS_SCHEMA),
        "examples": live_examples(),
    }


def document() -> dict[str, Any]:
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Sic Bo public results feed",
            "version": CONTRACT_VERSION,
            "description": DESCRIPTION,
            "externalDocs": {
                "description": f"Changelog and deprecation policy of the contracts ({CHANGELOG})",
                "url": f"{KIT_URL}{CHANGELOG}",
            },
        },
        "defaultContentType": "application/json",
        "servers": SERVERS,
        "channels": {
            "tableResults": _results_channel(),
            heartbeats.CHANNEL: heartbeats.channel(),
            **direct_get.channels(),
        },
        "operations": {
            "receiveResults": {
                "action": "receive",
                "title": "Receive results",
                "summary": "Each stored outcome of a round of the table, once, in order.",
                "channel": {"$ref": "#/channels/tableResults"},
                "messages": [{"$ref": "#/channels/tableResults/messages/roundResult"}],
            },
            heartbeats.OPERATION: heartbeats.operation(),
            **direct_get.operations(),
        },
        "components": {
            "schemas": {
                RESULTS_SCHEMA: embedded(RESULTS_SCHEMA),
                heartbeats.SCHEMA: embedded(heartbeats.SCHEMA),
                direct_get.REQUEST_SCHEMA: direct_get.request_schema(),
            },
            "messages": {
                "roundResult": _round_result(),
                heartbeats.MESSAGE: heartbeats.message(_ref("schemas", heartbeats.SCHEMA)),
                **direct_get.messages(_ref("schemas", RESULTS_SCHEMA)),
            },
            "securitySchemes": SECURITY_SCHEMES,
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
