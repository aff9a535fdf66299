"""Dice capture's facts and commands, and given / when / then for its decider.

Dice facts are stamped at ``NOW``, the moment ``when`` decides at: a test compares them with
what the decider appends. The scene is set with the lifecycle's facts (a round uncovered).
"""

from datetime import datetime
from typing import Any

from msgspec.structs import replace as replace_struct

from sicbo.dice.decider import decide, evolve, initial_state
from sicbo_contracts.base import Actor, Dice
from sicbo_contracts.dice import (
    ApproveCorrection,
    ConfirmResult,
    CorrectionProposed,
    CorrectionRejected,
    CorrectResult,
    DiceEntered,
    DiceRead,
    EnterDice,
    EnterManualMode,
    LeaveManualMode,
    ManualModeEntered,
    ManualModeLeft,
    ReadDice,
    RejectCorrection,
    ResolveHeldResult,
    ResultConfirmed,
    ResultCorrected,
    ResultHeld,
)
from sicbo_contracts.lifecycle import TableOpened
from tests.support.common import DEALER, EARLIER, NOW, READER, SUPERVISOR, Fact, command, event
from tests.support.deciders import Decider
from tests.support.lifecycle import (
    betting_closed,
    betting_opened,
    round_started,
    table_opened,
    uncovered,
)

DICE = Decider(initial_state, evolve, decide)
given, when, refused = DICE.given, DICE.when, DICE.refused


def current(*history: Any) -> Any:
    """The current round's state after ``history`` (there must be one)."""
    state = given(*history).round
    assert state is not None, "no round has started in this history"
    return state


# ---- the scene: a round the dice can be captured in ---------------------------------------------


def next_round(round_no: int) -> list[Fact]:
    """Round ``round_no`` started and uncovered (no new TableOpened): its dice may be entered
    (000 §5.3-5.4)."""
    return [
        round_started(round_no),
        betting_opened(round_no),
        betting_closed(round_no),
        uncovered(round_no),
    ]


def uncovered_round(round_no: int = 1, *, second_person: bool = False) -> list[Fact]:
    """A table open and round ``round_no`` uncovered: its dice may be entered."""
    return [table_opened(second_person_confirmation=second_person), *next_round(round_no)]


def dual_control_opened() -> TableOpened:
    """A table opened with ``TableConfig.dual_control``: two supervisors for a correction."""
    opened = table_opened()
    return replace_struct(opened, config=replace_struct(opened.config, dual_control=True))


def round_until_betting_closed(round_no: int = 1, *, second_person: bool = False) -> list[Fact]:
    """A table open and round ``round_no`` past "no more bets", the cover still on (000 §5.2)."""
    return uncovered_round(round_no, second_person=second_person)[:-1]


# ---- dice facts, as the decider must produce them -----------------------------------------------


def _sorted(dice: Dice) -> Dice:
    low, mid, high = sorted(dice)
    return (low, mid, high)


def entered(
    dice: Dice, round_no: int = 1, *, by: Actor = DEALER, at: datetime = NOW
) -> DiceEntered:
    """The buttons pressed, echoed as pressed and announced lowest to highest (000 §5.3)."""
    return event(
        DiceEntered, by, at=at, round=round_no, dice=dice, announced=_sorted(dice), total=sum(dice)
    )


def dice_read(dice: Dice, round_no: int = 1, *, at: datetime = NOW) -> DiceRead:
    return event(DiceRead, READER, at=at, round=round_no, dice=dice)


def confirmed(
    dice: Dice,
    round_no: int = 1,
    *,
    by: Actor = DEALER,
    entered_by: Actor = DEALER,
    reason: str = "",
    at: datetime = NOW,
) -> ResultConfirmed:
    return event(
        ResultConfirmed,
        by,
        at=at,
        round=round_no,
        dice=_sorted(dice),
        total=sum(dice),
        entered_by=entered_by.id,
        reason=reason,
    )


def held(
    entered_dice: Dice, read_dice: Dice, round_no: int = 1, *, by: Actor = DEALER
) -> ResultHeld:
    return event(
        ResultHeld, by, round=round_no, entered=_sorted(entered_dice), read=_sorted(read_dice)
    )


def corrected(
    before: Dice,
    after: Dice,
    reason: str,
    round_no: int = 1,
    *,
    by: Actor = SUPERVISOR,
    at: datetime = NOW,
    proposed_by: Actor | None = None,
) -> ResultCorrected:
    """In effect; under dual control ``by`` approved what ``proposed_by`` proposed."""
    return event(
        ResultCorrected,
        by,
        at=at,
        round=round_no,
        before=_sorted(before),
        after=_sorted(after),
        reason=reason,
        proposed_by=proposed_by.id if proposed_by else "",
    )


def proposed(
    before: Dice, after: Dice, reason: str, round_no: int = 1, *, by: Actor = SUPERVISOR
) -> CorrectionProposed:
    """Dual control: a correction waiting for a second supervisor."""
    return event(
        CorrectionProposed,
        by,
        round=round_no,
        before=_sorted(before),
        after=_sorted(after),
        reason=reason,
    )


def rejected(
    after: Dice, reason: str, round_no: int = 1, *, by: Actor, proposed_by: Actor = SUPERVISOR
) -> CorrectionRejected:
    return event(
        CorrectionRejected,
        by,
        round=round_no,
        after=_sorted(after),
        proposed_by=proposed_by.id,
        reason=reason,
    )


def manual_mode_entered(
    reason: str = "correcting a result", *, by: Actor = SUPERVISOR, at: datetime = EARLIER
) -> ManualModeEntered:
    """The table in manual mode (GLI-19 §C.6.8(o)), since five minutes ago by default."""
    return event(ManualModeEntered, by, at=at, reason=reason)


def manual_mode_left(*, since: datetime = EARLIER, by: Actor = SUPERVISOR) -> ManualModeLeft:
    return event(ManualModeLeft, by, since=since)


# ---- commands -----------------------------------------------------------------------------------


def enter(dice: Dice, round_no: int = 1, *, by: Actor = DEALER) -> EnterDice:
    return command(EnterDice, by, round=round_no, dice=dice)


def confirm(round_no: int = 1, *, by: Actor = DEALER) -> ConfirmResult:
    return command(ConfirmResult, by, round=round_no)


def read(dice: Dice, round_no: int = 1, *, by: Actor = READER) -> ReadDice:
    return command(ReadDice, by, round=round_no, dice=dice)


def resolve(
    dice: Dice, reason: str, round_no: int = 1, *, by: Actor = SUPERVISOR
) -> ResolveHeldResult:
    return command(ResolveHeldResult, by, round=round_no, dice=dice, reason=reason)


def correct(dice: Dice, reason: str, round_no: int = 1, *, by: Actor = SUPERVISOR) -> CorrectResult:
    return command(CorrectResult, by, round=round_no, dice=dice, reason=reason)


def enter_manual_mode(
    reason: str = "correcting a result", *, by: Actor = SUPERVISOR
) -> EnterManualMode:
    return command(EnterManualMode, by, reason=reason)


def leave_manual_mode(*, by: Actor = SUPERVISOR) -> LeaveManualMode:
    return command(LeaveManualMode, by)


def approve(dice: Dice, round_no: int = 1, *, by: Actor) -> ApproveCorrection:
    return command(ApproveCorrection, by, round=round_no, dice=dice)


def reject(reason: str, round_no: int = 1, *, by: Actor = SUPERVISOR) -> RejectCorrection:
    return command(RejectCorrection, by, round=round_no, reason=reason)
