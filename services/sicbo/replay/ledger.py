"""The log's invariants of money, over one table's events in log order (pure): a round settled
once and after its outcome, completed only once settled, each wager in one settlement part;
corrections, adjustments, voids and lamps chained to what they follow (a correction inside a
recorded manual mode, GLI-19 §C.6.8(o), and on a dual-control table the approval of another
supervisor's proposal).

:class:`Ledger` folds the events it needs (outcomes, results, settlements, cancellations) and
reports through the ``find`` it is given (:mod:`.invariants` drives it, with the other checks).
Whether the parts pay every standing wager, and pay it right, is the settlement audit's
(:mod:`.audit`, against a recomputation).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sicbo.replay.findings import CHAIN, ROUND_ORDER, SETTLEMENT, Find, show_dice
from sicbo.replay.owners import PartKeys
from sicbo_contracts.base import Dice
from sicbo_contracts.dice import (
    CorrectionProposed,
    CorrectionRejected,
    ManualModeEntered,
    ManualModeLeft,
    ResultConfirmed,
    ResultCorrected,
)
from sicbo_contracts.illumination import IlluminationFault, LayoutIlluminated
from sicbo_contracts.lifecycle import (
    NoResultDeclared,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    TableOpened,
)
from sicbo_contracts.settlement import RoundSettled, SettlementAdjusted, SettlementVoided
from sicbo_contracts.wagers import SlipPlaced

#: What a round is settled by (settlement's decider: a round with an outcome is settled).
OUTCOMES = (ResultConfirmed, NoResultDeclared, RoundInvalidated, RoundCancelled)


#: A compensation -> what it answers, the event type that is, and the rule.
_ANSWERED = {
    "adjustment": ("correction", "ResultCorrected", "GLI-19 §4.18.4"),
    "void": (
        "cancellation",
        "RoundCancelled or RoundInvalidated",
        '004 "Ralat Pengendalian", 000 §8.4',
    ),
}


@dataclass
class Ledger:
    find: Find
    outcomes: set[int] = field(default_factory=set)  # rounds with an outcome stored
    settling: set[int] = field(default_factory=set)  # rounds with a settlement message
    settled: dict[int, int] = field(default_factory=dict)  # round -> its RoundSettled's seq
    paid: dict[int, dict[tuple[str, int], int]] = field(default_factory=dict)  # -> part's seq
    results: dict[int, tuple[Dice, int]] = field(default_factory=dict)  # in effect, its seq
    sources: dict[int, tuple[int, Dice]] = field(default_factory=dict)  # result seq -> round
    corrections: dict[int, int] = field(default_factory=dict)  # ResultCorrected seq -> round
    cancellations: dict[int, int] = field(default_factory=dict)  # RoundCancelled seq -> round
    manual: bool = False  # in manual mode (GLI-19 §C.6.8(o))
    dual_control: bool = False  # TableConfig of the latest TableOpened
    proposals: dict[int, str] = field(default_factory=dict)  # round -> who proposed

    def see(self, seq: int, event: Any) -> None:
        """Check one event (any type), then fold it."""
        if type(event) is SlipPlaced:
            return  # nearly every event of a busy table: none of the checks below reads one
        if isinstance(event, RoundCompleted) and event.round not in self.settled:
            self.find(
                ROUND_ORDER,
                f"round {event.round} is completed before it is settled: no RoundSettled of"
                f" round {event.round} is stored before it (002 art. 4: the next round waits"
                " until every winner is paid)",
            )
        elif isinstance(event, PartKeys | RoundSettled):
            self._settlement(seq, event)
        else:
            self._chain(seq, event)
        if isinstance(event, OUTCOMES):
            self.outcomes.add(event.round)

    # -- 5. every accepted wager settled exactly once ------------------------------------------

    def _settlement(self, seq: int, event: PartKeys | RoundSettled) -> None:
        round_no = event.round
        if round_no not in self.settling:
            self.settling.add(round_no)
            if round_no not in self.outcomes:
                self.find(
                    SETTLEMENT,
                    f"round {round_no} is settled before it has an outcome: no confirmed"
                    f" result, no result, invalidation or cancellation of round {round_no} is"
                    " stored before it (000 §7.5-7.6, §8.4; 004)",
                )
        if isinstance(event, RoundSettled):
            first = self.settled.setdefault(round_no, seq)
            if first != seq:
                self.find(
                    SETTLEMENT,
                    f"round {round_no} is settled again: its RoundSettled is at seq {first} (a"
                    " round is settled once)",
                )
            return
        paid = self.paid.setdefault(round_no, {})
        again = []
        for w in event.wagers:
            key = (w.slip_id, w.index)
            if key in paid:
                again.append(f"{w.slip_id}#{w.index} (at seq {paid[key]})")
            else:
                paid[key] = seq
        if again:
            shown = ", ".join(again[:5]) + (f" and {len(again) - 5} more" if len(again) > 5 else "")
            self.find(
                SETTLEMENT,
                f"part {event.part} of round {round_no} settles {len(again)} wager(s) already"
                f" settled: {shown} (every accepted wager is settled exactly once)",
            )

    # -- 6. corrections, adjustments, voids and lamps chained to what they follow -------------

    def _chain(self, seq: int, event: Any) -> None:
        match event:
            case ResultConfirmed(round=round_no, dice=dice):
                self.results[round_no] = (dice, seq)
                self.sources[seq] = (round_no, dice)
            case ResultCorrected(round=round_no, before=before, after=after):
                self._corrected(round_no, before)
                self._by_hand(event)
                self.results[round_no] = (after, seq)
                self.sources[seq] = (round_no, after)
                self.corrections[seq] = round_no
            case RoundCancelled(round=round_no) | RoundInvalidated(round=round_no):
                self.cancellations[seq] = round_no  # what a void answers (004, 000 §8.4)
            case SettlementAdjusted(round=round_no, correction_seq=named):
                if self.corrections.get(named) != round_no:
                    self._unchained("adjustment", round_no, named)
            case SettlementVoided(round=round_no, cancel_seq=named):
                if self.cancellations.get(named) != round_no:
                    self._unchained("void", round_no, named)
            case LayoutIlluminated() | IlluminationFault():
                self._lit(event)
            case TableOpened(config=config):
                self.dual_control = config.dual_control
            case ManualModeEntered() | ManualModeLeft():
                self.manual = isinstance(event, ManualModeEntered)
            case CorrectionProposed(round=round_no, actor=actor):
                self.proposals[round_no] = actor.id
            case CorrectionRejected(round=round_no):
                self.proposals.pop(round_no, None)

    def _unchained(self, what: str, round_no: int, named: int) -> None:
        """A compensation that names no stored event of its round that it answers."""
        answers, event_type, rule = _ANSWERED[what]
        self.find(
            CHAIN,
            f"the {what} of round {round_no} names the {answers} at seq {named}, which is no"
            f" {event_type} of round {round_no} stored before it ({rule})",
        )

    def _corrected(self, round_no: int, before: Dice) -> None:
        in_effect = self.results.get(round_no)
        if in_effect is None:
            self.find(
                CHAIN,
                f"the result of round {round_no} is corrected, but none of round {round_no} is"
                " confirmed before it (GLI-19 §4.18.4: a confirmed result is corrected)",
            )
        elif sorted(before) != sorted(in_effect[0]):
            self.find(
                CHAIN,
                f"the correction of round {round_no} starts from {show_dice(before)}, but the"
                f" result in effect is {show_dice(in_effect[0])} (seq {in_effect[1]})",
            )

    def _by_hand(self, event: ResultCorrected) -> None:
        """A correction is entered in manual mode; with dual control it approves another
        supervisor's proposal of its round."""
        if not self.manual:
            self.find(
                CHAIN,
                f"the correction of round {event.round} is stored outside manual mode: no"
                " ManualModeEntered before it without a ManualModeLeft since (GLI-19 §C.6.8(o))",
            )
        if not self.dual_control:
            return
        proposer = self.proposals.pop(event.round, None)
        if proposer is None or proposer != event.proposed_by or proposer == event.actor.id:
            self.find(
                CHAIN,
                f"the correction of round {event.round} takes effect without approving another"
                f" supervisor's proposal (proposed by {proposer!r}, approved by"
                f" {event.actor.id!r}; TableConfig.dual_control)",
            )

    def _lit(self, event: LayoutIlluminated | IlluminationFault) -> None:
        source = self.sources.get(event.source_seq)
        if source is None or source[0] != event.round:
            self.find(
                CHAIN,
                f"the layout of round {event.round} is lit for the result at seq"
                f" {event.source_seq}, which is no confirmed or corrected result of round"
                f" {event.round} stored before it (000 §2.3)",
            )
        elif sorted(source[1]) != sorted(event.dice):
            self.find(
                CHAIN,
                f"the layout of round {event.round} is lit for {show_dice(event.dice)}, but"
                f" the result at seq {event.source_seq} is {show_dice(source[1])} (000 §2.3)",
            )
