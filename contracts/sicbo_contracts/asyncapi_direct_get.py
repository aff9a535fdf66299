"""Catching up by JetStream Direct Get on the partners' copy (NATS ADR-31, server 2.11+).

The request body is NATS's own (the server's ``JSApiMsgGetRequest``); :class:`DirectGetRequest`
writes it down so its schema and examples come from a Struct like every other contract. What
the server answers was measured on nats-server 2.15.1 (the floor's pinned version): each
matching message as stored, then, for a batch, a status message ``204 EOB``; ``404 Message Not
Found`` when nothing matches; ``408`` for a request it cannot take (``Empty Request``,
``Malformed Request``, ``Bad Request`` e.g. ``seq`` with ``last_by_subj``); ``413 Too Many
Results`` when ``multi_last`` matches more than 1024 subjects. A status message has no payload;
its code and text are the header line (``NATS/1.0 204 EOB``): nats-py shows them as the
``Status`` and ``Description`` headers, nats.js as ``msg.headers.code`` and ``.description``.
"""

from datetime import UTC, datetime
from typing import Annotated, Any

import msgspec
from msgspec import Meta

from sicbo_contracts import asyncapi_headers as headers
from sicbo_contracts.asyncapi_embed import struct_schema
from sicbo_contracts.base import Time
from sicbo_contracts.subjects import PARTNER_STREAM, RESULTS_ALL, results

API = f"$JS.API.DIRECT.GET.{PARTNER_STREAM}"
REQUEST_SCHEMA = "directGetRequest"
Seq = Annotated[int, Meta(ge=1)]
Count = Annotated[int, Meta(ge=0)]
Bytes = Annotated[int, Meta(ge=1)]


class DirectGetRequest(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """A Direct Get request (ADR-31): seq or start_time, not both; last_by_subj alone."""

    seq: Annotated[
        Seq | None, Meta(description="From this sequence on (with next_by_subj), or exactly it.")
    ] = None
    start_time: Annotated[
        Time | None,
        Meta(description="From the first message stored at or after this time (RFC 3339)."),
    ] = None
    next_by_subj: Annotated[
        str | None,
        Meta(
            description="Only messages on this subject (wildcards allowed): sicbo.results.> "
            "for every table, sicbo.results.<table> for one."
        ),
    ] = None
    last_by_subj: Annotated[
        str | None, Meta(description="The last message on this subject (a table's last result).")
    ] = None
    batch: Annotated[
        Count | None,
        Meta(
            description="Up to this many messages, then a 204 EOB status; 0 or absent: "
            "one message and no status."
        ),
    ] = None
    max_bytes: Annotated[
        Bytes | None,
        Meta(
            description="End the batch before this many bytes (at least one message is "
            "sent); the server's default is its max_pending."
        ),
    ] = None
    multi_last: Annotated[
        list[str] | None,
        Meta(
            description="The last message of each subject matching these (wildcards allowed; at "
            "most 1024 subjects, or 413): the newest result of every table."
        ),
    ] = None
    up_to_seq: Annotated[
        Seq | None, Meta(description="multi_last: as the stream was at this sequence.")
    ] = None
    up_to_time: Annotated[
        Time | None, Meta(description="multi_last: as the stream was at this time.")
    ] = None


def _request_examples() -> list[dict[str, Any]]:
    def example(name: str, summary: str, request: DirectGetRequest) -> dict[str, Any]:
        body = msgspec.json.decode(msgspec.json.encode(request))
        return {"name": name, "summary": summary, "payload": body}

    table = results("T1")
    return [
        example(
            "resume-after-sequence",
            "Every table's results after the last Nats-Sequence you hold (here 41), 100 a batch.",
            DirectGetRequest(seq=42, next_by_subj=RESULTS_ALL, batch=100),
        ),
        example(
            "from-start-time",
            "One table's results stored since a time, at most 64 KiB a batch.",
            DirectGetRequest(
                start_time=datetime(2026, 1, 1, 12, 0, tzinfo=UTC),
                next_by_subj=table,
                batch=100,
                max_bytes=65536,
            ),
        ),
        example("last-of-table", "A table's last result.", DirectGetRequest(last_by_subj=table)),
        example(
            "last-of-every-table",
            "The newest result of every table.",
            DirectGetRequest(multi_last=[RESULTS_ALL], batch=100),
        ),
    ]


EMPTY_REQUEST = {
    "name": "empty",
    "title": "Empty request",
    "summary": "No body: the subject names what to read (a body is refused with 408).",
}


def _message(name: str, title: str, summary: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "title": title, "summary": summary, **more}


def _status(code: int, text: str, summary: str, **more: Any) -> dict[str, Any]:
    return _message(
        f"status.{code}",
        f"{code} {text}",
        summary,
        description="No payload; the status is the header line "
        f"`NATS/1.0 {code} {text}` (nats-py: headers Status={code}, Description={text}).",
        **{"x-nats-status": {"code": code, "description": text}},
        **more,
    )


def messages(result_payload: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The request and every reply message, for ``components.messages``."""
    return {
        "emptyRequest": EMPTY_REQUEST,
        "directGetRequest": _message(
            "direct-get-request",
            "Direct Get request",
            "What to read from the partners' copy.",
            contentType="application/json",
            payload={"$ref": f"#/components/schemas/{REQUEST_SCHEMA}"},
            examples=_request_examples(),
        ),
        "storedResult": _message(
            "result.v1",
            "A stored result",
            "One matching result as stored, with its stream headers.",
            contentType="application/json",
            headers=headers.DIRECT_GET_RESULT,
            payload=result_payload,
        ),
        "endOfBatch": _status(
            204,
            "EOB",
            "The batch is complete. Nats-Num-Pending 0: you are caught up; otherwise ask again "
            "from Nats-Last-Sequence + 1.",
            headers=headers.END_OF_BATCH,
            examples=[
                {
                    "name": "caught-up",
                    "headers": {"Nats-Num-Pending": "0", "Nats-Last-Sequence": "45"},
                }
            ],
        ),
        "notFound": _status(404, "Message Not Found", "Nothing matches (yet): you are caught up."),
        "badRequest": _status(
            408,
            "Bad Request",
            "The request was refused: 'Empty Request', 'Malformed Request' (not JSON) or 'Bad "
            "Request' (e.g. seq with last_by_subj, or a body on the subject-appended form).",
        ),
        "tooManyResults": _status(
            413, "Too Many Results", "multi_last matched more than 1024 subjects."
        ),
    }


_REPLIES = ("storedResult", "endOfBatch", "notFound", "badRequest", "tooManyResults")


def channels() -> dict[str, dict[str, Any]]:
    def refs(*names: str) -> dict[str, dict[str, str]]:
        return {name: {"$ref": f"#/components/messages/{name}"} for name in names}

    return {
        "directGet": {
            "address": API,
            "title": "Direct Get on the partners' copy",
            "description": "Request/reply: publish a request with a reply subject (an inbox "
            "under `_INBOX.`, the only other subjects a partner may subscribe to).",
            "messages": refs("directGetRequest"),
        },
        "directGetLast": {
            "address": f"{API}.sicbo.results.{{table}}",
            "title": "A table's last result (subject-appended Direct Get)",
            "description": "Request with an empty body: the table's last stored result.",
            "parameters": {"table": {"description": "A table id ([A-Za-z0-9_-]{1,32})."}},
            "messages": refs("emptyRequest"),
        },
        "directGetReplies": {
            "address": None,
            "title": "Direct Get replies",
            "description": "The request's reply subject (your inbox), chosen by your client.",
            "messages": refs(*_REPLIES),
        },
    }


def operations() -> dict[str, dict[str, Any]]:
    def reply(*names: str) -> dict[str, Any]:
        return {
            "channel": {"$ref": "#/channels/directGetReplies"},
            "messages": [{"$ref": f"#/channels/directGetReplies/messages/{n}"} for n in names],
        }

    return {
        "catchUp": {
            "action": "send",
            "title": "Catch up by Direct Get",
            "summary": "Read stored results by sequence, by time, or the last of each table.",
            "description": "After connecting, or when Nats-Last-Sequence shows a gap: request "
            "`{seq: <last Nats-Sequence + 1>, next_by_subj: 'sicbo.results.>', batch: N}` and "
            "take the results until `204 EOB`; repeat from its Nats-Last-Sequence + 1 while "
            "Nats-Num-Pending is above 0. `404` means nothing more. Subscribe first, then catch "
            "up, and drop a result whose (table, source_seq) you have: nothing falls between.",
            "channel": {"$ref": "#/channels/directGet"},
            "messages": [{"$ref": "#/channels/directGet/messages/directGetRequest"}],
            "reply": reply(*_REPLIES),
        },
        "lastResultOfTable": {
            "action": "send",
            "title": "A table's last result",
            "summary": "The newest stored result of one table, or 404.",
            "channel": {"$ref": "#/channels/directGetLast"},
            "messages": [{"$ref": "#/channels/directGetLast/messages/emptyRequest"}],
            "reply": reply("storedResult", "notFound", "badRequest"),
        },
    }


def request_schema() -> dict[str, Any]:
    return struct_schema(DirectGetRequest, REQUEST_SCHEMA)
