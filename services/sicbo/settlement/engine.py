"""The settlement of a round, and its adjustment after a corrected result: pure functions.

No clock, no I/O: the shell passes the time and the actor. What goes back to each player:

- a confirmed result: every wager is settled by the dice under the round's paytable with the
  game library's hot path (``sicbo.game.settlement.settle_round``); a promotional token wins
  its winnings only and is forfeited, win or lose (000 §1.1); a pay that is not whole is
  rounded down to the table's minimum unit (RULES.md "Money", 000 §4.1); the table's limits are
  not looked at: a wager standing when the cover came off is valid, even if it is outside the
  limits in force by then (000 §4.2; intake checks limits as it accepts a wager);
- "no result" with a refund (000 §7.5: all wagers void), an invalidated outcome (000 §8.4-8.5)
  or a cancelled round (004 "Ralat Pengendalian"): every stake is returned, a token included
  (``void_wager``; 000 §1.1 forfeits a token only after a valid result) - except that on an
  invalidation for fraud the supervisor may forfeit the fraudster's wagers (000 §8.5, §8.4.2):
  outcome ``forfeit``, nothing returned;
- "no result" where the wagers stay on the layout (002/2003 art. 3(3) "原注不得取銷", 002/2004
  art. 3(3)(4), 004 re-shake): outcome ``carried``, nothing returned, nothing collected; they
  are settled in the re-run round (``carried_in``);
- whatever the basis, the wagers of a player a supervisor declared void (000 §8.3.1) are void:
  the stake returned, no winnings, never carried; only a forfeit of 000 §8.5 (the supervisor's
  later direction, on an invalidation for fraud) takes precedence.

A corrected result (GLI-19 §4.18.4) never rewrites the settlement: :func:`adjust` lists, wager by
wager, the result before and after and the difference. A round settled by its result and then
cancelled (004 "Ralat Pengendalian": suspended, not fixed in time) is compensated the same way
by :func:`void`: every wager refunded.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from sicbo.game.dice import make_roll
from sicbo.game.profiles import carries_wagers, parse_paytable_ref
from sicbo.game.settlement import Outcome, settle_round, void_wager
from sicbo.settlement.facts import RoundFacts
from sicbo.wagers.state import StandingWager as Standing
from sicbo_contracts.base import Actor, Dice
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementBasis,
    WagerOutcome,
    WagerResult,
    WagersSettled,
)

#: Wager results per WagersSettled (and adjustments per SettlementAdjusted) message.
PART_SIZE = 500
#: A settlement is one atomic batch of at most 1000 messages: 999 parts and the summary.
MAX_WAGERS = 999 * PART_SIZE

OUTCOME = {
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
    results = _by_basis(facts)
    if not facts.voided:
        return results
    voided = frozenset(facts.voided)
    return [
        _void(w) if w.player in voided and r.outcome is not WagerOutcome.FORFEIT else r
        for w, r in zip(facts.wagers, results, strict=True)
    ]


def _void(w: Standing) -> WagerResult:
    """000 §8.3.1, 000 §7.5, §8.5, 004: void, the stake returned (a token too, 000 §1.1)."""
    v = void_wager(w.wager.stake, w.wager.medium)
    return _result(w, OUTCOME[v.outcome], v.winnings, v.returned)


def _by_basis(facts: RoundFacts) -> list[WagerResult]:
    """Each standing wager's result by the round's basis alone."""
    basis, wagers = facts.basis, facts.wagers
    if basis is None:
        raise SettlementError(f"round {facts.round} of {facts.table} has no outcome yet")
    if basis is SettlementBasis.RESULT:
        if facts.dice is None:
            raise SettlementError(f"round {facts.round} of {facts.table} has no dice")
        paytable = parse_paytable_ref(facts.paytable)
        # 000 §4.2: every standing wager is valid, whatever the limits: none is checked here.
        settled = settle_round(
            paytable,
            make_roll(facts.dice),
            [(w.wager.bet, w.wager.stake, w.wager.medium) for w in wagers],
            facts.unit,
        )
        # The hot path: one struct per wager, built inline (10,000 wagers in a few ms).
        outcome = OUTCOME
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
            out.append(_void(w))
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
        voided=list(facts.voided),
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


def with_dice(facts: RoundFacts, dice: Dice) -> RoundFacts:
    """The same facts settled by other dice (a correction)."""
    return replace(facts, dice=dice)
