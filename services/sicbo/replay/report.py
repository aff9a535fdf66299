"""A dispute report for one round, from the log only: its history, every wager's result as
recorded next to the recomputation, and the findings of the log's invariants in the round
(:mod:`.invariants`, checked over the table's whole log; pure: the CLI renders it as a table or
JSON)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import msgspec

from sicbo.replay.audit import RoundAudit, WagerCheck, audit_round
from sicbo.replay.findings import Finding
from sicbo.replay.history import Stored, read_tables
from sicbo.replay.invariants import check_log
from sicbo_contracts.base import DECODE_ERRORS, Actor, Dice
from sicbo_contracts.subjects import parse_event_subject, round_history, subject_matches

MATCH = "MATCH"
MISMATCH = "MISMATCH"


class HistoryRow(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    time: datetime  # when the server stored it
    type: str  # the event's versioned tag
    actor: str  # "id (role)"
    at: datetime | None = None  # the time the event records (supplied by its shell)


class WagerRow(msgspec.Struct, frozen=True, kw_only=True):
    slip_id: str
    index: int
    player: str
    bet: str
    stake: int
    medium: str
    outcome: str  # final outcome as recorded ("" when the wager was not recorded)
    settled: int  # returned by the settlement as recorded
    adjusted: int  # sum of the adjustments' deltas for this wager
    recorded: int  # final returned as recorded: settled + adjusted
    recomputed_outcome: str
    recomputed: int  # final returned as recomputed from the log
    status: str  # MATCH | MISMATCH


class RoundReport(msgspec.Struct, frozen=True, kw_only=True):
    table: str
    round: int
    status: str  # MATCH | MISMATCH | NOT SETTLED | NOT STARTED
    basis: str | None
    paytable: str | None
    dice: Dice | None  # as settled
    final_dice: Dice | None  # after every adjustment
    as_of: int  # replay folded the log up to this sequence
    staked: int
    returned: int  # final: settled + adjustments
    recomputed_returned: int
    house_result: int  # staked - final returned
    problems: list[str]
    pending_corrections: list[int]
    history: list[HistoryRow]
    wagers: list[WagerRow]
    #: 004: the round was cancelled after its result (this RoundCancelled seq) and refunded.
    voided_by: int | None = None
    #: Violations of the log's invariants by the events of this round (on its subjects).
    invariants: list[Finding] = msgspec.field(default_factory=list)

    @property
    def ok(self) -> bool:
        """The record matches its replay and the round's events break no invariant."""
        return self.status != MISMATCH and not self.invariants


class _Head(msgspec.Struct):
    type: str = "?"
    actor: Actor | None = None
    at: datetime | None = None


_head = msgspec.json.Decoder(_Head)


def history_rows(stored: Sequence[Stored], table: str, round_no: int) -> list[HistoryRow]:
    pattern = round_history(table, round_no)
    rows = []
    for e in stored:
        if not subject_matches(e.subject, pattern):
            continue
        try:
            head = _head.decode(e.data)
        except DECODE_ERRORS:
            parsed = parse_event_subject(e.subject)
            head = _Head(type=parsed.token) if parsed is not None else _Head()
        who = f"{head.actor.id} ({head.actor.role.value})" if head.actor else "?"
        rows.append(HistoryRow(seq=e.seq, time=e.time, type=head.type, actor=who, at=head.at))
    return rows


def _row(check: WagerCheck) -> WagerRow:
    seen = check.final or check.settled or check.expected_final or check.expected_settled
    assert seen is not None
    final, expected = check.final, check.expected_final
    return WagerRow(
        slip_id=check.key[0],
        index=check.key[1],
        player=seen.player,
        bet=seen.bet,
        stake=seen.stake,
        medium=seen.medium,
        outcome=final.outcome.value if final else "",
        settled=check.settled.returned if check.settled else 0,
        adjusted=check.delta,
        recorded=final.returned if final else 0,
        recomputed_outcome=expected.outcome.value if expected else "",
        recomputed=expected.returned if expected else 0,
        status=MATCH if check.match else MISMATCH,
    )


def round_report(stored: Sequence[Stored], table: str, round_no: int) -> RoundReport:
    """Replay ``round_no`` of ``table`` from ``stored`` (the table's log, in stream order)."""
    history = read_tables(stored, table).get(table)
    rows = history_rows(stored, table, round_no)
    found = [f for f in check_log(stored, table).get(table, []) if f.round == round_no]
    if history is None or history.log.facts(round_no) is None:
        return _empty(table, round_no, "NOT STARTED", rows, found)
    audit: RoundAudit = audit_round(history.log, round_no, history.settlement(round_no))
    summary = audit.summary
    if summary is None:
        report = _empty(table, round_no, "NOT SETTLED", rows, found)
        return msgspec.structs.replace(report, problems=audit.problems)
    wagers = [_row(c) for c in audit.checks]
    returned = sum(w.recorded for w in wagers)
    status = MATCH if audit.ok else MISMATCH
    return RoundReport(
        table=table,
        round=round_no,
        status=status,
        basis=summary.basis.value,
        paytable=summary.paytable,
        dice=summary.dice,
        final_dice=audit.final_dice,
        as_of=audit.as_of,
        staked=summary.staked,
        returned=returned,
        recomputed_returned=sum(w.recomputed for w in wagers),
        house_result=summary.staked - returned,
        problems=audit.problems,
        pending_corrections=audit.pending,
        history=rows,
        wagers=wagers,
        voided_by=audit.voided_by,
        invariants=found,
    )


def _empty(
    table: str, round_no: int, status: str, rows: list[HistoryRow], found: list[Finding]
) -> RoundReport:
    return RoundReport(
        table=table,
        round=round_no,
        status=status,
        basis=None,
        paytable=None,
        dice=None,
        final_dice=None,
        as_of=0,
        staked=0,
        returned=0,
        recomputed_returned=0,
        house_result=0,
        problems=[],
        pending_corrections=[],
        history=rows,
        wagers=[],
        invariants=found,
    )
