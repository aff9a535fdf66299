"""One table's recent rounds as stored, and the board and recall folded from them (pure).

The model holds the stored events of the rounds from :attr:`TableReadModel.lowest` on, grouped
by round, deduplicated by stream sequence (the same event may come from two reads). Rounds
from :attr:`TableReadModel.full_from` on hold every event of theirs (lifecycle, bets,
settlement: what recall shows); older ones need only their lifecycle events (what the board
counts). Each round's fold is kept until an event of that round arrives, so a caught-up model
refolds only the rounds that changed.

:meth:`TableReadModel.missing` says when the model holds too little history to answer (the
service then loads it again from further back) and :meth:`TableReadModel.trim` forgets the
rounds no answer needs any more.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field

from sicbo.board.recall import recall_of, recall_round
from sicbo.board.stats import RoundLine, round_line, stats_board, window
from sicbo.replay.history import Stored
from sicbo_contracts.board import RECALL_DEPTH, STATS_DEPTH, Recall, RecallRound, StatsBoard
from sicbo_contracts.subjects import TABLE_ROUND, parse_event_subject

#: Rounds kept below the oldest one an answer needs, so that a result invalidated before its
#: round completed (one result fewer) does not send the service back to the log.
MARGIN = 8


@dataclass
class _Held:
    events: list[Stored] = field(default_factory=list)  # in stream order
    seqs: set[int] = field(default_factory=set)
    version: int = 0  # bumped by every event added


class TableReadModel:
    def __init__(self, table: str, *, lowest: int = 1, full_from: int = 1) -> None:
        self.table = table
        #: Rounds below are not held (no answer needs them).
        self.lowest = lowest
        #: Rounds from here on hold every event; older ones at least their lifecycle events.
        self.full_from = full_from
        #: The table's log is folded up to this stream sequence.
        self.mark = 0
        self._rounds: dict[int, _Held] = {}
        self._lines: dict[int, tuple[int, RoundLine | None]] = {}
        self._recalls: dict[int, tuple[tuple[int, ...], RecallRound | None]] = {}

    @classmethod
    def of_log(cls, table: str, stored: Iterable[Stored]) -> TableReadModel:
        """A model of a table's whole log (every round, every event)."""
        model = cls(table)
        model.extend(stored)
        return model

    # -- adding -----------------------------------------------------------------------------

    def add(self, e: Stored) -> None:
        """Add one stored event (another table's, a table-level one, a known one: ignored)."""
        subject = parse_event_subject(e.subject)
        if subject is None or subject.table != self.table:
            return
        round_no = subject.round
        if round_no == TABLE_ROUND or round_no < self.lowest:
            return
        held = self._rounds.get(round_no)
        if held is None:
            held = self._rounds[round_no] = _Held()
        if e.seq in held.seqs:
            return
        held.seqs.add(e.seq)
        if held.events and e.seq < held.events[-1].seq:
            bisect.insort(held.events, e, key=lambda x: x.seq)
        else:
            held.events.append(e)
        held.version += 1

    def extend(self, stored: Iterable[Stored]) -> None:
        """Add events read from the log; the model is caught up to the last one."""
        for e in stored:
            self.add(e)
            self.mark = max(self.mark, e.seq)

    # -- reading ----------------------------------------------------------------------------

    def rounds(self) -> list[int]:
        return sorted(self._rounds)

    def latest_round(self) -> int:
        return max(self._rounds, default=0)

    def holds(self, seq: int) -> bool:
        return any(seq in held.seqs for held in self._rounds.values())

    def line(self, round_no: int) -> RoundLine | None:
        held = self._rounds.get(round_no)
        if held is None:
            return None
        memo = self._lines.get(round_no)
        if memo is None or memo[0] != held.version:
            memo = self._lines[round_no] = (
                held.version,
                round_line(self.table, round_no, held.events),
            )
        return memo[1]

    def lines(self) -> list[RoundLine]:
        """Every held round that has started, in round order."""
        return [line for n in self.rounds() if (line := self.line(n)) is not None]

    def recall_rounds(self, limit: int = RECALL_DEPTH) -> list[int]:
        """The last ``limit`` rounds that have an outcome, in round order."""
        return [line.round for line in self.lines() if line.ended][-limit:]

    def chain(self, round_no: int) -> list[int]:
        """The rounds whose events settlement folds for ``round_no``: the void rounds whose
        wagers were carried into it, then the round itself (as :class:`TableLog` walks back)."""
        first = round_no
        while (previous := self.line(first - 1)) is not None and previous.carries_over:
            first -= 1
        return list(range(first, round_no + 1))

    def stats(self, limit: int = STATS_DEPTH) -> StatsBoard:
        return stats_board(self.table, self.lines(), limit, self.mark)

    def recall(self, limit: int = RECALL_DEPTH) -> Recall:
        rounds = [r for n in self.recall_rounds(limit) if (r := self._recall(n)) is not None]
        return recall_of(self.table, rounds, limit, self.mark)

    def _recall(self, round_no: int) -> RecallRound | None:
        chain = self.chain(round_no)
        key = tuple(self._rounds[n].version for n in chain)
        memo = self._recalls.get(round_no)
        if memo is None or memo[0] != key:
            events = sorted((e for n in chain for e in self._rounds[n].events), key=_seq)
            memo = self._recalls[round_no] = (key, recall_round(self.table, round_no, events))
        return memo[1]

    # -- keeping it bounded -----------------------------------------------------------------

    def missing(self) -> bool:
        """Whether an answer needs rounds the model does not hold (fully): fewer than 50
        results while older rounds exist, or a recalled round (or a void round carried into
        it) older than :attr:`full_from` or with an unknown predecessor."""
        lines = self.lines()
        if self.lowest > 1 and sum(line.is_result for line in lines) < STATS_DEPTH:
            return True
        for round_no in self.recall_rounds():
            first = self.chain(round_no)[0]
            if first < self.full_from or (first == self.lowest > 1):
                return True
        return False

    def needed_from(self) -> int:
        """The oldest round an answer needs: of the 50 results, and of the recalled rounds
        with the void rounds carried into them."""
        results, _ = window(self.lines(), STATS_DEPTH)
        oldest = results[0].round if len(results) == STATS_DEPTH else self.lowest
        recalled = self.recall_rounds()
        if recalled:
            oldest = min(oldest, self.chain(recalled[0])[0])
        return oldest

    def recall_from(self) -> int:
        """The oldest round recall needs in full (0 when no round has an outcome)."""
        recalled = self.recall_rounds()
        return self.chain(recalled[0])[0] if recalled else 0

    def started_seq(self, round_no: int) -> int | None:
        line = self.line(round_no)
        return line.started_seq if line is not None else None

    def trim(self, margin: int = MARGIN) -> None:
        """Forget the rounds more than ``margin`` below the oldest one an answer needs."""
        keep = max(self.lowest, self.needed_from() - margin)
        for round_no in [n for n in self._rounds if n < keep]:
            del self._rounds[round_no]
            self._lines.pop(round_no, None)
            self._recalls.pop(round_no, None)
        self.lowest = keep
        self.full_from = max(self.full_from, keep)


def _seq(e: Stored) -> int:
    return e.seq
