"""The settlement of a round, and its adjustment after a corrected result: pure functions.

No clock, no I/O: the shell passes the time and the actor. What goes back to each player:

- a confirmed result: every wager is settled by the dice under the round's paytable with the
  game library's hot path (``sicbo.game.settlement.settle_round``); a promotional token wins
  its winnings only and is forfeited, win or lose (000 §1.1); a pay that is not whole is
  rounded down to the table's minimum unit (RULES.md "Money", 000 §4.1);
- "no result" with a refund (000 §7.5: all wagers void), an invalidated outcome (000 §8.4-8.5)
  or a cancelled round (004 "Ralat Pengendalian"): every stake is returned, a token included
  (``void_wager``; 000 §1.1 forfeits a token only after a valid result) - except that on an
  invalidation for fraud the supervisor may forfeit the fraudster's wagers (000 §8.5, §8.4.2):
  outcome ``forfeit``, nothing returned;
- "no result" where the wagers stay on the layout (002/2003 art. 3(3) "原注不得取銷", 002/2004
  art. 3(3)(4), 004 re-shake): outcome ``carried``, nothing returned, nothing collected; they
  are settled in the re-run round (``carried_in``).

A corrected result (GLI-19 §4.18.4) never rewrites the settlement: :func:`adjust` lists, wager by
wager, the result before and after and the difference. A round settled by its result and then
cancelled (004 "Ralat Pengendalian": suspended, not fixed in time) is compensated the same way
by :func:`void`: every wager refunded.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from msgspec.structs import replace as replace_struct

from sicbo.game.dice import make_roll
from sicbo.game.profiles import carries_wagers, parse_paytable_ref
from sicbo.game.settlement import Outcome, settle_round, void_wager
from sicbo.settlement.facts import Correction, RoundFacts, TableLog, facts_of_round
from sicbo.wagers.state import StandingWager as Standing
from sicbo_contracts.base import Actor, Dice
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementAdjusted,
    SettlementBasis,
    SettlementVoided,
    WagerAdjustment,
    WagerOutcome,
    WagerResult,
    WagersSettled,
)
from sicbo_contracts.wagers import Medium, Wager

__all__ = [
    "MAX_WAGERS",
    "PART_SIZE",
    "Correction",
    "RoundFacts",
    "SettlementError",
    "TableLog",
    "adjust",
    "apply_adjustments",
    "facts_of_round",
    "settle",
    "settlement_events",
    "summarize",
    "void",
    "voided",
    "wager_results",
    "with_dice",
]

#: Wager results per WagersSettled (and adjustments per SettlementAdjusted) message.
PART_SIZE = 500
#: A settlement is one atomic batch of at most 1000 messages: 999 parts and the summary.
MAX_WAGERS = 999 * PART_SIZE

_OUTCOME = {
    Outcome.WIN: WagerOutcome.WIN,
    Outcome.LOSE: WagerOutcome.LOSE,
    Outcome.VOID: WagerOutcome.VOID,
}


class SettlementError(ValueError):
    """The facts do not allow a settlement (no outcome yet, an unknown consequence, ...)."""


def _result(w: Standing, outcome: WagerOutcome, winnings: int, returned: int) -> WagerResult:
    wager = w.wager
    return WagerResult(
        slip_id=w.slip_id,
        index=w.index,
        player=w.player,
        bet=wager.bet,
        stake=wager.stake,
        medium=wager.medium,  # a StrEnum: equal to, and encoded as, its value
        outcome=outcome,
        winnings=winnings,
        returned=returned,
        carried_in=w.carried,
    )


def wager_results(facts: RoundFacts) -> list[WagerResult]:
    """What each standing wager of the round gets back, in the order of ``facts.wagers``."""
    basis, wagers = facts.basis, facts.wagers
    if basis is None:
        raise SettlementError(f"round {facts.round} of {facts.table} has no outcome yet")
    if basis is SettlementBasis.RESULT:
        if facts.dice is None:
            raise SettlementError(f"round {facts.round} of {facts.table} has no dice")
        paytable = parse_paytable_ref(facts.paytable)
        settled = settle_round(
            paytable,
            make_roll(facts.dice),
            [(w.wager.bet, w.wager.stake, w.wager.medium) for w in wagers],
            facts.unit,
        )
        # The hot path: one struct per wager, built inline (10,000 wagers in a few ms).
        outcome = _OUTCOME
        return [
            WagerResult(
                slip_id=w.slip_id,
                index=w.index,
                player=w.player,
                bet=w.wager.bet,
                stake=w.wager.stake,
                medium=w.wager.medium,
                outcome=outcome[s.outcome],
                winnings=s.winnings,
                returned=s.returned,
                carried_in=w.carried,
            )
            for w, s in zip(wagers, settled, strict=True)
        ]
    if basis is SettlementBasis.NO_RESULT:
        if carries_wagers(facts.consequence):
            return [_result(w, WagerOutcome.CARRIED, 0, 0) for w in wagers]
        if facts.consequence != "refund":
            raise SettlementError(
                f"round {facts.round} of {facts.table}: unknown no-result consequence"
                f" {facts.consequence!r}"
            )
    forfeits = frozenset(facts.forfeits) if basis is SettlementBasis.INVALIDATED else frozenset()
    out: list[WagerResult] = []
    for w in wagers:
        if w.player in forfeits:  # 000 §8.5: the fraudster's wager is forfeited
            out.append(_result(w, WagerOutcome.FORFEIT, 0, 0))
        else:  # 000 §7.5, §8.5, 004: void, every stake returned (a token too, 000 §1.1)
            v = void_wager(w.wager.stake, w.wager.medium)
            out.append(_result(w, _OUTCOME[v.outcome], v.winnings, v.returned))
    return out


def summarize(
    facts: RoundFacts, results: Sequence[WagerResult], *, parts: int, actor: Actor, at: datetime
) -> RoundSettled:
    """The round's summary (the last message of its settlement)."""
    staked = carried = returned = 0
    for r in results:
        returned += r.returned
        if r.outcome is WagerOutcome.CARRIED:
            carried += r.stake
        else:
            staked += r.stake
    basis = facts.basis
    if basis is None:
        raise SettlementError(f"round {facts.round} of {facts.table} has no outcome yet")
    return RoundSettled(
        table=facts.table,
        actor=actor,
        at=at,
        round=facts.round,
        basis=basis,
        paytable=facts.paytable,
        dice=facts.dice if basis is SettlementBasis.RESULT else None,
        unit=facts.unit,
        wagers=len(results),
        parts=parts,
        staked=staked,
        returned=returned,
        house_result=staked - returned,
        players=list(dict.fromkeys(r.player for r in results)),
        as_of=facts.as_of,
        consequence=facts.consequence if basis is SettlementBasis.NO_RESULT else None,
        forfeits=list(facts.forfeits) if basis is SettlementBasis.INVALIDATED else [],
        carried=carried,
    )


def settlement_events(
    facts: RoundFacts, results: Sequence[WagerResult], *, actor: Actor, at: datetime
) -> list[WagersSettled | RoundSettled]:
    """The settlement as messages: WagersSettled parts of at most 500, then RoundSettled."""
    if len(results) > MAX_WAGERS:
        raise SettlementError(
            f"round {facts.round} of {facts.table} has {len(results)} wagers: one atomic"
            f" settlement holds at most {MAX_WAGERS}"
        )
    events: list[WagersSettled | RoundSettled] = [
        WagersSettled(
            table=facts.table,
            actor=actor,
            at=at,
            round=facts.round,
            part=n,
            wagers=list(results[start : start + PART_SIZE]),
        )
        for n, start in enumerate(range(0, len(results), PART_SIZE), start=1)
    ]
    events.append(summarize(facts, results, parts=len(events), actor=actor, at=at))
    return events


def settle(facts: RoundFacts, *, actor: Actor, at: datetime) -> list[WagersSettled | RoundSettled]:
    """The whole settlement of a round that has an outcome."""
    return settlement_events(facts, wager_results(facts), actor=actor, at=at)


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
) -> list[SettlementAdjusted]:
    """The adjustment of a settled round to a corrected result.

    ``current`` is what the log says each wager got (the settlement with every earlier
    adjustment applied), ``before`` the dice it was settled on and ``after`` the corrected dice.
    Each wager is settled again by ``after`` (same paytable and unit as the round); every wager
    whose result changes gets a WagerAdjustment (before, after, delta). Parts of 500; at least
    one message, so the correction is recorded as applied even when nothing changes.
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


def voided(r: WagerResult) -> WagerResult:
    """A wager's result once its round is cancelled (004): void, the stake returned (a token
    too: 000 §1.1 forfeits a token only after a valid result)."""
    v = void_wager(r.stake, Medium(r.medium))
    return replace_struct(r, outcome=_OUTCOME[v.outcome], winnings=v.winnings, returned=v.returned)


def void(
    current: Sequence[WagerResult],
    *,
    table: str,
    round_no: int,
    cancel_seq: int,
    reason: str,
    actor: Actor,
    at: datetime,
) -> list[SettlementVoided]:
    """The compensation of a round settled by its result and then cancelled (004 "Ralat
    Pengendalian"): every wager whose result (``current``: the settlement with its adjustments
    applied) is not already a refund gets a WagerAdjustment to the refund. Parts of 500; at
    least one message, so the cancellation is recorded as compensated even with no wagers."""
    changes = _changed((old, voided(old)) for old in current)
    chunks = _parts(changes, f"round {round_no} of {table}: too many refunds")
    common: dict[str, Any] = {"table": table, "actor": actor, "at": at, "round": round_no}
    return [
        SettlementVoided(cancel_seq=cancel_seq, reason=reason, **common, **part)
        for part in _numbered(chunks)
    ]


def with_dice(facts: RoundFacts, dice: Dice) -> RoundFacts:
    """The same facts settled by other dice (a correction)."""
    return replace(facts, dice=dice)
