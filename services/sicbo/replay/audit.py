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
reported as pending (the service may simply be behind), not as a mismatch.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from sicbo.settlement.engine import (
    PART_SIZE,
    SettlementError,
    apply_adjustments,
    summarize,
    voided,
    wager_results,
    with_dice,
)
from sicbo.settlement.facts import TableLog
from sicbo_contracts.base import Dice
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementAdjusted,
    SettlementBasis,
    SettlementVoided,
    WagerResult,
    WagersSettled,
)

#: The bytes the settlement stored, byte for byte (one encoder, as the shell's).
encode = msgspec.json.Encoder().encode
Key = tuple[str, int]
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
)


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


def _key(r: WagerResult) -> Key:
    return r.slip_id, r.index


def _keyed(
    results: Sequence[WagerResult], what: str, problems: list[str]
) -> dict[Key, WagerResult]:
    out: dict[Key, WagerResult] = {}
    for r in results:
        key = _key(r)
        if key in out:
            problems.append(f"{what}: wager {key[0]}#{key[1]} appears more than once")
        out[key] = r
    return out


def audit_round(
    table_log: TableLog, round_no: int, recorded: RoundSettlement, *, all_rows: bool = True
) -> RoundAudit:
    """Audit ``round_no``'s recorded settlement against the facts in ``table_log``.

    ``all_rows=False`` keeps only the mismatching wagers in ``checks`` (what verify needs)."""
    table = table_log.table
    if not recorded.summaries:
        audit = RoundAudit(table, round_no, None, table_log.last_seq, None)
        if recorded.parts or recorded.adjustments or recorded.voids:
            audit.problems.append("settlement messages without a RoundSettled summary")
        return audit
    first_seq, summary = recorded.summaries[0]
    as_of = summary.as_of or (min(s for s, _ in recorded.parts or recorded.summaries) - 1)
    audit = RoundAudit(table, round_no, summary, as_of, summary.dice)
    problems = audit.problems
    if len(recorded.summaries) > 1:
        seqs = ", ".join(str(s) for s, _ in recorded.summaries)
        problems.append(f"round settled {len(recorded.summaries)} times (RoundSettled at {seqs})")
    parts = [p for s, p in recorded.parts]
    if [p.part for p in parts] != list(range(1, len(parts) + 1)):
        problems.append(f"parts numbered {[p.part for p in parts]}")
    if any(s > first_seq for s, _ in recorded.parts):
        problems.append("wager results stored after the round's summary")

    facts = table_log.facts(round_no, as_of)
    if facts is None:
        problems.append(f"the round has not started as of sequence {as_of}")
        return audit
    try:
        expected = wager_results(facts)
    except SettlementError as err:
        problems.append(f"cannot recompute: {err}")
        return audit
    n_parts = -(-len(expected) // PART_SIZE)
    again = summarize(facts, expected, parts=n_parts, actor=summary.actor, at=summary.at)
    for name in SUMMARY_FIELDS:
        got, want = getattr(summary, name), getattr(again, name)
        if got != want:
            problems.append(f"summary {name}: recorded {got!r}, recomputed {want!r}")
    if summary.parts != len(parts):
        problems.append(f"summary says {summary.parts} parts, {len(parts)} stored")

    audit.wagers = len(expected)
    same_parts = len(parts) == n_parts and all(
        p.raw == encode(expected[i * PART_SIZE : (i + 1) * PART_SIZE]) for i, p in enumerate(parts)
    )
    corrections = {c.seq: c for c in table_log.corrections(round_no)}
    cancelled = table_log.cancellation(round_no)
    void_due = (
        cancelled is not None and cancelled.seq > as_of and summary.basis is SettlementBasis.RESULT
    )
    if same_parts and not recorded.adjustments and not recorded.voids and not all_rows:
        if summary.basis is SettlementBasis.RESULT:
            audit.pending = [seq for seq in corrections if seq > as_of]
        if void_due and cancelled is not None:
            audit.pending = [cancelled.seq]  # refunded, the corrections no longer matter
        return audit  # the fast path: stored exactly as recomputed, nothing adjusted
    settled_list = expected if same_parts else [w for p in parts for w in p.wagers]

    # Adjustments, one correction at a time (its parts share correction_seq), in log order.
    final = settled_list
    dice = summary.dice
    covered = as_of
    groups: dict[int, list[SettlementAdjusted]] = {}
    for _, adjusted in recorded.adjustments:
        groups.setdefault(adjusted.correction_seq, []).append(adjusted)
    for correction_seq, group in groups.items():
        head = group[0]
        if summary.basis is not SettlementBasis.RESULT:
            problems.append(f"adjustment {correction_seq} of a round settled {summary.basis}")
            continue
        if head.before != dice:
            problems.append(
                f"adjustment {correction_seq} starts from {head.before}, in effect was {dice}"
            )
        correction = corrections.get(correction_seq)
        if correction is None or correction_seq <= covered:
            problems.append(f"adjustment {correction_seq}: no correction to apply at that seq")
        elif sorted(correction.after) != sorted(head.after):
            problems.append(
                f"adjustment {correction_seq} settles by {head.after}, the correction says"
                f" {correction.after}"
            )
        if [a.part for a in group] != list(range(1, head.parts + 1)):
            problems.append(f"adjustment {correction_seq} parts {[a.part for a in group]}")
        for a in group:
            if a.delta != sum(x.delta for x in a.adjustments):
                problems.append(f"adjustment {correction_seq} part {a.part}: delta {a.delta}")
            for x in a.adjustments:
                if x.delta != x.after.returned - x.before.returned:
                    problems.append(f"adjustment {correction_seq}: {x.slip_id}#{x.index} delta")
        current = _keyed(final, "adjusted", [])
        for a in group:
            for x in a.adjustments:
                if current.get((x.slip_id, x.index)) != x.before:
                    problems.append(
                        f"adjustment {correction_seq}: {x.slip_id}#{x.index} 'before' is not"
                        " what the wager had"
                    )
        final = apply_adjustments(final, group)
        dice = head.after
        covered = max(covered, correction_seq)
    audit.final_dice = dice

    if summary.basis is SettlementBasis.RESULT:
        audit.pending = [seq for seq in corrections if seq > covered]

    expected_final = expected
    if groups and dice is not None and summary.basis is SettlementBasis.RESULT:
        expected_final = wager_results(with_dice(facts, dice))

    # A cancellation after the result (004): every wager refunded, once.
    voids: dict[int, list[SettlementVoided]] = {}
    for _, v in recorded.voids:
        voids.setdefault(v.cancel_seq, []).append(v)
    if len(voids) > 1:
        problems.append(f"round voided {len(voids)} times (cancellations {sorted(voids)})")
    for cancel_seq, vgroup in voids.items():
        head_void = vgroup[0]
        if not void_due or cancelled is None or cancelled.seq != cancel_seq:
            problems.append(f"void {cancel_seq}: no cancellation after the result at that seq")
        if [v.part for v in vgroup] != list(range(1, head_void.parts + 1)):
            problems.append(f"void {cancel_seq} parts {[v.part for v in vgroup]}")
        current = _keyed(final, "voided", [])
        for v in vgroup:
            if v.delta != sum(x.delta for x in v.adjustments):
                problems.append(f"void {cancel_seq} part {v.part}: delta {v.delta}")
            for x in v.adjustments:
                wager = f"{x.slip_id}#{x.index}"
                if x.delta != x.after.returned - x.before.returned:
                    problems.append(f"void {cancel_seq}: {wager} delta")
                if current.get((x.slip_id, x.index)) != x.before:
                    problems.append(f"void {cancel_seq}: {wager} 'before' is not what it had")
        final = apply_adjustments(final, vgroup)
        audit.voided_by = cancel_seq
    if voids:
        expected_final = [voided(r) for r in expected_final]
        audit.pending = []  # refunded: the corrections no longer matter
    elif void_due and cancelled is not None:
        audit.pending = [cancelled.seq]
    if not all_rows and settled_list == expected and final == expected_final:
        return audit  # the fast path: the engine's order, nothing differs
    rec_settled = _keyed(settled_list, "settlement", problems)
    rec_final = {_key(r): r for r in final}
    exp_settled = {_key(r): r for r in expected}
    exp_final = {_key(r): r for r in expected_final}
    keys = list(exp_settled) + [k for k in rec_settled if k not in exp_settled]
    for key in keys:
        check = WagerCheck(
            key, rec_settled.get(key), rec_final.get(key), exp_settled.get(key), exp_final.get(key)
        )
        if all_rows or not check.match:
            audit.checks.append(check)
    return audit
