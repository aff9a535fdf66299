"""Dice capture's facts and commands, and given / when / then for its decider.

Dice facts are stamped at ``NOW``, the moment ``when`` decides at: a test compares them with
what the decider appends. The scene is set with the lifecycle's facts (a round uncovered).
"""

from datetime import datetime
from typing import Any

from sicbo.dice.decider import decide, evolve, initial_state
from sicbo_contracts.base import Actor, Dice
from sicbo_contracts.dice import (
    ConfirmResult,
    CorrectResult,
    DiceEntered,
    DiceRead,
    EnterDice,
    ReadDice,
    ResolveHeldResult,
    ResultConfirmed,
    ResultCorrected,
    ResultHeld,
)
from tests.support.common import DEALER, NOW, READER, SUPERVISOR, Fact, command, event
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
) -> ResultCorrected:
    return event(
        ResultCorrected,
        by,
        at=at,
        round=round_no,
        before=_sorted(before),
        after=_sorted(after),
        reason=reason,
    )


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
