"""Examples of every status of a result, made of the contract's own Structs and encoded by
msgspec as the feed encodes them, so an example cannot say what the contract does not.

One table's story, in feed order: round 7's result, round 8 without one, round 9 invalidated,
round 10 cancelled, then round 7 corrected. Each comes with the headers the partners' copy
republishes it with (:func:`~sicbo_contracts.asyncapi_headers.live_headers`).
"""

from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from sicbo_contracts.asyncapi_headers import live_headers
from sicbo_contracts.invalidation import InvalidationReason
from sicbo_contracts.lifecycle import NoResultReason
from sicbo_contracts.results import ResultStatus, RoundResult

TABLE = "T1"
PAYTABLE = "cca-1992@v1"
START = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)
#: The copy's sequence of the first example (the one before it on the table is this minus 1).
FIRST_SEQ = 41
#: What the feed takes from recording an outcome to publishing it, in the examples.
PUBLISH_LAG = timedelta(milliseconds=13)

# (summary, the outcome without its common fields, minutes after START it was recorded)
_STORY: list[tuple[str, dict[str, Any], int]] = [
    (
        "A confirmed result: the dice, their total and every bet of the paytable they win.",
        {
            "round": 7,
            "status": ResultStatus.RESULT,
            "dice": (2, 4, 6),
            "total": 12,
            "winning_bets": [
                "big",
                "single:2",
                "single:4",
                "single:6",
                "total:12",
                "combo:2-4",
                "combo:2-6",
                "combo:4-6",
            ],
            "source_seq": 1041,
        },
        0,
    ),
    (
        "No result was declared (000 §7): `reason` is the code; no dice.",
        {
            "round": 8,
            "status": ResultStatus.VOID,
            "reason": NoResultReason.DICE_NOT_FLAT.value,
            "source_seq": 1093,
        },
        1,
    ),
    (
        "The round was invalidated (000 §8.4): `reason` is the code. None of the round's "
        "results was published before, so it supersedes nothing; an invalidation after a "
        "result (even a paid one) names that result's `source_seq` in `supersedes`.",
        {
            "round": 9,
            "status": ResultStatus.INVALIDATED,
            "reason": InvalidationReason.FIRE.value,
            "source_seq": 1150,
        },
        2,
    ),
    (
        "The round was cancelled (004): `reason` is the supervisor's text; no dice.",
        {
            "round": 10,
            "status": ResultStatus.CANCELLED,
            "reason": "shaker jammed before the dice were shown",
            "source_seq": 1201,
        },
        3,
    ),
    (
        "A supervisor corrected round 7's result: `dice` are the corrected dice, `corrects` "
        "the dice they replace, `winning_bets` the winners on the corrected dice, "
        "`supersedes` the `source_seq` of the result it replaces (re-settle round 7).",
        {
            "round": 7,
            "status": ResultStatus.CORRECTION,
            "dice": (2, 4, 5),
            "total": 11,
            "winning_bets": [
                "big",
                "single:2",
                "single:4",
                "single:5",
                "total:11",
                "combo:2-4",
                "combo:2-5",
                "combo:4-5",
            ],
            "corrects": (2, 4, 6),
            "reason": "die read as 6, shows 5",
            "source_seq": 1230,
            "supersedes": 1041,
        },
        4,
    ),
]


def _stamp(at: datetime) -> str:
    """A time as NATS writes ``Nats-Time-Stamp`` (RFC 3339, UTC, nanoseconds)."""
    return at.strftime("%Y-%m-%dT%H:%M:%S.%f") + "000Z"


def results() -> list[RoundResult]:
    """The story's messages, in feed order."""
    out = []
    for _, fields, minutes in _STORY:
        recorded = START + timedelta(minutes=minutes)
        out.append(
            RoundResult(
                table=TABLE,
                paytable=PAYTABLE,
                recorded_at=recorded,
                published_at=recorded + PUBLISH_LAG,
                **fields,
            )
        )
    return out


def encoded(message: Any) -> Any:
    """A message as JSON values, exactly as msgspec encodes it on the wire."""
    return msgspec.json.decode(msgspec.json.encode(message))


def live_examples() -> list[dict[str, Any]]:
    """Message Example Objects of the live feed: one of every status, with its headers."""
    examples = []
    for n, ((summary, _, _), result) in enumerate(zip(_STORY, results(), strict=True)):
        seq = FIRST_SEQ + n
        examples.append(
            {
                "name": result.status.value,
                "summary": summary,
                "headers": live_headers(
                    result.table, seq, seq - 1, _stamp(result.published_at), result.source_seq
                ),
                "payload": encoded(result),
            }
        )
    return examples
