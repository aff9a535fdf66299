"""Dice capture: commands to ``sicbo.cmd.<table>.dice.<sender>``; its events go to the lifecycle
aggregate (``sicbo.evt.<table>.lc.<round>.<type>``), since the result is part of the round."""

from sicbo_contracts.base import Command, Dice, Event, Id, Reason, RoundNo


class EnterDice(Command, frozen=True, kw_only=True, tag="dice.enter.v1"):
    """The three buttons pressed on the entry terminal (000 §2.6, §5.4)."""

    round: RoundNo
    dice: Dice


class ConfirmResult(Command, frozen=True, kw_only=True, tag="dice.confirm.v1"):
    """The entry key after the echo; by a second person where the table requires it."""

    round: RoundNo


class CorrectResult(Command, frozen=True, kw_only=True, tag="dice.correct.v1"):
    """A supervisor's manual correction of a confirmed result (GLI-19 §4.18.4)."""

    round: RoundNo
    dice: Dice
    reason: Reason


class ReadDice(Command, frozen=True, kw_only=True, tag="dice.read.v1"):
    """An automatic reader's reading: a second source for the result."""

    round: RoundNo
    dice: Dice


class ResolveHeldResult(Command, frozen=True, kw_only=True, tag="dice.resolve-held.v1"):
    """A supervisor decides a result held because the reader and the entry disagree."""

    round: RoundNo
    dice: Dice
    reason: Reason


DiceCommand = EnterDice | ConfirmResult | CorrectResult | ReadDice | ResolveHeldResult


class DiceEntered(Event, frozen=True, kw_only=True, tag="dice.entered.v1"):
    round: int
    dice: Dice  # as pressed, echoed back
    announced: Dice  # lowest to highest (000 §5.3)
    total: int


class DiceRead(Event, frozen=True, kw_only=True, tag="dice.read.v1"):
    round: int
    dice: Dice


class ResultConfirmed(Event, frozen=True, kw_only=True, tag="dice.result-confirmed.v1"):
    """The result of the round: settlement and illumination act on this."""

    round: int
    dice: Dice  # lowest to highest
    total: int
    entered_by: Id
    reason: str = ""  # set when a supervisor resolved a held result


class ResultHeld(Event, frozen=True, kw_only=True, tag="dice.result-held.v1"):
    """The reader disagrees with the entry: the round waits for a supervisor."""

    round: int
    entered: Dice
    read: Dice


class ResultCorrected(Event, frozen=True, kw_only=True, tag="dice.result-corrected.v1"):
    round: int
    before: Dice
    after: Dice
    reason: Reason


DiceEvent = DiceEntered | DiceRead | ResultConfirmed | ResultHeld | ResultCorrected
