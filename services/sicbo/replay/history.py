"""The log as replay reads it: per table, the facts (lifecycle and bets) and the settlements.

Pure: it takes stored messages (anything with ``seq``, ``subject``, ``data`` and ``time``, e.g.
:class:`sicbo.eventstore.StoredEvent`) in stream order and never touches the network.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

import msgspec

from sicbo.replay.audit import RoundSettlement
from sicbo.settlement.facts import FOLDED_AGGREGATES, TableLog
from sicbo_contracts.base import DECODE_ERRORS
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementAdjusted,
    SettlementVoided,
    WagersSettled,
)
from sicbo_contracts.subjects import Aggregate


class Stored(Protocol):
    @property
    def seq(self) -> int: ...
    @property
    def subject(self) -> str: ...
    @property
    def data(self) -> bytes: ...
    @property
    def time(self) -> datetime: ...


def _token(cls: type) -> str:
    return str(cls.__struct_config__.tag).replace(".", "-")  # type: ignore[attr-defined]


class _Part(msgspec.Struct):
    """A WagersSettled with its wagers left as stored JSON (decoded only if they differ)."""

    part: int
    wagers: msgspec.Raw


_SETTLE_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {
    _token(WagersSettled): msgspec.json.Decoder(_Part),
    _token(RoundSettled): msgspec.json.Decoder(RoundSettled),
    _token(SettlementAdjusted): msgspec.json.Decoder(SettlementAdjusted),
    _token(SettlementVoided): msgspec.json.Decoder(SettlementVoided),
}
_SETTLE = Aggregate.SETTLE.value
_ROUND_SETTLED = _token(RoundSettled)


@dataclass
class TableHistory:
    table: str
    log: TableLog
    settlements: dict[int, RoundSettlement] = field(default_factory=dict)
    settled_at: dict[int, datetime] = field(default_factory=dict)  # RoundSettled stored time
    undecodable: list[int] = field(default_factory=list)  # settle messages replay cannot read

    def settlement(self, round_no: int) -> RoundSettlement:
        return self.settlements.get(round_no) or RoundSettlement()


def read_tables(stored: Iterable[Stored], table: str | None = None) -> dict[str, TableHistory]:
    """Fold the log into one :class:`TableHistory` per table (only ``table`` if given)."""
    tables: dict[str, TableHistory] = {}
    for e in stored:
        tokens = e.subject.split(".", 5)
        if len(tokens) != 6:
            continue  # not an event subject of the floor's scheme
        _, _, name, aggregate, round_token, event_type = tokens
        if table is not None and name != table:
            continue
        history = tables.get(name)
        if history is None:
            history = tables[name] = TableHistory(name, TableLog(name))
        if aggregate in FOLDED_AGGREGATES:
            history.log.add_stored(e.seq, e.subject, e.data)
        elif aggregate == _SETTLE:
            decoder = _SETTLE_DECODERS.get(event_type)
            try:
                event = decoder.decode(e.data) if decoder and round_token.isdigit() else None
            except DECODE_ERRORS:
                event = None
            if event is None:  # a settlement message replay cannot read is never ignored
                history.undecodable.append(e.seq)
                continue
            round_no = int(round_token)
            recorded = history.settlements.get(round_no)
            if recorded is None:
                recorded = history.settlements[round_no] = RoundSettlement()
            if isinstance(event, _Part):
                recorded.add_part(e.seq, event.part, bytes(event.wagers))
            else:
                recorded.add(e.seq, event)
            if event_type == _ROUND_SETTLED:
                history.settled_at.setdefault(round_no, e.time)
    return tables
