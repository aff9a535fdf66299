"""The log as replay reads it: per table, the facts (lifecycle and bets) and the settlements.

Pure: it takes stored messages (anything with ``seq``, ``subject``, ``data`` and ``time``, e.g.
:class:`sicbo.eventstore.StoredEvent`) in stream order and never touches the network.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, get_args

import msgspec

from sicbo.settlement.facts import FOLDED_AGGREGATES, FactEvent, TableLog
from sicbo_contracts.base import DECODE_ERRORS
from sicbo_contracts.owners import misfiled
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementAdjusted,
    SettlementVoided,
    WagerResult,
    WagersSettled,
)
from sicbo_contracts.subjects import (
    Aggregate,
    EventSubject,
    aggregate_filter,
    parse_event_subject,
    subject_matches,
    table_of,
    token,
)

#: The bytes the settlement stored, byte for byte (one encoder, as the shell's).
encode = msgspec.json.Encoder().encode


class Stored(Protocol):
    @property
    def seq(self) -> int: ...
    @property
    def subject(self) -> str: ...
    @property
    def data(self) -> bytes: ...
    @property
    def time(self) -> datetime: ...


_results = msgspec.json.Decoder(list[WagerResult])


@dataclass
class RecordedPart:
    """One WagersSettled as stored; its wagers are decoded only when something differs (the
    common case compares the stored JSON with the recomputation's, byte for byte)."""

    part: int
    raw: bytes  # the JSON of its ``wagers`` list, as stored
    _wagers: list[WagerResult] | None = None

    @property
    def wagers(self) -> list[WagerResult]:
        if self._wagers is None:
            self._wagers = _results.decode(self.raw)
        return self._wagers


@dataclass
class RoundSettlement:
    """A round's settlement messages as stored, in log order."""

    parts: list[tuple[int, RecordedPart]] = field(default_factory=list)
    summaries: list[tuple[int, RoundSettled]] = field(default_factory=list)
    adjustments: list[tuple[int, SettlementAdjusted]] = field(default_factory=list)
    voids: list[tuple[int, SettlementVoided]] = field(default_factory=list)

    def add_part(self, seq: int, part: int, raw: bytes) -> None:
        self.parts.append((seq, RecordedPart(part, raw)))

    def add(self, seq: int, event: Any) -> None:
        if isinstance(event, WagersSettled):
            self.add_part(seq, event.part, encode(event.wagers))
        elif isinstance(event, RoundSettled):
            self.summaries.append((seq, event))
        elif isinstance(event, SettlementAdjusted):
            self.adjustments.append((seq, event))
        elif isinstance(event, SettlementVoided):
            self.voids.append((seq, event))

    @property
    def settled(self) -> bool:
        return bool(self.summaries)


class _Part(msgspec.Struct):
    """A WagersSettled with its wagers left as stored JSON (decoded only if they differ)."""

    part: int
    wagers: msgspec.Raw


_SETTLE_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {
    token(WagersSettled): msgspec.json.Decoder(_Part),
    token(RoundSettled): msgspec.json.Decoder(RoundSettled),
    token(SettlementAdjusted): msgspec.json.Decoder(SettlementAdjusted),
    token(SettlementVoided): msgspec.json.Decoder(SettlementVoided),
}
_ROUND_SETTLED = token(RoundSettled)


@dataclass
class TableHistory:
    table: str
    log: TableLog
    settlements: dict[int, RoundSettlement] = field(default_factory=dict)
    settled_at: dict[int, datetime] = field(default_factory=dict)  # RoundSettled stored time
    undecodable: list[int] = field(default_factory=list)  # settle messages replay cannot read

    def settlement(self, round_no: int) -> RoundSettlement:
        return self.settlements.get(round_no) or RoundSettlement()


#: The classes the facts fold (what ``TableLog.add_stored`` decodes a lifecycle or bets event as).
FACT_CLASSES = frozenset(get_args(FactEvent))


def read_tables(
    stored: Iterable[Stored],
    table: str | None = None,
    decoded: Sequence[tuple[Any | None, str]] | None = None,
) -> dict[str, TableHistory]:
    """Fold the log into one :class:`TableHistory` per table (only ``table`` if given).

    ``decoded``: each stored message already read as any event of the floor
    (:func:`sicbo.replay.owners.read_event`, by position), so a lifecycle or bets event is not
    decoded again: one of :data:`FACT_CLASSES` is what ``TableLog.add_stored`` would decode
    from the same bytes (both decoders are tagged unions over the same classes, so a tag of
    those classes decodes, or fails, the same in both); anything else is left to it."""
    tables: dict[str, TableHistory] = {}
    for i, e in enumerate(stored):
        parsed = parse_event_subject(e.subject)
        name = parsed.table if parsed is not None else _settlement_table(e.subject)
        if name is None or (table is not None and name != table):
            continue  # not an event subject of the floor's scheme, or another table
        history = tables.get(name)
        if history is None:
            history = tables[name] = TableHistory(name, TableLog(name))
        if parsed is None:  # a settlement message replay cannot read is never ignored
            history.undecodable.append(e.seq)
        elif parsed.aggregate.value in FOLDED_AGGREGATES:
            event = decoded[i][0] if decoded is not None else None
            if type(event) in FACT_CLASSES and not misfiled(parsed, event):
                history.log.add(e.seq, event)
            else:  # decoded again; a misfiled one is skipped there, as the services skip it
                history.log.add_stored(e.seq, e.subject, e.data)
        elif parsed.aggregate is Aggregate.SETTLE:
            _add_settlement(history, e, parsed)
    return tables


def _settlement_table(subject: str) -> str | None:
    """The table of a settlement subject the contract cannot parse (say, a round that is not a
    number); None for any other subject."""
    name = table_of(subject)
    if name is None or not subject_matches(subject, aggregate_filter(name, Aggregate.SETTLE)):
        return None
    return name


def _add_settlement(history: TableHistory, e: Stored, subject: EventSubject) -> None:
    decoder = _SETTLE_DECODERS.get(subject.token)
    try:
        event = decoder.decode(e.data) if decoder else None
    except DECODE_ERRORS:
        event = None
    if event is None:  # a settlement message replay cannot read is never ignored
        history.undecodable.append(e.seq)
        return
    recorded = history.settlements.get(subject.round)
    if recorded is None:
        recorded = history.settlements[subject.round] = RoundSettlement()
    if isinstance(event, _Part):
        recorded.add_part(e.seq, event.part, bytes(event.wagers))
    else:
        recorded.add(e.seq, event)
    if subject.token == _ROUND_SETTLED:
        history.settled_at.setdefault(subject.round, e.time)
