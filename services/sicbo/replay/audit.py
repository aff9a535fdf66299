"""The audit of one round's settlement against a fresh recomputation from the log (pure).

The recorded settlement is compared with :func:`sicbo.settlement.engine.wager_results` run on
:class:`~sicbo.settlement.facts.TableLog` facts folded up to the same stream sequence the
settler used (``RoundSettled.as_of``): the same function on the same facts. Then every
adjustment is checked against a settlement by its corrected dice, and the final result of each
wager (settled + adjustments) against a recomputation with the final dice.

A round settled by its result and then cancelled (004) must be voided: the SettlementVoided
turns every wager's final result into a refund, checked like an adjustment.

Found problems are plain sentences; any problem, or any wager whose recorded result differs,
makes the round a MISMATCH. A correction not adjusted yet, or a cancellation not voided yet, is
reported as pending (the service may simply be behind), not as a mismatch: which ones are due is
settlement's decider's to say (:func:`~sicbo.settlement.decider.void_due`,
:func:`~sicbo.settlement.decider.corrections_due`), so the service and replay read one rule.

:func:`audit_round` runs the steps in order: the messages as stored (:func:`record_problems`),
the summary against the recomputation's (:func:`summary_problems`), the adjustments and the
void (:mod:`.adjustments`), then every wager (:func:`wager_checks`). Verify's fast paths skip
the wager-by-wager steps when the parts are stored byte for byte as recomputed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import msgspec

from sicbo.replay.adjustments import Key, by_key, check_adjustments, check_voids, key_of
from sicbo.replay.history import RecordedPart, RoundSettlement
from sicbo.settlement.compensation import voided
from sicbo.settlement.decider import corrections_due, void_due
from sicbo.settlement.engine import PART_SIZE, SettlementError, summarize, wager_results, with_dice
from sicbo.settlement.facts import Cancellation, RoundFacts, TableLog
from sicbo.wagers.state import StandingWager as Standing
from sicbo_contracts.base import Dice
from sicbo_contracts.settlement import RoundSettled, WagerResult

#: The bytes the settlement stored, byte for byte (one encoder, as the shell's).
encode = msgspec.json.Encoder().encode

__all__ = [
    "SUMMARY_FIELDS",
    "RecordedPart",
    "RoundAudit",
    "RoundSettlement",
    "WagerCheck",
    "audit_round",
]

#: RoundSettled fields a recomputation must reproduce (not who or when).
SUMMARY_FIELDS = (
    "basis",
    "paytable",
    "dice",
    "unit",
    "wagers",
    "parts",
    "staked",
    "returned",
    "house_result",
    "players",
    "consequence",
    "forfeits",
    "carried",
    "voided",
)


@dataclass
class WagerCheck:
    """One wager: what the log says (settled, then final) and what replay computes."""

    key: Key
    settled: WagerResult | None  # as recorded by the settlement
    final: WagerResult | None  # recorded settlement + adjustments
    expected_settled: WagerResult | None  # recomputed from the facts as of the settlement
    expected_final: WagerResult | None  # recomputed with the final dice

    @property
    def delta(self) -> int:
        if self.settled is None or self.final is None:
            return 0
        return self.final.returned - self.settled.returned

    @property
    def match(self) -> bool:
        return self.settled == self.expected_settled and self.final == self.expected_final


@dataclass
class RoundAudit:
    table: str
    round: int
    summary: RoundSettled | None
    as_of: int
    final_dice: Dice | None
    wagers: int = 0  # wagers compared
    problems: list[str] = field(default_factory=list)
    checks: list[WagerCheck] = field(default_factory=list)  # all, or the mismatching only
    #: corrections not adjusted yet, or a cancellation not voided yet (their seqs)
    pending: list[int] = field(default_factory=list)
    voided_by: int | None = None  # the cancellation (seq) the round was refunded for (004)

    @property
    def settled(self) -> bool:
        return self.summary is not None

    @property
    def mismatches(self) -> list[WagerCheck]:
        return [c for c in self.checks if not c.match]

    @property
    def ok(self) -> bool:
        return not self.problems and not self.mismatches


def settled_as_of(recorded: RoundSettlement) -> int | None:
    """The stream sequence the round was settled as of (None: no summary stored)."""
    if not recorded.summaries:
        return None
    summary = recorded.summaries[0][1]
    return summary.as_of or (min(s for s, _ in recorded.parts or recorded.summaries) - 1)


def audit_round(
    table_log: TableLog,
    round_no: int,
    recorded: RoundSettlement,
    *,
    all_rows: bool = True,
    standing: Sequence[Standing] | None = None,
) -> RoundAudit:
    """Audit ``round_no``'s recorded settlement against the facts in ``table_log``.

    ``all_rows=False`` keeps only the mismatching wagers in ``checks`` (what verify needs);
    ``standing``: the round's standing wagers as of its settlement, if already folded."""
    as_of = settled_as_of(recorded)
    if as_of is None:
        return _unsettled(table_log, round_no, recorded)
    summary = recorded.summaries[0][1]
    audit = RoundAudit(table_log.table, round_no, summary, as_of, summary.dice)
    audit.problems += record_problems(recorded)
    facts = table_log.facts(round_no, as_of, standing=standing)
    if facts is None:
        audit.problems.append(f"the round has not started as of sequence {as_of}")
        return audit
    try:
        expected = wager_results(facts)
    except SettlementError as err:
        audit.problems.append(f"cannot recompute: {err}")
        return audit
    parts = [p for _, p in recorded.parts]
    audit.problems += summary_problems(summary, facts, expected, stored_parts=len(parts))
    audit.wagers = len(expected)
    same = same_parts(parts, expected)
    paid = _as_paid(summary, as_of)
    cancelled = void_due(table_log, round_no, paid)
    if same and not recorded.adjustments and not recorded.voids and not all_rows:
        audit.pending = _pending(table_log, round_no, paid, as_of, cancelled)
        return audit  # the fast path: stored exactly as recomputed, nothing adjusted
    settled = expected if same else [w for p in parts for w in p.wagers]

    adjusted = check_adjustments(
        summary, as_of, table_log.corrections(round_no), settled, recorded.adjustments
    )
    audit.problems += adjusted.problems
    audit.final_dice = adjusted.dice
    expected_final = expected
    if adjusted.applied and adjusted.dice is not None:
        expected_final = wager_results(with_dice(facts, adjusted.dice))
    refunded = check_voids(cancelled, adjusted.final, recorded.voids)
    audit.problems += refunded.problems
    audit.voided_by = refunded.voided_by
    if refunded.voided_by is not None:
        forfeits = cancelled.forfeits if cancelled is not None else ()
        expected_final = [voided(r, forfeits) for r in expected_final]
        audit.pending = []  # refunded: the corrections no longer matter
    else:
        audit.pending = _pending(table_log, round_no, paid, adjusted.covered, cancelled)

    final = refunded.final
    if not all_rows and settled == expected and final == expected_final:
        return audit  # the fast path: the engine's order, nothing differs
    checks, duplicates = wager_checks(settled, final, expected, expected_final)
    audit.problems += duplicates
    audit.checks = checks if all_rows else [c for c in checks if not c.match]
    return audit


def _unsettled(table_log: TableLog, round_no: int, recorded: RoundSettlement) -> RoundAudit:
    audit = RoundAudit(table_log.table, round_no, None, table_log.last_seq, None)
    if recorded.parts or recorded.adjustments or recorded.voids:
        audit.problems.append("settlement messages without a RoundSettled summary")
    return audit


def record_problems(recorded: RoundSettlement) -> list[str]:
    """What is wrong with the settlement messages as stored: more than one summary, parts not
    numbered 1..n in order, parts stored after the summary."""
    problems = []
    summaries = recorded.summaries
    if len(summaries) > 1:
        seqs = ", ".join(str(s) for s, _ in summaries)
        problems.append(f"round settled {len(summaries)} times (RoundSettled at {seqs})")
    numbers = [p.part for _, p in recorded.parts]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"parts numbered {numbers}")
    if any(s > summaries[0][0] for s, _ in recorded.parts):
        problems.append("wager results stored after the round's summary")
    return problems


def _part_count(results: Sequence[WagerResult]) -> int:
    return -(-len(results) // PART_SIZE)


def summary_problems(
    summary: RoundSettled, facts: RoundFacts, expected: list[WagerResult], *, stored_parts: int
) -> list[str]:
    """The recorded summary against the summary of the recomputation (``expected``)."""
    again = summarize(
        facts, expected, parts=_part_count(expected), actor=summary.actor, at=summary.at
    )
    problems = []
    for name in SUMMARY_FIELDS:
        got, want = getattr(summary, name), getattr(again, name)
        if got != want:
            problems.append(f"summary {name}: recorded {got!r}, recomputed {want!r}")
    if summary.parts != stored_parts:
        problems.append(f"summary says {summary.parts} parts, {stored_parts} stored")
    return problems


def same_parts(parts: Sequence[RecordedPart], expected: list[WagerResult]) -> bool:
    """The parts are stored exactly as recomputed, byte for byte (nothing decoded)."""
    return len(parts) == _part_count(expected) and all(
        p.raw == encode(expected[i * PART_SIZE : (i + 1) * PART_SIZE]) for i, p in enumerate(parts)
    )


def _as_paid(summary: RoundSettled, as_of: int) -> RoundSettled:
    """The summary as of the sequence the audit folds the facts to (an old summary without
    ``as_of``: just before its first part), as settlement's decider reads what was paid."""
    return summary if summary.as_of == as_of else msgspec.structs.replace(summary, as_of=as_of)


def _pending(
    table_log: TableLog,
    round_no: int,
    paid: RoundSettled,
    covered: int,
    cancelled: Cancellation | None,
) -> list[int]:
    """What settlement has still to do (its decider's rules): void the round for a cancellation
    after the result (then the corrections no longer matter), else adjust to the corrections
    after ``covered``."""
    if cancelled is not None:
        return [cancelled.seq]
    return [c.seq for c in corrections_due(table_log, round_no, paid, covered)]


def wager_checks(
    settled: list[WagerResult],
    final: list[WagerResult],
    expected: list[WagerResult],
    expected_final: list[WagerResult],
) -> tuple[list[WagerCheck], list[str]]:
    """Every wager, recorded (settled, final) next to recomputed (settled, final): the
    recomputation's wagers in its order, then those only recorded; and the problems (a wager
    recorded twice)."""
    problems: list[str] = []
    rec_settled: dict[Key, WagerResult] = {}
    for r in settled:
        key = key_of(r)
        if key in rec_settled:
            problems.append(f"settlement: wager {key[0]}#{key[1]} appears more than once")
        rec_settled[key] = r
    rec_final, exp_settled, exp_final = by_key(final), by_key(expected), by_key(expected_final)
    keys = list(exp_settled) + [k for k in rec_settled if k not in exp_settled]
    checks = [
        WagerCheck(
            key, rec_settled.get(key), rec_final.get(key), exp_settled.get(key), exp_final.get(key)
        )
        for key in keys
    ]
    return checks, problems
