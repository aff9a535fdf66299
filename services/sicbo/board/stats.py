"""The statistics board (004 "the previous 50 rounds"): pure folds of the log.

A round's outcome is what settlement and replay say it is: :class:`TableLog` facts, folded
from the round's lifecycle events by the same code (a result confirmed then invalidated ends
invalidated; a correction replaces the dice). Big, small, odd and even come from the game
library under the paytable the round was played under, never from rules written again here.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import msgspec

from sicbo.game.bets import Bet, BetKind, parse_bet
from sicbo.game.dice import FACES, Roll, is_triple, make_roll
from sicbo.game.evaluation import pay_for, pay_level
from sicbo.game.profiles import Paytable, carries_wagers, parse_paytable_ref
from sicbo.replay.history import Stored
from sicbo.settlement.facts import FactEvent, TableLog
from sicbo_contracts.base import DECODE_ERRORS, Dice
from sicbo_contracts.board import BoardResult, BoardVoid, StatsBoard
from sicbo_contracts.lifecycle import (
    NoResultDeclared,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    RoundStarted,
)
from sicbo_contracts.settlement import SettlementBasis
from sicbo_contracts.subjects import Aggregate, parse_event_subject

log = logging.getLogger(__name__)

_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(FactEvent)
#: The event that gives a void round its outcome, by basis.
_VOID_EVENT: dict[SettlementBasis, type] = {
    SettlementBasis.NO_RESULT: NoResultDeclared,
    SettlementBasis.INVALIDATED: RoundInvalidated,
    SettlementBasis.CANCELLED: RoundCancelled,
}
TOTALS = range(3, 19)


@dataclass(frozen=True, slots=True)
class RoundLine:
    """What the board needs of one started round."""

    round: int
    started_seq: int  # stream sequence of its RoundStarted
    paytable: str
    basis: SettlementBasis | None  # None: no outcome yet (being played)
    dice: Dice | None  # the confirmed result after every correction
    corrected: bool
    reason: str  # a void round's reason ("" otherwise)
    #: A "no result" left its wagers on the layout for the next round (002 art. 3(3), 004):
    #: the next round's wagers include this round's (as :class:`TableLog` folds them).
    carries_over: bool

    @property
    def ended(self) -> bool:
        return self.basis is not None

    @property
    def is_result(self) -> bool:
        return self.basis is SettlementBasis.RESULT and self.dice is not None


def decode_lifecycle(events: Iterable[Stored], round_no: int) -> list[tuple[int, Any]]:
    """The round's lifecycle (and dice) events, decoded, in the order given."""
    out: list[tuple[int, Any]] = []
    for e in events:
        subject = parse_event_subject(e.subject)
        if subject is None or subject.aggregate is not Aggregate.LIFECYCLE:
            continue
        if subject.round != round_no:
            continue
        try:
            out.append((e.seq, _decoder.decode(e.data)))
        except DECODE_ERRORS:
            # Forward compatibility, as TableLog does: an unknown event type is skipped.
            log.warning("board skips undecodable event seq=%s on %s", e.seq, e.subject)
    return out


def outcome(
    decoded: Sequence[tuple[int, Any]], basis: SettlementBasis | None
) -> tuple[SettlementBasis | None, Any | None]:
    """How the round ended, and the event that voided it (None for a result).

    ``basis`` is what :meth:`TableLog.facts` says the round was settled on: the last outcome
    before the round completed. A result cancelled afterwards (004 "Ralat Pengendalian": the
    round was suspended and not fixed in time, and settlement refunds every wager) is no
    result: the round counts as cancelled."""
    if basis is SettlementBasis.RESULT:
        cancelled = next((e for _, e in decoded if isinstance(e, RoundCancelled)), None)
        if cancelled is None:
            return basis, None
        return SettlementBasis.CANCELLED, cancelled
    kind = _VOID_EVENT.get(basis) if basis is not None else None
    found = None
    for _, event in decoded:
        if isinstance(event, RoundCompleted):
            break
        if kind is not None and isinstance(event, kind):
            found = event
    return basis, found


def round_line(table: str, round_no: int, events: Iterable[Stored]) -> RoundLine | None:
    """Fold one round's stored events (others are ignored) into its line; None when the
    round has not started in them."""
    decoded = decode_lifecycle(events, round_no)
    table_log = TableLog(table)
    for seq, event in decoded:
        table_log.add(seq, event)
    facts = table_log.facts(round_no)
    if facts is None:
        return None
    started = next(seq for seq, e in decoded if isinstance(e, RoundStarted))
    basis, ended_by = outcome(decoded, facts.basis)
    return RoundLine(
        round=round_no,
        started_seq=started,
        paytable=facts.paytable,
        basis=basis,
        dice=make_roll(facts.dice) if facts.dice is not None else None,
        corrected=bool(facts.corrections),
        reason=str(ended_by.reason) if ended_by is not None else "",
        carries_over=any(
            isinstance(e, NoResultDeclared) and carries_wagers(e.consequence) for _, e in decoded
        ),
    )


# ---- classifying a result with the game library ---------------------------------------------

#: The board's four bet spots.
BOARD_BETS = (BetKind.BIG, BetKind.SMALL, BetKind.ODD, BetKind.EVEN)
_BIG, _SMALL, _ODD, _EVEN = (parse_bet(k.value) for k in BOARD_BETS)


@cache
def paytable_of(ref: str) -> Paytable:
    return parse_paytable_ref(ref)


def wins(paytable: Paytable, bet: Bet, roll: Roll) -> bool:
    """Whether the bet spot wins on ``roll`` under ``paytable``: the library's own decision
    (:func:`pay_for`). For a bet the paytable does not offer (odd/even under ``cca-1992`` or
    ``macau-2003``), the bet's condition under the profile's triple rule, which names none."""
    if paytable.offers(bet):
        return pay_for(paytable, bet, roll) is not None
    killed = is_triple(roll) and paytable.kills_on_triple(bet.kind)
    return pay_level(bet, roll) is not None and not killed


def board_result(line: RoundLine) -> BoardResult:
    assert line.dice is not None
    roll = make_roll(line.dice)
    paytable = paytable_of(line.paytable)
    return BoardResult(
        round=line.round,
        dice=line.dice,
        total=sum(roll),
        triple=is_triple(roll),
        big=wins(paytable, _BIG, roll),
        small=wins(paytable, _SMALL, roll),
        odd=wins(paytable, _ODD, roll),
        even=wins(paytable, _EVEN, roll),
        corrected=line.corrected,
        paytable=line.paytable,
    )


def window(lines: Sequence[RoundLine], limit: int) -> tuple[list[RoundLine], list[RoundLine]]:
    """The last ``limit`` results and the void rounds among them, both oldest first.

    ``lines`` are every round from the table's first (or from well before the window) in
    round order. The voids are those after the oldest result of a full window, or all of
    them while the table has fewer than ``limit`` results."""
    results = [line for line in lines if line.is_result][-limit:]
    since = results[0].round if len(results) == limit else 0
    voids = [
        line
        for line in lines
        if line.ended and line.basis is not SettlementBasis.RESULT and line.round > since
    ]
    return results, voids


def stats_board(table: str, lines: Sequence[RoundLine], limit: int, as_of: int) -> StatsBoard:
    """The board of the last ``limit`` results of ``lines`` (see :func:`window`)."""
    results, voids = window(lines, limit)
    shown = [board_result(line) for line in results]
    totals = Counter(r.total for r in shown)
    faces = Counter(face for r in shown for face in r.dice)
    return StatsBoard(
        table=table,
        limit=limit,
        results=shown,
        big=sum(r.big for r in shown),
        small=sum(r.small for r in shown),
        odd=sum(r.odd for r in shown),
        even=sum(r.even for r in shown),
        triples=sum(r.triple for r in shown),
        totals={t: totals[t] for t in TOTALS},
        faces={f: faces[f] for f in FACES},
        voids=[
            BoardVoid(round=v.round, basis=v.basis, reason=v.reason)
            for v in voids
            if v.basis is not None
        ],
        as_of=as_of,
    )
