"""What the public feed says about one stored event (pure: no clock, no I/O).

The source events are the round outcomes of the lifecycle aggregate: a confirmed result, no
result, an invalidation, a cancellation, a correction. Each becomes exactly one
:class:`~sicbo_contracts.results.RoundResult`; the winning bets are evaluated with the paytable
the round was started under (``RoundStarted.paytable``), as settlement does.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

import msgspec

from sicbo.game.dice import make_roll
from sicbo.game.evaluation import winning_bets
from sicbo.game.profiles import parse_paytable_ref
from sicbo_contracts.base import Dice
from sicbo_contracts.dice import ResultConfirmed, ResultCorrected
from sicbo_contracts.lifecycle import (
    NoResultDeclared,
    RoundCancelled,
    RoundInvalidated,
    RoundStarted,
)
from sicbo_contracts.results import ResultStatus, RoundResult
from sicbo_contracts.subjects import (
    TABLE_ROUND,
    Aggregate,
    EventSubject,
    parse_event_subject,
    token,
    tokens,
)

SourceEvent = (
    ResultConfirmed | NoResultDeclared | RoundInvalidated | RoundCancelled | ResultCorrected
)
SOURCE_TYPES: tuple[type, ...] = (
    ResultConfirmed,
    NoResultDeclared,
    RoundInvalidated,
    RoundCancelled,
    ResultCorrected,
)


#: Last subject token of every source event: a lifecycle event with another token is skipped.
SOURCE_TOKENS = tokens(*SOURCE_TYPES)
ROUND_STARTED = token(RoundStarted)

source_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(SourceEvent)
round_started_decoder = msgspec.json.Decoder(RoundStarted)


def is_source(subject: str | EventSubject | None) -> bool:
    """True for a round's (not the table's) lifecycle event of a source type."""
    parsed = parse_event_subject(subject) if isinstance(subject, str) else subject
    return (
        parsed is not None
        and parsed.aggregate is Aggregate.LIFECYCLE
        and parsed.round != TABLE_ROUND
        and parsed.token in SOURCE_TOKENS
    )


def winners(paytable: str, dice: Dice) -> list[str]:
    """Every bet id the paytable offers that wins on ``dice``, in catalogue order."""
    return [bet.id for bet in winning_bets(parse_paytable_ref(paytable), make_roll(dice))]


def _rolled(paytable: str, dice: Dice) -> dict[str, Any]:
    """The dice of a result, sorted as the feed shows them, their total and the winning bets."""
    roll = make_roll(dice)
    return {"dice": roll, "total": sum(roll), "winning_bets": winners(paytable, roll)}


def superseded(outcomes: Iterable[int], source_seq: int) -> int | None:
    """The message a round's outcome at ``source_seq`` replaces: the round's latest earlier
    outcome (``outcomes`` are the source sequences of the round's outcomes), if any."""
    return max((seq for seq in outcomes if seq < source_seq), default=None)


def round_result(
    event: SourceEvent,
    *,
    paytable: str,
    source_seq: int,
    published_at: datetime,
    supersedes: int | None = None,
) -> RoundResult:
    """The public message for one stored source event; ``supersedes`` is the source sequence
    of the round's message it replaces (:func:`superseded`)."""
    common: dict[str, Any] = {
        "table": event.table,
        "round": event.round,
        "paytable": paytable,
        "recorded_at": event.at,
        "published_at": published_at,
        "source_seq": source_seq,
        "supersedes": supersedes,
    }
    match event:
        case ResultConfirmed(dice=dice):
            return RoundResult(status=ResultStatus.RESULT, **_rolled(paytable, dice), **common)
        case ResultCorrected(before=before, after=after, reason=reason):
            return RoundResult(
                status=ResultStatus.CORRECTION,
                corrects=make_roll(before),
                reason=reason,
                **_rolled(paytable, after),
                **common,
            )
        case NoResultDeclared(reason=no_result):
            return RoundResult(status=ResultStatus.VOID, reason=no_result.value, **common)
        case RoundInvalidated(reason=invalidation):
            return RoundResult(status=ResultStatus.INVALIDATED, reason=invalidation.value, **common)
        case RoundCancelled(reason=reason):
            return RoundResult(status=ResultStatus.CANCELLED, reason=reason, **common)
    raise TypeError(f"not a source event of the results feed: {type(event).__name__}")
