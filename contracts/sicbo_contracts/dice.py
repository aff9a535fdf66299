"""Dice capture: commands to ``sicbo.cmd.<table>.dice.<sender>``; its events go to the lifecycle
aggregate (``sicbo.evt.<table>.lc.<round>.<type>``), since the result is part of the round.

A supervisor corrects a result only in the table's manual mode (GLI-19 §C.6.8(o)): entered
and left by a command, recorded on the table's log (round 0), shown to the table's players.
With ``TableConfig.dual_control`` a correction is proposed by one supervisor and takes effect
only once another approves it."""

from sicbo_contracts.base import Command, Dice, Event, Id, Reason, RoundNo, Time


class EnterDice(Command, frozen=True, kw_only=True, tag="dice.enter.v1"):
    """The three buttons pressed on the entry terminal (000 §2.6, §5.4)."""

    round: RoundNo
    dice: Dice


class ConfirmResult(Command, frozen=True, kw_only=True, tag="dice.confirm.v1"):
    """The entry key after the echo; by a second person where the table requires it."""

    round: RoundNo


class CorrectResult(Command, frozen=True, kw_only=True, tag="dice.correct.v1"):
    """A supervisor's manual correction of a confirmed result (GLI-19 §4.18.4), of the current
    round or an earlier one, in manual mode; with dual control, a proposal."""

    round: RoundNo
    dice: Dice
    reason: Reason


class EnterManualMode(Command, frozen=True, kw_only=True, tag="dice.enter-manual-mode.v1"):
    """A supervisor is about to enter a correction by hand (GLI-19 §C.6.8(o))."""

    reason: Reason


class LeaveManualMode(Command, frozen=True, kw_only=True, tag="dice.leave-manual-mode.v1"):
    """The hand entry is over: the table leaves manual mode."""


class ApproveCorrection(Command, frozen=True, kw_only=True, tag="dice.approve-correction.v1"):
    """Dual control: a second supervisor approves a proposed correction, entering its dice
    again (they must be the proposal's)."""

    round: RoundNo
    dice: Dice


class RejectCorrection(Command, frozen=True, kw_only=True, tag="dice.reject-correction.v1"):
    """Dual control: a supervisor (the proposer too: a withdrawal) turns a proposal down."""

    round: RoundNo
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


DiceCommand = (
    EnterDice
    | ConfirmResult
    | CorrectResult
    | ReadDice
    | ResolveHeldResult
    | EnterManualMode
    | LeaveManualMode
    | ApproveCorrection
    | RejectCorrection
)


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
    """The correction in effect: settlement adjusts the round, the feed publishes it. Under
    dual control the actor is the supervisor who approved it, ``proposed_by`` who proposed it."""

    round: int
    before: Dice
    after: Dice
    reason: Reason
    proposed_by: str = ""  # dual control: the first supervisor; "" for a single one's


class ManualModeEntered(Event, frozen=True, kw_only=True, tag="dice.manual-mode-entered.v1"):
    """The table is in manual mode (GLI-19 §C.6.8(o)): a supervisor enters a correction by
    hand. A table-level event (round 0)."""

    reason: str


class ManualModeLeft(Event, frozen=True, kw_only=True, tag="dice.manual-mode-left.v1"):
    """The table leaves manual mode; ``since`` is when it entered it (for review)."""

    since: Time


class CorrectionProposed(Event, frozen=True, kw_only=True, tag="dice.correction-proposed.v1"):
    """Dual control: a correction waiting for a second supervisor; nothing is changed yet."""

    round: int
    before: Dice
    after: Dice
    reason: Reason


class CorrectionRejected(Event, frozen=True, kw_only=True, tag="dice.correction-rejected.v1"):
    """Dual control: the proposal of the round is turned down (or withdrawn by its proposer)."""

    round: int
    after: Dice  # the dice proposed
    proposed_by: Id
    reason: Reason


DiceEvent = (
    DiceEntered
    | DiceRead
    | ResultConfirmed
    | ResultHeld
    | ResultCorrected
    | ManualModeEntered
    | ManualModeLeft
    | CorrectionProposed
    | CorrectionRejected
)
