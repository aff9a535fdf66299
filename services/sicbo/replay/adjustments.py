"""The compensations of a settled round checked against the log (pure).

After the settlement come its compensations, each one wager by wager from what the wagers had:
the adjustments, one correction of the result at a time (GLI-19 §4.18.4), then the refund of a
round settled by its result and cancelled after that (004 "Ralat Pengendalian"). Each check
takes the wagers' results as they stood before the compensations and gives them as they stand
after, with the problems found (plain sentences).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sicbo.settlement.compensation import apply_adjustments
from sicbo.settlement.facts import Cancellation, Correction
from sicbo_contracts.base import Dice
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementAdjusted,
    SettlementBasis,
    SettlementVoided,
    WagerResult,
)

Key = tuple[str, int]  # a wager: its slip and its index on the slip


def key_of(r: WagerResult) -> Key:
    return r.slip_id, r.index


def by_key(results: Sequence[WagerResult]) -> dict[Key, WagerResult]:
    return {key_of(r): r for r in results}


def _numbering(what: str, group: Sequence[SettlementAdjusted | SettlementVoided]) -> list[str]:
    """A compensation is stored as parts 1..parts, in order."""
    numbers = [m.part for m in group]
    return [] if numbers == list(range(1, group[0].parts + 1)) else [f"{what} parts {numbers}"]


def _total(what: str, message: SettlementAdjusted | SettlementVoided) -> list[str]:
    """A message's delta is the sum of its wagers' deltas."""
    if message.delta == sum(x.delta for x in message.adjustments):
        return []
    return [f"{what} part {message.part}: delta {message.delta}"]


# -- the adjustments, one correction at a time ---------------------------------------------------


@dataclass(frozen=True)
class Adjusted:
    """The wagers' results after the recorded adjustments, and what checking them found."""

    final: list[WagerResult]
    dice: Dice | None  # in effect after the adjustments
    covered: int  # the last correction reflected in what was paid
    applied: bool  # any adjustment was applied (the final dice are a correction's)
    problems: list[str] = field(default_factory=list)


def check_adjustment(
    group: Sequence[SettlementAdjusted],
    in_effect: Dice | None,
    correction: Correction | None,
    current: Sequence[WagerResult],
) -> list[str]:
    """The problems of one adjustment (its parts share ``correction_seq``): it starts from the
    dice in effect, settles by the dice of ``correction`` (None: no correction to apply at that
    seq), and each wager's ``before`` is what the wager had (``current``)."""
    head = group[0]
    what = f"adjustment {head.correction_seq}"
    problems = []
    if head.before != in_effect:
        problems.append(f"{what} starts from {head.before}, in effect was {in_effect}")
    if correction is None:
        problems.append(f"{what}: no correction to apply at that seq")
    elif sorted(correction.after) != sorted(head.after):
        problems.append(f"{what} settles by {head.after}, the correction says {correction.after}")
    problems += _numbering(what, group)
    for a in group:
        problems += _total(what, a)
        for x in a.adjustments:
            if x.delta != x.after.returned - x.before.returned:
                problems.append(f"{what}: {x.slip_id}#{x.index} delta")
    had = by_key(current)
    for a in group:
        for x in a.adjustments:
            if had.get((x.slip_id, x.index)) != x.before:
                problems.append(f"{what}: {x.slip_id}#{x.index} 'before' is not what the wager had")
    return problems


def check_adjustments(
    summary: RoundSettled,
    as_of: int,
    corrections: Sequence[Correction],
    settled: list[WagerResult],
    adjustments: Sequence[tuple[int, SettlementAdjusted]],
) -> Adjusted:
    """Apply the recorded ``adjustments`` to ``settled`` one correction at a time, in log order,
    each checked against the correction of the result it applies (of ``corrections``, the
    round's, in the log); only a round settled by its result is adjusted."""
    groups: dict[int, list[SettlementAdjusted]] = {}
    for _, adjusted in adjustments:
        groups.setdefault(adjusted.correction_seq, []).append(adjusted)
    known = {c.seq: c for c in corrections}
    final, dice, covered = settled, summary.dice, as_of
    problems: list[str] = []
    for correction_seq, group in groups.items():
        if summary.basis is not SettlementBasis.RESULT:
            problems.append(f"adjustment {correction_seq} of a round settled {summary.basis}")
            continue
        correction = known.get(correction_seq) if correction_seq > covered else None
        problems += check_adjustment(group, dice, correction, final)
        final = apply_adjustments(final, group)
        dice = group[0].after
        covered = max(covered, correction_seq)
    applied = bool(groups) and summary.basis is SettlementBasis.RESULT
    return Adjusted(final, dice, covered, applied, problems)


# -- the void of a round cancelled after its result (004) ----------------------------------------


@dataclass(frozen=True)
class Refunded:
    """The wagers' results after the recorded void, and what checking it found."""

    final: list[WagerResult]
    voided_by: int | None  # the cancellation (seq) the round was refunded for
    problems: list[str] = field(default_factory=list)


def check_refund(
    group: Sequence[SettlementVoided], due: Cancellation | None, current: Sequence[WagerResult]
) -> list[str]:
    """The problems of one void (its parts share ``cancel_seq``): it refunds for the
    cancellation that is ``due`` (None: no void is due), and each wager's ``before`` is what
    the wager had (``current``)."""
    head = group[0]
    what = f"void {head.cancel_seq}"
    problems = []
    if due is None or due.seq != head.cancel_seq:
        problems.append(f"{what}: no cancellation after the result at that seq")
    problems += _numbering(what, group)
    had = by_key(current)
    for v in group:
        problems += _total(what, v)
        for x in v.adjustments:
            wager = f"{x.slip_id}#{x.index}"
            if x.delta != x.after.returned - x.before.returned:
                problems.append(f"{what}: {wager} delta")
            if had.get((x.slip_id, x.index)) != x.before:
                problems.append(f"{what}: {wager} 'before' is not what it had")
    return problems


def check_voids(
    due: Cancellation | None,
    current: list[WagerResult],
    voids: Sequence[tuple[int, SettlementVoided]],
) -> Refunded:
    """Apply the recorded ``voids`` to ``current`` (the results after the adjustments), each
    checked against the cancellation that is ``due`` (settlement's decider says which): every
    wager refunded, once."""
    groups: dict[int, list[SettlementVoided]] = {}
    for _, v in voids:
        groups.setdefault(v.cancel_seq, []).append(v)
    problems = []
    if len(groups) > 1:
        problems.append(f"round voided {len(groups)} times (cancellations {sorted(groups)})")
    final, voided_by = current, None
    for cancel_seq, group in groups.items():
        problems += check_refund(group, due, final)
        final = apply_adjustments(final, group)
        voided_by = cancel_seq
    return Refunded(final, voided_by, problems)
