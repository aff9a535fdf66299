"""Settlement as a decider (pure): its state folded from a table's log, and what is due.

The state is the table's lifecycle and bets events (:class:`~sicbo.settlement.facts.TableLog`,
the facts settlement computes from) and, per round, what the log says was paid
(:class:`Paid`). :func:`due` says what the round needs next; the settlement service acts on it
and replay's audit asks it what is still pending, so both read the same rules:

1. a round with an outcome and no settlement: settle it (000 §7.6 settles by the dice;
   000 §7.5, §8.5 and 004 for the other outcomes);
2. a round settled by its result and cancelled after that (004 "Ralat Pengendalian":
   suspended and not fixed in time): void it, every wager refunded, once;
3. otherwise, a round settled by its result whose result was corrected after what was paid
   (GLI-19 §4.18.4): adjust it to the latest correction;
4. then complete it (002 art. 4: the next round starts only after the last was paid).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sicbo.settlement.facts import Cancellation, Correction, RoundFacts, TableLog
from sicbo_contracts.lifecycle import RoundCompleted, RoundStarted, TableOpened
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementAdjusted,
    SettlementBasis,
    SettlementVoided,
)

#: Rounds of a table kept in memory before the newest one (older ones are read again).
KEEP_ROUNDS = 20


@dataclass
class Paid:
    """What the log says was paid for one round."""

    summary: RoundSettled | None = None  # the settlement's RoundSettled (the first one)
    adjusted_to: int = 0  # the last correction an adjustment was stored for
    voided: bool = False  # refunded after a cancellation (004)
    #: The last sequence stored on the round's settlement filter, whatever it holds (an entry
    #: no reader folds included): the settlement batch expects the filter as it is, so an
    #: entry a forger stored there never wedges the round (issue 25).
    last_seq: int = 0

    @property
    def covered(self) -> int:
        """The last sequence of corrections already reflected in what was paid."""
        as_of = self.summary.as_of if self.summary is not None else 0
        return max(as_of, self.adjusted_to)


@dataclass
class SettlementState:
    table: str
    log: TableLog
    paid: dict[int, Paid] = field(default_factory=dict)
    completed: set[int] = field(default_factory=set)
    kept_from: int = 0  # rounds before this one were forgotten
    #: Whether the table states no currency now (its last TableOpened; None: no TableOpened
    #: read, as for a round read alone), and the rounds started while it stated none: their
    #: chips are the table's, no account was debited (issue 14), so settlement has no account
    #: to read or pay for them (a round not in the set may have some).
    no_currency: bool | None = None
    chips_rounds: set[int] = field(default_factory=set)

    def chips_only(self, round_no: int) -> bool:
        return round_no in self.chips_rounds

    def paid_for(self, round_no: int) -> Paid:
        return self.paid.get(round_no) or Paid()


def stored_on_settle(state: SettlementState, round_no: int, seq: int) -> None:
    """Mark an entry read on the round's settlement filter (``sicbo.evt.<t>.settle.<r>.>``)."""
    paid = state.paid.setdefault(round_no, Paid())
    paid.last_seq = max(paid.last_seq, seq)


def initial_state(table: str) -> SettlementState:
    return SettlementState(table, TableLog(table))


def evolve(state: SettlementState, seq: int, event: Any) -> SettlementState:
    """Fold one event of the table's log (lifecycle, dice, bets, settlement summaries)."""
    match event:
        case RoundSettled(round=round_no):
            paid = state.paid.setdefault(round_no, Paid())
            if paid.summary is None:
                paid.summary = event
            state.log.settled(round_no)
        case SettlementAdjusted(round=round_no, correction_seq=correction_seq):
            paid = state.paid.setdefault(round_no, Paid())
            paid.adjusted_to = max(paid.adjusted_to, correction_seq)
        case SettlementVoided(round=round_no):
            state.paid.setdefault(round_no, Paid()).voided = True
        case _:
            if isinstance(event, RoundCompleted):
                state.completed.add(event.round)
            elif isinstance(event, TableOpened):
                state.no_currency = event.config.currency is None
            elif isinstance(event, RoundStarted) and state.no_currency:
                state.chips_rounds.add(event.round)
            state.log.add(seq, event)
    return state


def forget_old(state: SettlementState) -> None:
    """Keep the newest rounds only: a long-running service's memory stays bounded."""
    keep_from = max(state.log.rounds(), default=0) - KEEP_ROUNDS
    if keep_from <= state.kept_from:
        return
    state.log.forget_before(keep_from)
    state.paid = {r: p for r, p in state.paid.items() if r >= keep_from}
    state.completed = {r for r in state.completed if r >= keep_from}
    state.chips_rounds = {r for r in state.chips_rounds if r >= keep_from}
    state.kept_from = keep_from


# -- what is due -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Settle:
    facts: RoundFacts


@dataclass(frozen=True)
class Void:
    summary: RoundSettled
    cancellation: Cancellation


@dataclass(frozen=True)
class Adjust:
    summary: RoundSettled
    correction: Correction  # the latest: what is paid is brought up to it


@dataclass(frozen=True)
class Complete:
    players: tuple[str, ...]


Due = Settle | Void | Adjust | Complete


def void_due(log: TableLog, round_no: int, summary: RoundSettled) -> Cancellation | None:
    """The cancellation that voids a round settled by its result (004), if any."""
    cancelled = log.cancellation(round_no)
    if (
        cancelled is not None
        and cancelled.seq > summary.as_of
        and summary.basis is SettlementBasis.RESULT
    ):
        return cancelled
    return None


def corrections_due(
    log: TableLog, round_no: int, summary: RoundSettled, covered: int
) -> list[Correction]:
    """The corrections of a result-settled round not reflected in what was paid yet."""
    if summary.basis is not SettlementBasis.RESULT:
        return []  # a correction after a void outcome only records the dice
    return [c for c in log.corrections(round_no) if c.seq > covered]


def due(state: SettlementState, round_no: int) -> Due | None:
    """What the round needs next, or None when nothing (no outcome yet, or all done)."""
    paid = state.paid_for(round_no)
    summary = paid.summary
    if summary is None:
        # The facts fold every standing wager: worked out only when a settlement is due.
        facts = state.log.facts(round_no)
        if facts is None or not facts.ended:
            return None
        return Settle(facts)
    cancelled = void_due(state.log, round_no, summary)
    if cancelled is not None:
        if not paid.voided:
            return Void(summary, cancelled)
    else:
        pending = corrections_due(state.log, round_no, summary, paid.covered)
        if pending:
            return Adjust(summary, pending[-1])
    if round_no not in state.completed:
        return Complete(tuple(summary.players))
    return None
