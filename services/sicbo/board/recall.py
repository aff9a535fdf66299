"""Game recall (AGCO standard 13.1): one round's full detail, folded from the log (pure).

Replay's fold (:func:`sicbo.replay.history.read_tables`) reads the round's facts and its
settlement messages as stored; the wagers are the settlement's own record, and their final
result applies the adjustments with the settlement engine's :func:`apply_adjustments`. Until
the settlement is in the log, the wagers are the ones standing in the round as settlement
would fold them (:class:`TableLog` facts), not settled yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sicbo.board.stats import decode_lifecycle, outcome
from sicbo.game.dice import make_roll
from sicbo.replay.history import Stored, read_tables
from sicbo.settlement.compensation import apply_adjustments
from sicbo.settlement.facts import RoundFacts
from sicbo_contracts.base import Dice
from sicbo_contracts.board import (
    Recall,
    RecallAdjustment,
    RecallCorrection,
    RecallRefund,
    RecallRound,
    RecallVoid,
    RecallWager,
)
from sicbo_contracts.dice import ResultConfirmed, ResultCorrected
from sicbo_contracts.lifecycle import RoundStarted
from sicbo_contracts.settlement import (
    SettlementAdjusted,
    SettlementBasis,
    SettlementVoided,
    WagerResult,
)


def _sorted(dice: Sequence[int]) -> Dice:
    return make_roll(dice)


def _settled_wager(settled: WagerResult, final: WagerResult) -> RecallWager:
    return RecallWager(
        slip_id=settled.slip_id,
        index=settled.index,
        player=settled.player,
        bet=settled.bet,
        stake=settled.stake,
        medium=str(settled.medium),
        carried_in=settled.carried_in,
        outcome=settled.outcome,
        winnings=settled.winnings,
        returned=settled.returned,
        final_outcome=final.outcome,
        final_returned=final.returned,
    )


def _standing_wagers(facts: RoundFacts) -> list[RecallWager]:
    return [
        RecallWager(
            slip_id=w.slip_id,
            index=w.index,
            player=w.player,
            bet=w.wager.bet,
            stake=w.wager.stake,
            medium=str(w.wager.medium),
            carried_in=w.carried,
        )
        for w in facts.wagers
    ]


def _void(event: Any, basis: SettlementBasis) -> RecallVoid | None:
    if event is None:
        return None
    return RecallVoid(
        basis=basis,
        reason=str(event.reason),
        detail=getattr(event, "detail", ""),
        consequence=getattr(event, "consequence", None),
        forfeits=list(getattr(event, "forfeits", [])),
        actor=event.actor,
        at=event.at,
    )


def _adjustments(recorded: Sequence[SettlementAdjusted]) -> list[RecallAdjustment]:
    groups: dict[int, list[SettlementAdjusted]] = {}
    for adjusted in recorded:
        groups.setdefault(adjusted.correction_seq, []).append(adjusted)
    return [
        RecallAdjustment(
            correction_seq=seq,
            before=_sorted(parts[0].before),
            after=_sorted(parts[0].after),
            delta=sum(p.delta for p in parts),
            wagers=[a for p in parts for a in p.adjustments],
        )
        for seq, parts in groups.items()
    ]


def _refund(voids: Sequence[SettlementVoided]) -> RecallRefund | None:
    if not voids:
        return None
    return RecallRefund(
        cancel_seq=voids[0].cancel_seq,
        reason=voids[0].reason,
        delta=sum(v.delta for v in voids),
        wagers=[a for v in voids for a in v.adjustments],
    )


def recall_round(table: str, round_no: int, stored: Sequence[Stored]) -> RecallRound | None:
    """Round ``round_no`` of ``table`` from ``stored``: its whole history in stream order, with
    the void rounds whose wagers were carried into it (as settlement folds them). None when the
    round has not started, or has no outcome yet, in ``stored``."""
    history = read_tables(stored, table).get(table)
    if history is None:
        return None
    facts = history.log.facts(round_no)
    if facts is None or facts.basis is None:
        return None
    decoded = decode_lifecycle(stored, round_no)
    started = next(e for _, e in decoded if isinstance(e, RoundStarted))
    confirmed = next((e for _, e in decoded if isinstance(e, ResultConfirmed)), None)
    corrections = [
        RecallCorrection(
            seq=seq,
            before=_sorted(e.before),
            after=_sorted(e.after),
            reason=e.reason,
            actor=e.actor,
            at=e.at,
        )
        for seq, e in decoded
        if isinstance(e, ResultCorrected)
    ]
    basis, ended_by = outcome(decoded, facts.basis)
    assert basis is not None  # facts.basis is not None
    recorded = history.settlement(round_no)
    adjusted = [a for _, a in recorded.adjustments]
    refunds = [v for _, v in recorded.voids]
    settled = bool(recorded.summaries)
    wagers: list[RecallWager]
    staked: int | None = None
    returned: int | None = None
    house: int | None = None
    if settled:
        summary = recorded.summaries[0][1]
        as_settled = [w for _, part in recorded.parts for w in part.wagers]
        final = apply_adjustments(apply_adjustments(as_settled, adjusted), refunds)
        wagers = [_settled_wager(s, f) for s, f in zip(as_settled, final, strict=True)]
        staked = summary.staked
        returned = summary.returned + sum(a.delta for a in adjusted) + sum(v.delta for v in refunds)
        house = staked - returned
    else:
        wagers = _standing_wagers(facts)
    return RecallRound(
        round=round_no,
        paytable=facts.paytable,
        started_at=started.at,
        basis=basis,
        dice=_sorted(confirmed.dice) if confirmed is not None else None,
        confirmed_at=confirmed.at if confirmed is not None else None,
        final_dice=_sorted(facts.dice) if facts.dice is not None else None,
        void=_void(ended_by, basis),
        corrections=corrections,
        wagers=wagers,
        adjustments=_adjustments(adjusted),
        refund=_refund(refunds),
        settled=settled,
        completed=facts.completed,
        staked=staked,
        returned=returned,
        house_result=house,
    )


def recall_of(table: str, rounds: Sequence[RecallRound], limit: int, as_of: int) -> Recall:
    """The last ``limit`` of ``rounds`` (in round order), oldest first."""
    return Recall(table=table, limit=limit, rounds=list(rounds)[-limit:], as_of=as_of)
