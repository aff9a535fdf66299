"""What the layout should show and whether it does (pure: no clock, no I/O).

000 §2.3: when the result is entered, "all the winning areas of the layout shall be
illuminated". The winning areas are the bets the result wins under the paytable the round was
played under (``RoundStarted.paytable``), exactly what settlement pays: the game library's
:func:`~sicbo.game.evaluation.winning_bets`. A layout lit otherwise, or not at all, is an
equipment fault (000 §7.6: the wagers still settle by the dice; 000 §7.7, 004: the table or
round is suspended). Each verdict is stored once per result (the ResultConfirmed, and each
ResultCorrected, by its stream sequence).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sicbo.game.dice import make_roll
from sicbo.game.evaluation import winning_bets
from sicbo.game.profiles import parse_paytable_ref
from sicbo_contracts.base import Actor, Dice, Role
from sicbo_contracts.illumination import IlluminationEvent, IlluminationFault, LayoutIlluminated
from sicbo_contracts.lifecycle import ReportMalfunction

ILLUMINATION_ACTOR = Actor(id="illumination", role=Role.SERVICE)
#: The equipment named in the malfunction report.
EQUIPMENT = "layout-lamps"


def winning_spots(paytable_ref: str, dice: Dice) -> list[str]:
    """The bet ids the layout lights for ``dice`` under the round's paytable, in catalogue
    order (only bets the paytable offers: a layout has no spot for the others)."""
    paytable = parse_paytable_ref(paytable_ref)
    return [bet.id for bet in winning_bets(paytable, make_roll(dice))]


def msg_id(table: str, round_no: int, source_seq: int) -> str:
    """The Nats-Msg-Id of the verdict on one result: a redelivery is a duplicate."""
    return f"lamp-{table}-{round_no}-{source_seq}"


def verdict(
    *,
    table: str,
    round_no: int,
    dice: Dice,
    source_seq: int,
    expected: Sequence[str],
    lit: Sequence[str] | None,
    at: datetime,
    actor: Actor = ILLUMINATION_ACTOR,
    why_no_report: str = "no report from the layout controller",
) -> IlluminationEvent:
    """The layout lit as expected, or a fault. ``lit=None``: no report came in time."""
    want = list(expected)
    common: dict[str, Any] = {
        "table": table,
        "actor": actor,
        "at": at,
        "round": round_no,
        "dice": dice,
        "source_seq": source_seq,
    }
    if lit is None:
        return IlluminationFault(
            expected=want, missing=want, extra=[], timed_out=True, detail=why_no_report, **common
        )
    wanted, shown = set(want), set(lit)
    missing = [s for s in want if s not in shown]
    extra = sorted(shown - wanted)
    if not missing and not extra:
        return LayoutIlluminated(spots=want, **common)
    parts = []
    if missing:
        parts.append(f"not lit: {', '.join(missing)}")
    if extra:
        parts.append(f"lit but not winning: {', '.join(extra)}")
    detail = "; ".join(parts)
    return IlluminationFault(
        expected=want, missing=missing, extra=extra, timed_out=False, detail=detail, **common
    )


def malfunction(
    fault: IlluminationFault, *, actor: Actor = ILLUMINATION_ACTOR
) -> ReportMalfunction:
    """The lifecycle command a fault calls for (000 §7.7: the inspector is notified and play
    stops; 004: the round is suspended). Its id is derived from the fault, so a redelivery
    sends the same command and the lifecycle answers "duplicate"."""
    detail = f"winning areas of {'-'.join(map(str, fault.dice))} {fault.detail}"
    if fault.timed_out:
        detail = f"winning areas of {'-'.join(map(str, fault.dice))} not lit: {fault.detail}"
    return ReportMalfunction(
        command_id=msg_id(fault.table, fault.round, fault.source_seq),
        table=fault.table,
        actor=actor,
        equipment=EQUIPMENT,
        detail=detail[:500],
        round=fault.round,
    )
