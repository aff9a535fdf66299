"""What settlement reads beside a table's state: a round older than the rounds that state keeps,
and what a round's wagers were paid so far.

A supervisor corrects the result of an earlier round too (GLI-19 §4.18.4: completed and paid,
the next rounds played since), and the table's state keeps only the newest
:data:`~sicbo.settlement.decider.KEEP_ROUNDS` rounds in memory. A round it has forgotten is read
again on its own through the shell's one read path (a :class:`~sicbo.shell.follower.Follower`
of that round's filter, ``sicbo.evt.<table>.*.<round>.>``): its RoundSettled and compensations,
its corrections, cancellation and completion are all on that round's subjects, which is every
fact an adjustment or a void needs. A settlement is never computed from such a read (the facts
of a settlement need the table's limits and the rounds carried into it): none is due there,
since a round starts only after the one before is settled (002 art. 4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from sicbo.eventstore.records import StoredEvent
from sicbo.eventstore.store import EventStore
from sicbo.settlement.compensation import apply_adjustments
from sicbo.settlement.decider import SettlementState, initial_state
from sicbo.shell.follower import Follower
from sicbo.shell.quarantine import admitted
from sicbo_contracts.base import Dice
from sicbo_contracts.settlement import SettlementAdjusted, WagerResult, WagersSettled
from sicbo_contracts.subjects import (
    Aggregate,
    EventSubject,
    parse_event_subject,
    round_filter,
    round_history,
    token,
)

#: Earlier rounds whose state is kept between jobs (each is forgotten once its job is done).
EARLIER_KEPT = 100

_WAGERS_SETTLED = token(WagersSettled)
_ADJUSTED = token(SettlementAdjusted)
_parts: msgspec.json.Decoder[WagersSettled | SettlementAdjusted] = msgspec.json.Decoder(
    WagersSettled | SettlementAdjusted
)

Evolve = Callable[[SettlementState, StoredEvent, Any], SettlementState]


def _key(table: str, round_no: int) -> str:
    return f"{table}/{round_no}"


def _filter(key: str) -> str:
    table, round_no = key.rsplit("/", 1)
    return round_history(table, int(round_no))


class EarlierRounds:
    """One round's settlement state, read from that round's events alone."""

    def __init__(
        self,
        store: EventStore,
        evolve: Evolve,
        decoder: msgspec.json.Decoder[Any],
        folded: Callable[[EventSubject], bool],
    ) -> None:
        self._rounds: Follower[SettlementState] = Follower(
            store,
            "settlement (earlier rounds)",
            _filter,
            lambda key: initial_state(key.rsplit("/", 1)[0]),
            evolve,
            decoder=decoder,
            # the summaries and the lifecycle: a round's slips are not needed to compensate it
            wants=lambda s: s.aggregate is not Aggregate.BETS and folded(s),
            max_keys=EARLIER_KEPT,
        )

    async def get(self, table: str, round_no: int, at_least: int) -> SettlementState:
        """The round's state, up to what the stream leader holds and to ``at_least``."""
        key = _key(table, round_no)
        return (await self._rounds.get(key, consistent=True, at_least=at_least)).state

    def forget(self, table: str, round_no: int) -> None:
        self._rounds.forget(_key(table, round_no))


class PaidNow(msgspec.Struct, frozen=True):
    """Every wager's result as paid now (settled, then adjusted), the dice of the last
    adjustment (None: as settled) and the last sequence of the round's settlement filter."""

    wagers: list[WagerResult]
    before_dice: Dice | None
    last: int


async def paid_wagers(store: EventStore, table: str, round_no: int) -> PaidNow:
    """What a compensating batch starts from and expects (its last sequence)."""
    results: list[WagerResult] = []
    adjustments: list[SettlementAdjusted] = []
    last = 0
    for e in await store.read(round_filter(table, Aggregate.SETTLE, round_no)):
        last = e.seq  # whatever it holds: the batch expects the filter as it is
        parsed = parse_event_subject(e.subject)
        if parsed is None or parsed.token not in (_WAGERS_SETTLED, _ADJUSTED):
            continue
        match admitted("settlement", e, _parts):  # a foreign entry: skipped, named once
            case WagersSettled(wagers=wagers):
                results.extend(wagers)
            case SettlementAdjusted() as adjusted:
                adjustments.append(adjusted)
    wagers = apply_adjustments(results, adjustments)
    return PaidNow(wagers, adjustments[-1].after if adjustments else None, last)
