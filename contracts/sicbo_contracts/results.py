"""The public results feed for integration partners: one message per stored outcome.

Subject ``sicbo.results.<table>`` on stream ``SICBO_RESULTS`` (apart from the internal log).
The feed service derives every message from the floor's log (GLI-19 §C.6.4(d): only what is
stored is published), in log order per table, exactly once per source event:

- ``result``: the round's result was confirmed (``dice``, ``total``, ``winning_bets``);
- ``void``: no result was declared (``reason`` is the code, e.g. ``dice-not-flat``);
- ``invalidated``: the round was invalidated (``reason`` is the code, e.g. ``fire``), also
  after a result was published, which it then supersedes;
- ``cancelled``: the round was cancelled (004; ``reason`` is the supervisor's text);
- ``correction``: a supervisor corrected the result: ``dice`` is the corrected result,
  ``corrects`` the dice it replaces, ``winning_bets`` the winners on the corrected dice.

``source_seq`` (the stream sequence of the source event in the floor's log) identifies a
message: a reader that may see one twice (e.g. after reconnecting) drops the repeat. A message
that replaces an earlier one of its round (a correction, an invalidation after the result)
names it: ``supersedes`` is that message's ``source_seq``. Readers ignore fields they do not
know, so optional fields may be added within ``result.v1`` (``supersedes`` was).

``sicbo.results.<table>.heartbeat`` carries a :class:`FeedHeartbeat` every few seconds per
table that has results: the table's last published result (its results-stream sequence and
its ``source_seq``) and when that was read, so silence and gaps mean something (docs/feed.md).
A reader of ``sicbo.results.>`` gets both kinds and tells them apart by ``type``
(:data:`FeedMessage`); ``sicbo.results.*`` is the results alone.
"""

from enum import StrEnum
from typing import Annotated

import msgspec
from msgspec import Meta

from sicbo_contracts.base import Dice, RoundNo, TableId, Time

Total = Annotated[int, Meta(ge=3, le=18)]
SourceSeq = Annotated[int, Meta(ge=1)]


class ResultStatus(StrEnum):
    RESULT = "result"
    VOID = "void"
    INVALIDATED = "invalidated"
    CANCELLED = "cancelled"
    CORRECTION = "correction"


class RoundResult(msgspec.Struct, frozen=True, kw_only=True, tag="result.v1", tag_field="type"):
    """One public outcome of one round of one table (statuses: see ``status``)."""

    table: Annotated[TableId, Meta(description="The table id.")]
    round: Annotated[RoundNo, Meta(description="The round number on that table.")]
    status: Annotated[
        ResultStatus,
        Meta(
            description="result: the confirmed result; void: no result was declared; "
            "invalidated: the round was invalidated (it supersedes a result published before); "
            "cancelled: the round was cancelled; correction: a supervisor corrected the result."
        ),
    ]
    paytable: Annotated[
        str,
        Meta(description="The paytable the round was played under, e.g. cca-1992@v1."),
    ]
    dice: Annotated[
        Dice | None,
        Meta(description="Lowest to highest; for result and correction (the corrected dice)."),
    ] = None
    total: Annotated[Total | None, Meta(description="The sum of the dice.")] = None
    winning_bets: Annotated[
        list[str],
        Meta(description="Every bet id of the paytable that wins on these dice."),
    ] = []
    reason: Annotated[
        str | None,
        Meta(
            description="void and invalidated: a code (e.g. dice-not-flat, fire); "
            "cancelled and correction: the supervisor's text."
        ),
    ] = None
    corrects: Annotated[Dice | None, Meta(description="correction: the dice it replaces.")] = None
    recorded_at: Annotated[Time, Meta(description="When the outcome was recorded on the floor.")]
    published_at: Annotated[Time, Meta(description="When this message was published.")]
    source_seq: Annotated[
        SourceSeq,
        Meta(
            description="Sequence of the source event in the floor's log: the message's "
            "identity (drop a repeat) and its order within a table."
        ),
    ]
    supersedes: Annotated[
        SourceSeq | None,
        Meta(
            description="The source_seq of the earlier message of the same round this one "
            "replaces (a correction replaces the result or the previous correction; an "
            "invalidation or a cancellation replaces the result published before it); "
            "absent when it replaces nothing. The round's newest message is its outcome."
        ),
    ] = None


#: Every published message type (one version today; a ``result.v2`` would join this union).
PublicResult = RoundResult


class FeedHeartbeat(
    msgspec.Struct, frozen=True, kw_only=True, tag="heartbeat.v1", tag_field="type"
):
    """The feed is alive and this is the table's last published result (docs/feed.md)."""

    table: Annotated[TableId, Meta(description="The table id.")]
    last_seq: Annotated[
        int,
        Meta(
            ge=0,
            description="Results-stream sequence (Nats-Sequence) of the table's last message "
            "on sicbo.results.<table> when this heartbeat was stored; 0: none yet.",
        ),
    ]
    last_source_seq: Annotated[
        int,
        Meta(ge=0, description="That message's source_seq; 0: none yet."),
    ]
    at: Annotated[Time, Meta(description="When the feed read that last message.")]
    interval_s: Annotated[
        int,
        Meta(ge=1, description="Seconds until the next heartbeat of this table is due."),
    ]


#: Anything on ``sicbo.results.>``: a table's results and its heartbeats, told apart by ``type``.
FeedMessage = RoundResult | FeedHeartbeat
