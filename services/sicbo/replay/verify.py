"""Re-settle every settled round of the log and compare (pure; the CLI times and prints it).

The whole log is read once and folded per table in memory; each round is recomputed from the
facts as of its settlement and compared list to list (the engine's order), falling back to a
wager-by-wager comparison only where something differs.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime

from sicbo.replay.audit import RoundAudit, audit_round
from sicbo.replay.history import Stored, read_tables


@dataclass
class Verification:
    rounds: int = 0  # settled rounds verified
    wagers: int = 0  # wagers re-settled
    mismatches: list[RoundAudit] = field(default_factory=list)
    pending: list[tuple[str, int, int]] = field(default_factory=list)  # table, round, seq
    unsettled: list[tuple[str, int]] = field(default_factory=list)  # ended, no settlement
    undecodable: list[tuple[str, int]] = field(default_factory=list)  # table, seq

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.undecodable


def verify(
    stored: Iterable[Stored], *, table: str | None = None, since: datetime | None = None
) -> Verification:
    """Verify every settled round (of ``table``; settled at or after ``since``)."""
    result = Verification()
    for name, history in read_tables(stored, table).items():
        result.undecodable.extend((name, seq) for seq in history.undecodable)
        for round_no in sorted(set(history.log.rounds()) | set(history.settlements)):
            recorded = history.settlement(round_no)
            if not recorded.settled:
                facts = history.log.facts(round_no)
                if recorded.parts or recorded.adjustments:
                    audit = audit_round(history.log, round_no, recorded, all_rows=False)
                    result.mismatches.append(audit)
                elif facts is not None and facts.ended:
                    result.unsettled.append((name, round_no))
                continue
            if since is not None and history.settled_at[round_no] < since:
                continue
            audit = audit_round(history.log, round_no, recorded, all_rows=False)
            result.rounds += 1
            result.wagers += audit.wagers
            result.pending.extend((name, round_no, seq) for seq in audit.pending)
            if not audit.ok:
                result.mismatches.append(audit)
    return result
