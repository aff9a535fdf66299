"""The feed's heartbeat in the AsyncAPI document: its channel, message, headers and example.

Every few seconds the results service stores a ``heartbeat.v1`` per table on
``sicbo.results.<table>.heartbeat`` (docs/feed.md, "Heartbeat"). It takes the results' own path
(stored in ``SICBO_RESULTS``, mirrored into the copy, republished into each partner's account),
so silence for three intervals means the path is broken, not that the table is quiet. It names
the table's last result as the copy numbers it: a partner compares it with the last one it has.
It leaves the streams by its ``Nats-TTL`` (three intervals).
"""

from datetime import UTC, datetime
from typing import Any

import msgspec

from sicbo_contracts import asyncapi_examples as examples
from sicbo_contracts import asyncapi_headers as headers
from sicbo_contracts.base import tag_of
from sicbo_contracts.results import FeedHeartbeat
from sicbo_contracts.subjects import HEARTBEAT, PARTNER_STREAM, heartbeat

SCHEMA = "results-heartbeat"
CHANNEL = "tableHeartbeat"
MESSAGE = "feedHeartbeat"
OPERATION = "receiveHeartbeats"

MSG_ID = headers.text(
    "`heartbeat-<table>-<interval>s-<n>`: one per table and interval on every replica, so a "
    "heartbeat is stored once however many results services beat.",
    pattern=r"^heartbeat-[A-Za-z0-9_-]{1,32}-[1-9][0-9]*s-(0|[1-9][0-9]*)$",
)
TTL = headers.text(
    "How long the streams keep it (three intervals, e.g. `15s`): the copy holds a table's last "
    "few heartbeats only.",
    pattern=r"^[1-9][0-9]*s$",
)
SUBJECT = headers.text(
    "The subject it was stored on, `sicbo.results.<table>.heartbeat`.",
    pattern=r"^sicbo\.results\.[A-Za-z0-9_-]{1,32}\.heartbeat$",
)
LAST_SEQUENCE = headers.text(
    "The sequence of the table's previous heartbeat still stored, `0` if none: heartbeats "
    "expire, so gaps here mean nothing (check the results' own `Nats-Last-Sequence`).",
    pattern=r"^(0|[1-9][0-9]*)$",
)
HEADERS = headers.object_of(
    {
        "Nats-Msg-Id": MSG_ID,
        "Nats-TTL": TTL,
        "Nats-Stream": headers.STREAM,
        "Nats-Subject": SUBJECT,
        "Nats-Sequence": headers.SEQUENCE,
        "Nats-Time-Stamp": headers.TIME_STAMP,
        "Nats-Last-Sequence": LAST_SEQUENCE,
    }
)

#: After the live examples' story: its last message is the table's last result.
_LAST_SEQ = examples.FIRST_SEQ + len(examples.results()) - 1
_EXAMPLE = FeedHeartbeat(
    table=examples.TABLE,
    last_seq=_LAST_SEQ,
    last_source_seq=examples.results()[-1].source_seq,
    at=datetime(2026, 1, 1, 12, 30, 0, tzinfo=UTC),
    interval_s=5,
)


def channel() -> dict[str, Any]:
    return {
        "address": f"sicbo.results.{{table}}.{HEARTBEAT}",
        "title": "Heartbeat of one table",
        "description": "The feed is alive and this is the table's last result (docs/feed.md). "
        "Subscribe to `sicbo.results.*.heartbeat` for every table's; `sicbo.results.>` "
        "matches results and heartbeats together, told apart by `type`.",
        "parameters": {"table": {"description": "A table id ([A-Za-z0-9_-]{1,32})."}},
        "messages": {MESSAGE: {"$ref": f"#/components/messages/{MESSAGE}"}},
    }


def operation() -> dict[str, Any]:
    return {
        "action": "receive",
        "title": "Receive heartbeats",
        "summary": "A table's last result every interval (`interval_s`), through the copy.",
        "description": "No heartbeat for three intervals: the feed or the path to you is "
        "broken. A heartbeat whose `last_source_seq` is newer than the newest `source_seq` you "
        "have of the table (equally: its `last_seq` than the newest `Nats-Sequence`): you "
        "missed a result; read it by Direct Get.",
        "channel": {"$ref": f"#/channels/{CHANNEL}"},
        "messages": [{"$ref": f"#/channels/{CHANNEL}/messages/{MESSAGE}"}],
    }


def message(payload: dict[str, str]) -> dict[str, Any]:
    return {
        "name": tag_of(FeedHeartbeat),
        "title": "Feed heartbeat",
        "summary": "The table's last result, as of `at`; the next is due in `interval_s`.",
        "contentType": "application/json",
        "headers": HEADERS,
        "payload": payload,
        "examples": [
            {
                "name": "heartbeat",
                "summary": f"Table {_EXAMPLE.table}'s last result is the copy's message "
                f"{_EXAMPLE.last_seq} (source_seq {_EXAMPLE.last_source_seq}).",
                "headers": {
                    "Nats-Msg-Id": f"heartbeat-{_EXAMPLE.table}-5s-356727600",
                    "Nats-TTL": "15s",
                    "Nats-Stream": PARTNER_STREAM,
                    "Nats-Subject": heartbeat(_EXAMPLE.table),
                    "Nats-Sequence": str(_LAST_SEQ + 1),
                    "Nats-Time-Stamp": "2026-01-01T12:30:00.004Z",
                    "Nats-Last-Sequence": "0",
                },
                "payload": msgspec.to_builtins(_EXAMPLE),
            }
        ],
    }
