"""Compensations of a settled round (pure): what is paid now, and the batches that change it.

A settlement is never rewritten: a correction of the result (GLI-19 §4.18.4) is paid as a
:class:`SettlementAdjusted` of every wager whose result changes, and a round cancelled after its
result (004 "Ralat Pengendalian") as a :class:`SettlementVoided` refunding every wager; both in
parts of 500 for one atomic batch. :func:`apply_adjustments` is what the log says each wager
got after them: settlement, replay and the board all read it so.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import datetime
from typing import Any

from msgspec.structs import replace as replace_struct

from sicbo.game.settlement import void_wager
from sicbo.settlement.engine import MAX_WAGERS, OUTCOME, PART_SIZE, SettlementError, wager_results
from sicbo.settlement.facts import RoundFacts
from sicbo.wagers.state import StandingWager as Standing
from sicbo_contracts.base import Actor, Dice
from sicbo_contracts.settlement import (
    SettlementAdjusted,
    SettlementBasis,
    SettlementVoided,
    WagerAdjustment,
    WagerOutcome,
    WagerResult,
)
from sicbo_contracts.wagers import Medium, Wager


def _key(r: WagerResult) -> tuple[str, int]:
    return r.slip_id, r.index


def adjust(
    current: Sequence[WagerResult],
    *,
    table: str,
    round_no: int,
    paytable: str,
    unit: int,
    before: Dice,
    after: Dice,
    correction_seq: int,
    actor: Actor,
    at: datetime,
    voided_players: Collection[str] = (),
) -> list[SettlementAdjusted]:
    """The adjustment of a settled round to a corrected result.

    ``current`` is what the log says each wager got (the settlement with every earlier
    adjustment applied), ``before`` the dice it was settled on and ``after`` the corrected dice.
    Each wager is settled again by ``after`` (same paytable and unit as the round); every wager
    whose result changes gets a WagerAdjustment (before, after, delta), but the wagers of the
    ``voided_players`` (``RoundSettled.voided``, 000 §8.3.1): void whatever the dice. Parts of
    500; at least one message, so the correction is recorded as applied even when nothing
    changes.
    """
    facts = RoundFacts(
        table=table,
        round=round_no,
        paytable=paytable,
        unit=unit,
        basis=SettlementBasis.RESULT,
        dice=after,
        consequence=None,
        forfeits=(),
        wagers=tuple(
            Standing(r.slip_id, r.player, r.index, _wager_of(r), r.carried_in) for r in current
        ),
        corrections=(),
        completed=True,
        as_of=correction_seq,
        voided=tuple(voided_players),
    )
    changes = _changed(zip(current, wager_results(facts), strict=True))
    chunks = _parts(changes, f"round {round_no} of {table}: too many adjustments")
    common: dict[str, Any] = {"table": table, "actor": actor, "at": at, "round": round_no}
    return [
        SettlementAdjusted(
            correction_seq=correction_seq, before=before, after=after, **common, **part
        )
        for part in _numbered(chunks)
    ]


def _changed(pairs: Iterable[tuple[WagerResult, WagerResult]]) -> list[WagerAdjustment]:
    """One WagerAdjustment (before, after, delta) for every wager whose result changes."""
    return [
        WagerAdjustment(
            slip_id=old.slip_id,
            index=old.index,
            player=old.player,
            before=old,
            after=new,
            delta=new.returned - old.returned,
        )
        for old, new in pairs
        if new != old
    ]


def _parts(changes: list[WagerAdjustment], too_many: str) -> list[list[WagerAdjustment]]:
    """Parts of 500 for one atomic batch; at least one, so the change is recorded as applied
    even when no wager changes."""
    chunks = [changes[i : i + PART_SIZE] for i in range(0, len(changes), PART_SIZE)] or [[]]
    if len(chunks) > MAX_WAGERS // PART_SIZE + 1:
        raise SettlementError(f"{too_many} for one batch")
    return chunks


def _numbered(chunks: list[list[WagerAdjustment]]) -> list[dict[str, Any]]:
    """The fields of each part of a compensating batch: its changes, their sum, its number."""
    return [
        {"adjustments": c, "delta": sum(a.delta for a in c), "part": n, "parts": len(chunks)}
        for n, c in enumerate(chunks, start=1)
    ]


def _wager_of(r: WagerResult) -> Wager:
    return Wager(bet=r.bet, stake=r.stake, medium=Medium(r.medium))


def apply_adjustments(
    settled: Sequence[WagerResult],
    adjustments: Sequence[SettlementAdjusted] | Sequence[SettlementVoided],
) -> list[WagerResult]:
    """The settlement with the adjustments (or the refunds of a void) applied, in log order
    (each ``after`` replaces the wager's result)."""
    index = {_key(r): n for n, r in enumerate(settled)}
    out = list(settled)
    for adjusted in adjustments:
        for a in adjusted.adjustments:
            n = index.get((a.slip_id, a.index))
            if n is not None:
                out[n] = a.after
    return out


def voided(r: WagerResult, forfeits: Collection[str] = ()) -> WagerResult:
    """A wager's result once its round is cancelled (004) or invalidated (000 §8.4): void, the
    stake returned (a token too: 000 §1.1 forfeits a token only after a valid result), unless
    the supervisor forfeited the player's wagers for fraud (000 §8.5): nothing returned."""
    if r.player in forfeits:
        return replace_struct(r, outcome=WagerOutcome.FORFEIT, winnings=0, returned=0)
    v = void_wager(r.stake, Medium(r.medium))
    return replace_struct(r, outcome=OUTCOME[v.outcome], winnings=v.winnings, returned=v.returned)


def void(
    current: Sequence[WagerResult],
    *,
    table: str,
    round_no: int,
    cancel_seq: int,
    reason: str,
    forfeits: Collection[str] = (),
    actor: Actor,
    at: datetime,
) -> list[SettlementVoided]:
    """The compensation of a round settled by its result and then cancelled (004 "Ralat
    Pengendalian") or invalidated (000 §8.4): every wager whose result (``current``: the
    settlement with its adjustments applied) is not already what :func:`voided` makes it gets
    a WagerAdjustment to the refund (or the forfeit, 000 §8.5). Parts of 500; at least one
    message, so the void is recorded as compensated even with no wagers."""
    changes = _changed((old, voided(old, forfeits)) for old in current)
    chunks = _parts(changes, f"round {round_no} of {table}: too many refunds")
    common: dict[str, Any] = {"table": table, "actor": actor, "at": at, "round": round_no}
    return [
        SettlementVoided(cancel_seq=cancel_seq, reason=reason, **common, **part)
        for part in _numbered(chunks)
    ]
