"""What a round's settlement is computed from, folded from the table's log (pure).

The settlement service and replay build the facts with the same code, from the same events,
up to the same stream sequence (``RoundSettled.as_of``), so replay recomputes exactly the
decision that was recorded.

Facts of round R:
- the paytable the round was started under (``RoundStarted.paytable``; DESIGN.md "Rule profiles
  as data": replay settles with that version);
- the table's minimum unit (``limits.unit``, 000 §4.1) in force when the round's outcome was
  stored: pays that are not whole are rounded down to it (RULES.md "Money");
- the basis: the outcome the round ended on, the latest one while it was not yet completed,
  as the lifecycle records it (a result confirmed then invalidated by a supervisor, 000 §8.4, or
  cancelled, 004, ends invalidated or cancelled; a confirmation after "no result" only records
  the dice);
- the dice (the confirmed result after every correction up to ``as_of``) and the corrections;
- the standing wagers, from the wager intake decider's own fold (:func:`sicbo.wagers.evolve.fold`):
  settlement settles exactly the wagers intake accepted, never a copy of its rules;
- the players whose wagers a supervisor declared void in the round before its outcome
  (``PlayerWagersVoided``, 000 §8.3.1): settled void whatever the basis. Wager intake's fold
  carries none of their slips into a re-run, so they are paid back once, in this round.
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from sicbo.game.profiles import carries_wagers
from sicbo.settlement.standing import StandingFolds
from sicbo.wagers.state import StandingWager as Standing
from sicbo_contracts.base import DECODE_ERRORS, Dice
from sicbo_contracts.dice import DiceEvent, ResultConfirmed, ResultCorrected
from sicbo_contracts.lifecycle import (
    LifecycleEvent,
    LimitsChanged,
    NoResultDeclared,
    PlayerWagersVoided,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    RoundStarted,
    TableOpened,
)
from sicbo_contracts.owners import misfiled
from sicbo_contracts.settlement import SettlementBasis
from sicbo_contracts.subjects import TABLE_ROUND, Aggregate, parse_event_subject
from sicbo_contracts.wagers import WagerEvent

log = logging.getLogger(__name__)

#: The events the facts are folded from: the lifecycle aggregate (with the result) and bets.
FactEvent = LifecycleEvent | DiceEvent | WagerEvent
FOLDED_AGGREGATES = frozenset({Aggregate.LIFECYCLE, Aggregate.BETS})
_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(FactEvent)


@dataclass(frozen=True, slots=True)
class Correction:
    """A supervisor's correction of the confirmed result (``ResultCorrected``)."""

    seq: int  # its stream sequence: the ``correction_seq`` of the adjustment
    before: Dice
    after: Dice


@dataclass(frozen=True, slots=True)
class Cancellation:
    """The round's outcome was voided: cancelled (``RoundCancelled``, 004) or invalidated
    (``RoundInvalidated``, 000 §8.4); after its result was paid, settlement voids it."""

    seq: int  # its stream sequence: the ``cancel_seq`` of the SettlementVoided
    reason: str
    #: 000 §8.5: invalidated for fraud, these players' wagers are forfeited, not refunded.
    forfeits: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundFacts:
    table: str
    round: int
    paytable: str
    unit: int
    basis: SettlementBasis | None  # None: the round has no outcome yet
    dice: Dice | None  # the confirmed result (after the corrections up to ``as_of``)
    consequence: str | None  # no-result: refund | carry-over-locked | player-choice
    forfeits: tuple[str, ...]  # invalidated for fraud: players whose wagers are forfeited
    wagers: tuple[Standing, ...]
    corrections: tuple[Correction, ...]
    completed: bool  # RoundCompleted is stored
    as_of: int  # the last stream sequence folded
    #: 000 §8.3.1: players whose wagers in the round are void (returned, no winnings).
    voided: tuple[str, ...] = ()

    @property
    def ended(self) -> bool:
        return self.basis is not None


@dataclass
class _Round:
    number: int
    paytable: str = ""
    events: list[tuple[int, Any]] = field(default_factory=list)  # (seq, event) of lc + bets


class TableLog:
    """A table's lifecycle and bets events, grouped by round, kept in log order.

    Add events as they are read (``add`` / ``add_stored``); ask for the facts of a round as of
    any sequence already added (``facts``). Each round keeps only its own events, so the cost
    of ``facts`` is the size of that round (and of the void rounds carried into it).
    """

    def __init__(self, table: str) -> None:
        self.table = table
        self.last_seq = 0
        self._rounds: dict[int, _Round] = {}
        self._units: list[tuple[int, int]] = []  # (seq, unit) of each limits change
        self._folds = StandingFolds(table)  # the standing wagers' folds, caught up

    # -- adding -----------------------------------------------------------------------------

    def add(self, seq: int, event: Any) -> None:
        """Add one decoded event (lifecycle, dice or bets) with its stream sequence; one that
        names another table is none of this table's facts (forged or misfiled)."""
        if seq > self.last_seq:
            self.last_seq = seq
        if getattr(event, "table", self.table) != self.table:
            log.warning("skipping event seq=%s of table %s", seq, getattr(event, "table", None))
            return
        match event:
            case TableOpened(config=config):
                self._units.append((seq, config.limits.unit))
            case LimitsChanged(after=after):
                self._units.append((seq, after.unit))
        round_no = getattr(event, "round", None)
        if not isinstance(round_no, int) or round_no == TABLE_ROUND:
            return
        entry = self._rounds.get(round_no)
        if entry is None:
            entry = self._rounds[round_no] = _Round(round_no)
        if isinstance(event, RoundStarted):
            entry.paytable = event.paytable
        entry.events.append((seq, event))

    def add_stored(self, seq: int, subject: str, data: bytes) -> bool:
        """Add a stored message if it is a lifecycle or bets event; False when skipped."""
        if seq > self.last_seq:
            self.last_seq = seq
        parsed = parse_event_subject(subject)
        if parsed is None or parsed.aggregate not in FOLDED_AGGREGATES:
            return False
        try:
            event = _decoder.decode(data)
        except DECODE_ERRORS:
            # Forward compatibility: an event type this version does not know is skipped.
            log.warning("skipping undecodable event seq=%s on %s", seq, subject)
            return False
        if why := misfiled(parsed, event):
            # Forged or misfiled: no service's (replay reports it); never a fact of a round.
            log.warning("skipping event seq=%s on %s: %s", seq, subject, "; ".join(why))
            return False
        self.add(seq, event)
        return True

    def settled(self, round_no: int) -> None:
        """The round's settlement is stored: its standing wagers' folds are not kept."""
        self._folds.drop(round_no)

    def folded_rounds(self) -> set[int]:
        """The rounds whose standing wagers' folds are kept."""
        return self._folds.kept_rounds()

    def forget_before(self, round_no: int) -> None:
        """Drop rounds older than ``round_no`` (a long-running service's memory)."""
        for number in [n for n in self._rounds if n < round_no]:
            del self._rounds[number]

    # -- reading ----------------------------------------------------------------------------

    def rounds(self) -> list[int]:
        return sorted(self._rounds)

    def facts(
        self, round_no: int, as_of: int | None = None, *, standing: Sequence[Standing] | None = None
    ) -> RoundFacts | None:
        """The facts of ``round_no`` from the events up to ``as_of`` (default: all added);
        None when the round has not started by then. ``standing``: the round's standing wagers
        as of then, when the caller has folded them already (replay's checks fold the table's
        wager state anyway); else they are folded here from the round's events."""
        limit = self.last_seq if as_of is None else as_of
        entry = self._rounds.get(round_no)
        if entry is None or not entry.paytable:
            return None
        events = [(s, e) for s, e in entry.events if s <= limit]
        if not any(isinstance(e, RoundStarted) for _, e in events):
            return None
        basis: SettlementBasis | None = None
        ended_seq = 0
        dice: Dice | None = None
        consequence: str | None = None
        forfeits: tuple[str, ...] = ()
        corrections: list[Correction] = []
        voided: list[str] = []
        completed = False
        for seq, event in events:
            if isinstance(event, PlayerWagersVoided):
                if basis is None and not completed and event.player not in voided:
                    voided.append(event.player)  # 000 §8.3.1: before the round's outcome
            elif isinstance(event, RoundCompleted):
                completed = True
            elif isinstance(event, ResultConfirmed):
                dice = event.dice
                if basis is None and not completed:
                    basis, ended_seq = SettlementBasis.RESULT, seq
            elif isinstance(event, ResultCorrected):
                dice = event.after
                corrections.append(Correction(seq, event.before, event.after))
            elif completed:
                continue  # a completed round keeps the outcome it was settled on
            elif isinstance(event, NoResultDeclared):
                basis, ended_seq = SettlementBasis.NO_RESULT, seq
                consequence, forfeits = event.consequence, ()
            elif isinstance(event, RoundInvalidated):
                basis, ended_seq = SettlementBasis.INVALIDATED, seq
                consequence, forfeits = None, tuple(event.forfeits)
            elif isinstance(event, RoundCancelled):
                basis, ended_seq = SettlementBasis.CANCELLED, seq
                consequence, forfeits = None, ()
        return RoundFacts(
            table=self.table,
            round=round_no,
            paytable=entry.paytable,
            unit=self._unit_at(ended_seq or limit),
            basis=basis,
            dice=dice,
            consequence=consequence,
            forfeits=forfeits,
            wagers=tuple(self._standing(round_no, limit) if standing is None else standing),
            corrections=tuple(corrections),
            completed=completed,
            as_of=limit,
            voided=tuple(voided),
        )

    def _unit_at(self, seq: int) -> int:
        at = bisect.bisect_right(self._units, (seq, float("inf")))
        return self._units[at - 1][1] if at else 1

    def _carried_from(self, round_no: int, limit: int) -> bool:
        """Whether the round before ``round_no`` ended in a "no result" that carries its
        wagers to the re-run (002/2003 art. 3(3), 002/2004 art. 3(4), 004 re-shake)."""
        previous = self._rounds.get(round_no - 1)
        if previous is None:
            return False
        return any(
            isinstance(e, NoResultDeclared) and carries_wagers(e.consequence) and s <= limit
            for s, e in previous.events
        )

    def corrections(self, round_no: int) -> list[Correction]:
        """Every correction of the round's result in the log (no fold of the wagers)."""
        entry = self._rounds.get(round_no)
        if entry is None:
            return []
        return [
            Correction(s, e.before, e.after)
            for s, e in entry.events
            if isinstance(e, ResultCorrected)
        ]

    def cancellation(self, round_no: int) -> Cancellation | None:
        """The round's cancellation (004) or invalidation (000 §8.4) in the log, if any (also
        after it was settled); the lifecycle stores at most one of them per round."""
        entry = self._rounds.get(round_no)
        if entry is None:
            return None
        for seq, event in entry.events:
            if isinstance(event, RoundCancelled):
                return Cancellation(seq, event.reason)
            if isinstance(event, RoundInvalidated):
                return Cancellation(seq, event.reason.value, tuple(event.forfeits))
        return None

    def _standing(self, round_no: int, limit: int) -> list[Standing]:
        first = round_no
        while first - 1 in self._rounds and self._carried_from(first, limit):
            first -= 1
        events = [
            [e for s, e in self._rounds[number].events if s <= limit]
            for number in range(first, round_no + 1)
        ]
        return self._folds.standing(first, round_no, events)


def facts_of_round(table: str, round_no: int, events: Iterable[tuple[int, Any]]) -> RoundFacts:
    """The facts of one round from the table's lifecycle and bets events ``(seq, event)`` in
    log order (those after the settlement's ``as_of`` must not be given). Raises ``LookupError``
    when the round has not started in those events."""
    table_log = TableLog(table)
    for seq, event in events:
        table_log.add(seq, event)
    facts = table_log.facts(round_no)
    if facts is None:
        raise LookupError(f"round {round_no} of {table} has not started in these events")
    return facts
