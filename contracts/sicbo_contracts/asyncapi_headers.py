"""Every header a partner receives, as measured on nats-server 2.15.1 (the version the floor
pins) with the partners' copy as :mod:`sicbo.results.partners` makes it.

A live result is the copy's republish of what it stored: the header the feed published it with
(``Nats-Msg-Id``) and the ones the copy adds (``Nats-Stream`` ... ``Nats-Last-Sequence``). The
feed's publish expectation (``Nats-Expected-Last-Subject-Sequence``) is checked and not stored
by the server, and the feed publishes without the floor's trace context (``traceparent``), so
neither reaches a partner. A Direct Get reply carries the stored header too, and the reply's
own (``Nats-Num-Pending`` and ``Nats-Last-Sequence`` only in a batch, ADR-31).

NATS header values are strings; sequences are decimal. Readers ignore headers they do not
know (a newer server may add one).
"""

from typing import Any

from sicbo_contracts.subjects import PARTNER_STREAM, results

_SEQ = r"^[1-9][0-9]*$"
_COUNT = r"^(0|[1-9][0-9]*)$"


def text(description: str, **more: Any) -> dict[str, Any]:
    return {"type": "string", "description": description, **more}


MSG_ID = text(
    "`result-<source_seq>`: the feed's idempotency key (the server drops a second publish of it "
    "within the duplicate window); the same as the payload's `source_seq`.",
    pattern=r"^result-[1-9][0-9]*$",
)
STREAM = text(
    f"The stream that stored it: the partners' copy, `{PARTNER_STREAM}`.", const=PARTNER_STREAM
)
SUBJECT = text(
    "The subject it was stored on, `sicbo.results.<table>`.",
    pattern=r"^sicbo\.results\.[A-Za-z0-9_-]{1,32}$",
)
SEQUENCE = text(
    "Its sequence in the copy, the same as in the floor's `SICBO_RESULTS` (a mirror keeps the "
    "source's sequences): the `seq` to resume a Direct Get after.",
    pattern=_SEQ,
)
TIME_STAMP = text(
    "When the floor's `SICBO_RESULTS` stored it (the copy keeps that time), RFC 3339 in UTC "
    "with up to nanoseconds, e.g. `2026-01-01T12:00:00.123456789Z`: what `start_time` compares.",
)
LIVE_LAST_SEQUENCE = text(
    "The sequence of the previous message on the same subject (the same table), `0` for the "
    "table's first: when it is not the last `Nats-Sequence` you saw of that table, you missed "
    "a message; read it by Direct Get.",
    pattern=_COUNT,
)
NUM_PENDING = text(
    "Messages still matching the request after this one (a batch's end: after the batch).",
    pattern=_COUNT,
)
BATCH_LAST_SEQUENCE = text(
    "In a batch: the sequence of the message sent before this one in the same reply, `0` for "
    "the first.",
    pattern=_COUNT,
)
EOB_LAST_SEQUENCE = text(
    "The sequence of the batch's last message: ask the next batch from this plus 1.",
    pattern=_COUNT,
)
UP_TO_SEQUENCE = text(
    "`multi_last` only: the stream's last sequence the answer was taken at; send it as "
    "`up_to_seq` with the next page's request for the same point in time.",
    pattern=_COUNT,
)


def object_of(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {**required, **(optional or {})},
        "required": list(required),
    }


_STORED = {
    "Nats-Msg-Id": MSG_ID,
    "Nats-Stream": STREAM,
    "Nats-Subject": SUBJECT,
    "Nats-Sequence": SEQUENCE,
    "Nats-Time-Stamp": TIME_STAMP,
}

#: A result as a subscriber of ``sicbo.results.<table>`` receives it.
LIVE_RESULT = object_of({**_STORED, "Nats-Last-Sequence": LIVE_LAST_SEQUENCE})
#: A result in a Direct Get reply (the batch headers only when the request had ``batch``).
DIRECT_GET_RESULT = object_of(
    _STORED, {"Nats-Num-Pending": NUM_PENDING, "Nats-Last-Sequence": BATCH_LAST_SEQUENCE}
)
#: The status message that ends a batch (``204 EOB``).
END_OF_BATCH = object_of(
    {"Nats-Num-Pending": NUM_PENDING, "Nats-Last-Sequence": EOB_LAST_SEQUENCE},
    {"Nats-UpTo-Sequence": UP_TO_SEQUENCE},
)


def live_headers(
    table: str, seq: int, previous: int, stored_at: str, source_seq: int
) -> dict[str, str]:
    """The headers of a live result, as the copy republishes it (for the examples)."""
    return {
        "Nats-Msg-Id": f"result-{source_seq}",
        "Nats-Stream": PARTNER_STREAM,
        "Nats-Subject": results(table),
        "Nats-Sequence": str(seq),
        "Nats-Time-Stamp": stored_at,
        "Nats-Last-Sequence": str(previous),
    }
