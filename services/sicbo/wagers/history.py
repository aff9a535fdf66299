"""The bet history read model (004 "Rekod Pertaruhan"): each player's slips and how they settled.

004 "Dasar Pemutusan Sambungan": a player who disconnects finds their confirmed wagers, and how
they settled, in the bet history. This read model is fed the table's bets and settlement
events in log order (the stream sequence) and answers a player's slips newest first. It is a
read model, not a decider: it is kept in memory by the service, mutated in place, and rebuilt
from the log whenever a process starts.
"""

from dataclasses import dataclass, field
from datetime import datetime

from sicbo_contracts.base import Actor, Dice
from sicbo_contracts.settlement import (
    RoundSettled,
    SettlementAdjusted,
    SettlementEvent,
    WagerAdjustment,
    WagerResult,
    WagersSettled,
)
from sicbo_contracts.wagers import (
    BetHistory,
    CarriedChoice,
    CarriedSlipChosen,
    RoundSettlement,
    SlipChanged,
    SlipPlaced,
    SlipRecord,
    SlipStatus,
    SlipWithdrawn,
    Wager,
    WagerEvent,
)

HistoryEvent = WagerEvent | SettlementEvent


@dataclass
class _Slip:
    slip_id: str
    player: str
    round: int
    placed_at: datetime
    placed_by: Actor
    seq: int
    placed: list[Wager]
    wagers: list[Wager]
    status: SlipStatus = SlipStatus.ACTIVE
    changes: int = 0
    rounds: set[int] = field(default_factory=set)
    results: dict[int, list[WagerResult]] = field(default_factory=dict)
    adjustments: dict[int, list[WagerAdjustment]] = field(default_factory=dict)


@dataclass
class History:
    """One table's bet history, as far as the log was read (``last_seq``)."""

    table: str
    last_seq: int = 0
    _slips: dict[str, _Slip] = field(default_factory=dict)
    _by_player: dict[str, list[_Slip]] = field(default_factory=dict)  # in placement order
    _summaries: dict[int, tuple[str, Dice | None]] = field(default_factory=dict)

    def apply(self, seq: int, event: HistoryEvent) -> None:
        """Record one event stored at stream sequence ``seq`` (events come in log order)."""
        self.last_seq = max(self.last_seq, seq)
        match event:
            case SlipPlaced(round=r, slip_id=slip_id, player=player, wagers=wagers):
                placed = _Slip(slip_id, player, r, event.at, event.actor, seq, wagers, wagers)
                placed.rounds.add(r)
                self._slips[slip_id] = placed
                self._by_player.setdefault(player, []).append(placed)
            case SlipWithdrawn() | SlipChanged() | CarriedSlipChosen():
                if (slip := self._slips.get(event.slip_id)) is not None:
                    _moved(slip, event)
            case WagersSettled(round=r, wagers=results):
                for result in results:
                    if (settled := self._slips.get(result.slip_id)) is not None:
                        settled.rounds.add(r)
                        settled.results.setdefault(r, []).append(result)
            case RoundSettled(round=r, basis=basis, dice=dice):
                self._summaries[r] = (basis.value, dice)
            case SettlementAdjusted(round=r, adjustments=adjustments):
                for adjustment in adjustments:
                    if (adjusted := self._slips.get(adjustment.slip_id)) is not None:
                        adjusted.adjustments.setdefault(r, []).append(adjustment)

    def of_player(self, player: str, limit: int) -> BetHistory:
        """The player's latest ``limit`` slips, newest first."""
        slips = self._by_player.get(player, [])[-limit:] if limit > 0 else []
        return BetHistory(
            table=self.table, player=player, slips=[self._record(s) for s in reversed(slips)]
        )

    def _record(self, slip: _Slip) -> SlipRecord:
        settled = sorted(slip.results.keys() | slip.adjustments.keys())
        return SlipRecord(
            slip_id=slip.slip_id,
            player=slip.player,
            round=slip.round,
            rounds=sorted(slip.rounds),
            status=slip.status,
            placed_at=slip.placed_at,
            placed_by=slip.placed_by,
            seq=slip.seq,
            placed=slip.placed,
            wagers=slip.wagers,
            changes=slip.changes,
            settlements=[self._settlement(slip, r) for r in settled],
        )

    def _settlement(self, slip: _Slip, round_no: int) -> RoundSettlement:
        basis, dice = self._summaries.get(round_no, (None, None))
        return RoundSettlement(
            round=round_no,
            basis=basis,
            dice=dice,
            results=slip.results.get(round_no, []),
            adjustments=slip.adjustments.get(round_no, []),
        )


def _moved(slip: _Slip, event: SlipWithdrawn | SlipChanged | CarriedSlipChosen) -> None:
    match event:
        case SlipWithdrawn():
            slip.status, slip.wagers = SlipStatus.WITHDRAWN, []
        case SlipChanged(after=after):
            slip.wagers, slip.changes = after, slip.changes + 1
        case CarriedSlipChosen(round=r, choice=choice, after=after):
            slip.rounds.add(r)
            slip.wagers, slip.changes = after, slip.changes + 1
            if choice is CarriedChoice.CANCEL:
                slip.status = SlipStatus.CANCELLED
