"""Who sees which player's wagers (pure): what the gateway's JSON API shows of round reports,
the board's recall and the table views, per viewer.

- floor staff (an operator signed in at a terminal, not idle-locked: dealer, supervisor,
  inspector, operator) see everything;
- a player sees their own wagers; every other player's are left out, and counted only as
  totals (``hidden``: how many, staked, returned), every other player id shown as
  ``ANOTHER_PLAYER``;
- anyone else sees the results and the totals, and no player id at all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from sicbo.gateway.views import PendingInvalidationView, PendingSignView
from sicbo.replay.report import HistoryRow, RoundReport
from sicbo_contracts.base import Limits
from sicbo_contracts.board import Recall, RecallRound
from sicbo_contracts.settlement import WagerAdjustment

ANOTHER_PLAYER = "another player"
_PLAYER_SUFFIX = " (player)"  # HistoryRow.actor: "id (role)"


@dataclass(frozen=True, slots=True)
class Viewer:
    staff: bool = False  # floor staff: every player's wagers
    player: str | None = None  # this player's own

    def sees(self, player: str) -> bool:
        return self.staff or (self.player is not None and player == self.player)

    def shown(self, player: str) -> str:
        return player if self.sees(player) else ANOTHER_PLAYER


ANONYMOUS = Viewer()
STAFF = Viewer(staff=True)


class Hidden(msgspec.Struct, frozen=True, kw_only=True):
    """Other players' wagers left out: how many, and their totals (minor units)."""

    wagers: int = 0
    staked: int = 0
    returned: int = 0


def report_for(report: RoundReport, viewer: Viewer) -> dict[str, Any]:
    """A round's dispute report as ``viewer`` may see it, with ``hidden``."""
    shown = [w for w in report.wagers if viewer.sees(w.player)]
    left_out = [w for w in report.wagers if not viewer.sees(w.player)]
    hidden = Hidden(
        wagers=len(left_out),
        staked=sum(w.stake for w in left_out),
        returned=sum(w.recorded for w in left_out),
    )
    history = [_history_row(row, viewer) for row in report.history]
    visible = msgspec.structs.replace(report, wagers=shown, history=history)
    return {**msgspec.to_builtins(visible), "hidden": msgspec.to_builtins(hidden)}


def recall_for(recall: Recall, viewer: Viewer) -> dict[str, Any]:
    """The board's game recall as ``viewer`` may see it; each round with its ``hidden``."""
    body: dict[str, Any] = msgspec.to_builtins(recall)
    body["rounds"] = [_recall_round(r, viewer) for r in recall.rounds]
    return body


def own_signs_for(
    signs: dict[str, Limits], vacating: list[str], viewer: Viewer
) -> tuple[dict[str, Limits], list[str]]:
    """A player's own signs (000 §4.4 limits, §8.9 vacate notice) as ``viewer`` may see them:
    staff every player's, a player their own, anyone else none."""
    return (
        {player: limits for player, limits in signs.items() if viewer.sees(player)},
        [player for player in vacating if viewer.sees(player)],
    )


def pending_for(
    invalidation: PendingInvalidationView | None, signs: list[PendingSignView], viewer: Viewer
) -> tuple[PendingInvalidationView | None, list[PendingSignView]]:
    """What waits for a second supervisor (dual control) as ``viewer`` may see it: the
    invalidation of the round, its forfeits only of players ``viewer`` sees; a proposed sign
    (000 §4.4) only to whoever sees its player, as the signs in force."""
    if invalidation is not None:
        forfeits = [p for p in invalidation.forfeits if viewer.sees(p)]
        invalidation = msgspec.structs.replace(invalidation, forfeits=forfeits)
    return invalidation, [s for s in signs if viewer.sees(s.player)]


def seats_for(seats: dict[int, str], viewer: Viewer) -> dict[int, str]:
    """Who sits where, each player id shown only to whoever may see it."""
    return {seat: viewer.shown(player) for seat, player in seats.items()}


def _history_row(row: HistoryRow, viewer: Viewer) -> HistoryRow:
    if not row.actor.endswith(_PLAYER_SUFFIX):
        return row  # floor staff and services act under their own ids
    player = row.actor.removesuffix(_PLAYER_SUFFIX)
    return msgspec.structs.replace(row, actor=viewer.shown(player) + _PLAYER_SUFFIX)


def _recall_round(played: RecallRound, viewer: Viewer) -> dict[str, Any]:
    left_out = [w for w in played.wagers if not viewer.sees(w.player)]
    hidden = Hidden(
        wagers=len(left_out),
        staked=sum(w.stake for w in left_out),
        returned=sum(_returned(w.final_returned, w.returned) for w in left_out),
    )
    void = played.void
    if void is not None:
        void = msgspec.structs.replace(void, forfeits=[viewer.shown(p) for p in void.forfeits])
    refund = played.refund
    if refund is not None:
        refund = msgspec.structs.replace(refund, wagers=_own(refund.wagers, viewer))
    visible = msgspec.structs.replace(
        played,
        wagers=[w for w in played.wagers if viewer.sees(w.player)],
        void=void,
        adjustments=[
            msgspec.structs.replace(a, wagers=_own(a.wagers, viewer)) for a in played.adjustments
        ],
        refund=refund,
    )
    return {**msgspec.to_builtins(visible), "hidden": msgspec.to_builtins(hidden)}


def _own(wagers: list[WagerAdjustment], viewer: Viewer) -> list[WagerAdjustment]:
    return [w for w in wagers if viewer.sees(w.player)]


def _returned(final: int | None, settled: int | None) -> int:
    return final if final is not None else settled or 0
