"""A stored log for replay tests: the settlement builders' events, as the stream holds them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sicbo.settlement.engine import adjust, apply_adjustments, settle
from sicbo.shell.codec import encode, subject_of
from sicbo_contracts.settlement import SettlementAdjusted, WagerResult, WagersSettled
from sicbo_contracts.subjects import Aggregate
from tests.support.common import NOW, SERVICE, TABLE
from tests.support.log import Log

__all__ = ["TABLE", "Stored", "StoredLog"]


@dataclass(frozen=True)
class Stored:
    seq: int
    subject: str
    data: bytes
    time: datetime


class StoredLog:
    """Wraps a builder :class:`Log`; settlement events are appended in the same sequence."""

    def __init__(self, log: Log) -> None:
        self.log = log
        self.settle_events: list[tuple[int, str, Any]] = []  # (seq, aggregate, event)

    def _next_seq(self) -> int:
        return next(self.log._seq)  # the stream's sequence is shared by every aggregate

    def append_settle(self, event: Any) -> int:
        seq = self._next_seq()
        self.settle_events.append((seq, Aggregate.SETTLE.value, event))
        return seq

    def settle(self, round_no: int) -> list[Any]:
        events = settle(self.log.facts(round_no), actor=SERVICE, at=NOW)
        for e in events:
            self.append_settle(e)
        return events

    def recorded(self, round_no: int) -> list[WagerResult]:
        parts = [e for _, _, e in self.settle_events if isinstance(e, WagersSettled)]
        adjusted = [e for _, _, e in self.settle_events if isinstance(e, SettlementAdjusted)]
        settled = [w for p in parts if p.round == round_no for w in p.wagers]
        return apply_adjustments(settled, [a for a in adjusted if a.round == round_no])

    def adjust(self, round_no: int, before, after, correction_seq: int) -> list[Any]:
        facts = self.log.facts(round_no)
        events = adjust(
            self.recorded(round_no),
            table=TABLE,
            round_no=round_no,
            paytable=facts.paytable,
            unit=facts.unit,
            before=before,
            after=after,
            correction_seq=correction_seq,
            actor=SERVICE,
            at=NOW,
        )
        for e in events:
            self.append_settle(e)
        return events

    def stored(self) -> list[Stored]:
        rows: list[tuple[int, str, bytes]] = []
        for seq, event in self.log.events:
            aggregate = (
                Aggregate.BETS
                if type(event).__module__.endswith("wagers")
                else (Aggregate.LIFECYCLE)
            )
            rows.append((seq, subject_of(event, aggregate), encode(event)))
        for seq, _, event in self.settle_events:
            rows.append((seq, subject_of(event, Aggregate.SETTLE), encode(event)))
        rows.sort()
        return [Stored(s, subj, data, NOW + timedelta(seconds=s)) for s, subj, data in rows]
