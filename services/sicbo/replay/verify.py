"""Re-settle every settled round of the log and compare, and check the log's own invariants
(pure; the CLI times and prints it).

The whole log is read once and folded per table in memory; each round is recomputed from the
facts as of its settlement and its stored wager results compared byte for byte with the
recomputation's, falling back to a wager-by-wager comparison only where something differs.
Tables are independent, so :func:`verify_parallel` spreads them over worker processes (forked:
they inherit the log already read, nothing is copied to them); :mod:`.spread` goes further,
each worker reading its own tables from NATS, where every message is on its table's subject.

The log's invariants (:mod:`.invariants`: no slip outside betting, each event on its owner's
subject by a role that writes it, no round before the last was settled and completed, every
wager settled once, corrections and compensations chained to what they follow, promotional
tokens staked as issued and once) are checked over the same events, table by table; each
violation is a :class:`~.findings.Finding` and fails the verification like a mismatch.

The wager state is folded once per slip for both: the checks fold wager intake's state over
the table's log anyway, and keep it as of each round's settlement; the round's standing
wagers are taken from it for the re-settle facts, instead of folding the round's events again
(half of verify's CPU was the two folds). Only where every event of the table is on its
owner's subject and of a known type (then both folds see the same lifecycle and bets events in
the same order); otherwise the facts fold their own, as before.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sicbo.replay.audit import RoundAudit, audit_round, settled_as_of
from sicbo.replay.findings import Finding
from sicbo.replay.gcpause import without_gc
from sicbo.replay.history import Stored, read_tables
from sicbo.replay.invariants import check_tables
from sicbo.replay.owners import read_event
from sicbo.wagers.state import wagers_of_round
from sicbo_contracts.subjects import table_of


@dataclass
class Verification:
    rounds: int = 0  # settled rounds verified
    wagers: int = 0  # wagers re-settled
    mismatches: list[RoundAudit] = field(default_factory=list)
    pending: list[tuple[str, int, int]] = field(default_factory=list)  # table, round, seq
    unsettled: list[tuple[str, int]] = field(default_factory=list)  # ended, no settlement
    undecodable: list[tuple[str, int]] = field(default_factory=list)  # table, seq
    violations: list[Finding] = field(default_factory=list)  # of the log's invariants

    @property
    def ok(self) -> bool:
        return not self.mismatches and not self.undecodable and not self.violations


@without_gc
def verify(
    stored: Iterable[Stored],
    *,
    table: str | None = None,
    since: datetime | None = None,
    decoded: Sequence[tuple[Any, str]] | None = None,
) -> Verification:
    """Verify every settled round (of ``table``; settled at or after ``since``), and the log's
    invariants (violations stored at or after ``since``; the checks fold the whole log).
    ``decoded``: each event as :func:`~.owners.read_event` reads it, where the caller has
    read them already (replay's workers, for the money join too)."""
    events = stored if isinstance(stored, Sequence) else list(stored)
    result = Verification()
    if decoded is None:  # each message decoded once, for both
        decoded = [read_event(e.data) for e in events]
    histories = read_tables(events, table, decoded)
    # Intake's state as of each round's settlement, kept by the checks' fold: one fold of the
    # wager state per slip serves the checks and the re-settle facts.
    keep = {
        name: [a for r in history.settlements.values() if (a := settled_as_of(r)) is not None]
        for name, history in histories.items()
    }
    checked = check_tables(events, table, keep, decoded)
    for name, history in histories.items():
        result.undecodable.extend((name, seq) for seq in history.undecodable)
        checks = checked.get(name)
        kept = checks.kept if checks is not None and checks.filed_as_owned else {}
        for round_no in sorted(set(history.log.rounds()) | set(history.settlements)):
            recorded = history.settlement(round_no)
            if not recorded.settled:
                facts = history.log.facts(round_no)
                if recorded.parts or recorded.adjustments or recorded.voids:
                    audit = audit_round(history.log, round_no, recorded, all_rows=False)
                    result.mismatches.append(audit)
                elif facts is not None and facts.ended:
                    result.unsettled.append((name, round_no))
                continue
            if since is not None and history.settled_at[round_no] < since:
                continue
            state = kept.get(settled_as_of(recorded) or 0)
            standing = None if state is None else wagers_of_round(state, round_no)
            audit = audit_round(history.log, round_no, recorded, all_rows=False, standing=standing)
            result.rounds += 1
            result.wagers += audit.wagers
            result.pending.extend((name, round_no, seq) for seq in audit.pending)
            if not audit.ok:
                result.mismatches.append(audit)
    for checks in checked.values():
        result.violations += [f for f in checks.findings if since is None or f.time >= since]
    return result


def merge(parts: Iterable[Verification]) -> Verification:
    total = Verification()
    for part in parts:
        total.rounds += part.rounds
        total.wagers += part.wagers
        total.mismatches.extend(part.mismatches)
        total.pending.extend(part.pending)
        total.unsettled.extend(part.unsettled)
        total.undecodable.extend(part.undecodable)
        total.violations.extend(part.violations)
    return total


#: The log grouped by table, set before the workers fork (they read it, never a copy).
_tables: list[list[Stored]] = []


def _verify_tables(job: tuple[list[int], datetime | None]) -> Verification:
    indices, since = job
    return merge(verify(_tables[i], since=since) for i in indices)


@without_gc
def verify_parallel(
    stored: Sequence[Stored],
    *,
    jobs: int,
    table: str | None = None,
    since: datetime | None = None,
) -> Verification:
    """:func:`verify` with the tables spread over ``jobs`` forked processes (by event count)."""
    groups: dict[str, list[Stored]] = {}
    for e in stored:
        name = table_of(e.subject) or ""
        if table is None or name == table:
            groups.setdefault(name, []).append(e)
    if jobs <= 1 or len(groups) <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return verify(stored, table=table, since=since)
    global _tables
    _tables = list(groups.values())
    shares: list[list[int]] = [[] for _ in range(min(jobs, len(_tables)))]
    loads = [0] * len(shares)
    for i in sorted(range(len(_tables)), key=lambda i: -len(_tables[i])):
        lightest = loads.index(min(loads))
        shares[lightest].append(i)
        loads[lightest] += len(_tables[i])
    try:
        with multiprocessing.get_context("fork").Pool(len(shares)) as pool:
            return merge(pool.map(_verify_tables, [(share, since) for share in shares]))
    finally:
        _tables = []
