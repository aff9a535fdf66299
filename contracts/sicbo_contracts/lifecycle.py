"""Round lifecycle: commands to ``sicbo.cmd.<table>.lifecycle.<sender>`` and the events it
appends to ``sicbo.evt.<table>.lc.<round>.<type>``."""

from datetime import date
from enum import StrEnum
from typing import Annotated

import msgspec
from msgspec import Meta

from sicbo_contracts.accounts import Currency
from sicbo_contracts.base import Command, Event, Id, Limits, Reason, RoundNo, Stake, Time
from sicbo_contracts.invalidation import ApproveInvalidation as ApproveInvalidation
from sicbo_contracts.invalidation import InvalidateRound as InvalidateRound
from sicbo_contracts.invalidation import InvalidationProposed as InvalidationProposed
from sicbo_contracts.invalidation import InvalidationReason as InvalidationReason
from sicbo_contracts.invalidation import InvalidationRejected as InvalidationRejected
from sicbo_contracts.invalidation import RejectInvalidation as RejectInvalidation
from sicbo_contracts.invalidation import RoundInvalidated as RoundInvalidated
from sicbo_contracts.player_limits import ApprovePlayerLimits as ApprovePlayerLimits
from sicbo_contracts.player_limits import OverridePlayerLimits as OverridePlayerLimits
from sicbo_contracts.player_limits import PlayerLimitsOverridden as PlayerLimitsOverridden
from sicbo_contracts.player_limits import (
    PlayerLimitsOverrideProposed as PlayerLimitsOverrideProposed,
)
from sicbo_contracts.player_limits import (
    PlayerLimitsOverrideRejected as PlayerLimitsOverrideRejected,
)
from sicbo_contracts.player_limits import RejectPlayerLimits as RejectPlayerLimits
from sicbo_contracts.resumption import BettingResumed, ResumeRound

Seconds = Annotated[int, Meta(ge=1, le=3600)]
#: An IANA time zone name ("Asia/Macau"); the lifecycle checks it names a known zone.
TimeZone = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_+/-]+$")]
#: An operator's choice of a profile option (002/2004 arts. 1, 2, 5, 6): a whole number (a pay
#: "X to 1", a count) or a name ("electric", "no").
ChoiceName = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^[a-z0-9-]+$")]
ChoiceValue = int | Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^[a-z0-9-]+$")]
#: The regulator's reference of its permission (e.g. the number of its letter); "" = none.
RegulatorReference = Annotated[str, Meta(max_length=200)]


class TableConfig(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    profile: str  # a rule profile id, e.g. "online-live"
    limits: Limits
    seats: Annotated[int, Meta(ge=1, le=50)] = 7
    #: Betting countdown, for a profile whose document says it has one (004).
    betting_seconds: Seconds | None = None
    #: A second person must confirm the dice entered (optional per table).
    second_person_confirmation: bool = False
    #: Time allowed to fix a fault before an online round is cancelled (004).
    fault_grace_seconds: Seconds = 120
    #: The layout's lamps are driven by a controller on ``sicbo.layout.<table>.light`` (000 §2.3):
    #: the illumination service lights the winning areas after every result and reports a
    #: malfunction when they are not lit correctly (000 §7.6-7.7, 004). Required where the
    #: profile's rules say the layout shall be lit (its ``[layout_lamps]``): OpenTable refuses.
    layout_controller: bool = False
    #: The table's time zone, where its days and working days are counted (002/2004 art. 8);
    #: None = the profile's (Asia/Macau for the Macau profiles, else UTC).
    time_zone: TimeZone | None = None
    #: Days besides Saturday and Sunday that are not working days of the regulator (the
    #: public holidays of the table's jurisdiction): not counted in art. 8's notice.
    holidays: Annotated[list[date], Meta(max_length=400)] = []
    #: The most the table pays in winnings on one round, whatever the dice (a house limit, no
    #: seed clause): a slip that would raise the round's worst case above it is refused.
    max_payout_per_round: Stake | None = None
    #: The money the table plays in (ISO 4217): a player with an account bets from it only in
    #: this currency (issue 14: a slip on a table of another currency is refused). None: not
    #: stated, and then a player with an account cannot bet here from it (refused, $.player).
    currency: Currency | None = None
    #: How many colours the table's set of colour checks has (000 §3.3 "subdivided into
    #: various colors", §2.7.1 the marker buttons). A player gets a second colour only while
    #: enough stay free for every other seat (000 §3.8); None: not stated, so no second colour.
    check_colors: Annotated[int, Meta(ge=1, le=64)] | None = None
    #: Dual control (GLI-19 §4.18.4): a supervisor's correction of a result, invalidation of a
    #: round (000 §8.4) or sign for one player (000 §4.4) takes effect only once a second,
    #: different supervisor approves it (optional per table).
    dual_control: bool = False


class Activation(StrEnum):
    """How the dice were set tumbling at the start of a round (000 §2.4, §5.1; 002 arts. 1-2)."""

    #: The handle pressed (000 §5.1 "a mechanical ... device"; 002 art. 2 按下把手).
    HANDLE = "handle"
    #: An electric shaker (000 §5.1 "electrical device"; 002/2004 art. 2(1) 電動搖骰裝置).
    ELECTRIC_SHAKER = "electric-shaker"


class NoResultReason(StrEnum):
    DICE_NOT_FLAT = "dice-not-flat"  # 000 §7.1, 002 art. 3(3), 004
    TUMBLER_FAULT = "tumbler-fault"  # 000 §7.2
    NOT_ACTIVATED_PROPERLY = "not-activated-properly"  # 000 §7.3, 004 fewer than three tumbles
    DICE_EXPOSED_EARLY = "dice-exposed-early"  # 000 §7.3
    BROKEN_DICE = "broken-dice"  # 000 §7.4


# ---- commands ---------------------------------------------------------------------------------


class OpenTable(Command, frozen=True, kw_only=True, tag="table.open.v1"):
    config: TableConfig


class PostLimitsNotice(Command, frozen=True, kw_only=True, tag="table.post-limits-notice.v1"):
    """The sign announcing new limits and the time of change (000 §4.3)."""

    limits: Limits
    effective_at: Time


class ChangeLimits(Command, frozen=True, kw_only=True, tag="table.change-limits.v1"):
    limits: Limits
    reason: Reason


class VoidPlayerWagers(Command, frozen=True, kw_only=True, tag="round.void-player-wagers.v1"):
    """000 §8.3.1: a supervisor satisfied that ``player`` used a prohibited device (000 §8.1)
    declares their wagers in the current round void (returned, no winnings). Only before the
    round's result is confirmed: settlement pays a confirmed result at once."""

    round: RoundNo
    player: Id
    reason: Reason


class ExcludePlayer(Command, frozen=True, kw_only=True, tag="table.exclude-player.v1"):
    """000 §8.3.2: the supervisor directs that ``player`` is excluded from further
    participation in the game at this table (no seat, no slip) until the exclusion is lifted."""

    player: Id
    reason: Reason


class LiftExclusion(Command, frozen=True, kw_only=True, tag="table.lift-exclusion.v1"):
    """A supervisor ends an exclusion of 000 §8.3.2: the player may play again."""

    player: Id
    reason: Reason


class PostClosingNotice(Command, frozen=True, kw_only=True, tag="table.post-closing-notice.v1"):
    close_at: Time


class CloseTable(Command, frozen=True, kw_only=True, tag="table.close.v1"):
    pass


class TakeSeat(Command, frozen=True, kw_only=True, tag="table.take-seat.v1"):
    player: Id
    seat: Annotated[int, Meta(ge=1, le=50)]


class LeaveSeat(Command, frozen=True, kw_only=True, tag="table.leave-seat.v1"):
    player: Id


class ProposePaytable(Command, frozen=True, kw_only=True, tag="paytable.propose.v1"):
    """An operator's choice for the profile's options (002/2004 arts. 1, 2, 5 and 6): every
    option that departs from the profile's default, by name; the others keep their default."""

    choices: dict[ChoiceName, ChoiceValue]
    #: The day (in the table's time zone) the application went to the regulator (art. 8).
    applied_on: date


class ApprovePaytable(Command, frozen=True, kw_only=True, tag="paytable.approve.v1"):
    """The regulator's permission to adopt a proposed paytable from ``adoption_date`` (a day
    in the table's time zone), recorded by the operator or a supervisor (002/2004 art. 8)."""

    paytable: str  # the proposed paytable reference
    adoption_date: date
    #: Every bet the house-edge report flags as having no house edge, named to show it was seen.
    acknowledged_no_house_edge: list[str] = []
    #: The regulator's reference of its permission; required where the profile's rule says so
    #: (002/2004 art. 8: 須先獲得博彩監察協調局許可).
    regulator_reference: RegulatorReference = ""


class StartRound(Command, frozen=True, kw_only=True, tag="round.start.v1"):
    """The tumbler was activated (``activation``: the handle, or an electric shaker where the
    profile allows one, 002/2004 art. 2(1)); ``tumbles`` is how often the dice tumbled, the
    presses of the handle (000 §5.1, 002 art. 2). The profile says the fewest for each way."""

    round: RoundNo
    tumbles: Annotated[int, Meta(ge=0, le=100)] = 0
    activation: Activation = Activation.HANDLE


class OpenBetting(Command, frozen=True, kw_only=True, tag="round.open-betting.v1"):
    round: RoundNo


class CloseBetting(Command, frozen=True, kw_only=True, tag="round.close-betting.v1"):
    round: RoundNo
    #: The countdown's deadline this close is for (004); a dealer sends none. A deadline that
    #: a suspension superseded (BettingResumed) no longer closes betting.
    closes_at: Time | None = None


class Uncover(Command, frozen=True, kw_only=True, tag="round.uncover.v1"):
    round: RoundNo


class DeclareNoResult(Command, frozen=True, kw_only=True, tag="round.declare-no-result.v1"):
    round: RoundNo
    reason: NoResultReason
    detail: str = ""


class ReportMalfunction(Command, frozen=True, kw_only=True, tag="table.report-malfunction.v1"):
    """Equipment malfunction: the table stops until an inspector clears it (000 §7.7)."""

    equipment: Annotated[str, Meta(min_length=1, max_length=64)]
    detail: Reason
    round: RoundNo | None = None


class ClearFault(Command, frozen=True, kw_only=True, tag="table.clear-fault.v1"):
    detail: Reason


class CancelRound(Command, frozen=True, kw_only=True, tag="round.cancel.v1"):
    """004 "Ralat Pengendalian": the round suspended for a problem with no quick fix is
    cancelled and every wager refunded. Only where the profile provides it (its
    ``[cancellation]``); elsewhere refused, naming the rule."""

    round: RoundNo
    reason: Reason


class CompleteRound(Command, frozen=True, kw_only=True, tag="round.complete.v1"):
    """Settlement is done for the round (sent by the settlement service): the cover may go
    back on (002 art. 4). ``players`` are those who wagered, for 000 §8.9."""

    round: RoundNo
    players: list[Id] = []


LifecycleCommand = (
    OpenTable
    | PostLimitsNotice
    | ChangeLimits
    | OverridePlayerLimits
    | VoidPlayerWagers
    | ExcludePlayer
    | LiftExclusion
    | PostClosingNotice
    | CloseTable
    | TakeSeat
    | LeaveSeat
    | ProposePaytable
    | ApprovePaytable
    | StartRound
    | OpenBetting
    | CloseBetting
    | Uncover
    | DeclareNoResult
    | InvalidateRound
    | ReportMalfunction
    | ClearFault
    | CancelRound
    | CompleteRound
    | ResumeRound
    | ApproveInvalidation  # TableConfig.dual_control
    | RejectInvalidation
    | ApprovePlayerLimits
    | RejectPlayerLimits
)

# ---- events -----------------------------------------------------------------------------------


class TableOpened(Event, frozen=True, kw_only=True, tag="table.opened.v1"):
    config: TableConfig
    paytable: str  # reference of the paytable in force at opening


class LimitsNoticePosted(Event, frozen=True, kw_only=True, tag="table.limits-notice-posted.v1"):
    limits: Limits
    effective_at: Time


class LimitsChanged(Event, frozen=True, kw_only=True, tag="table.limits-changed.v1"):
    before: Limits
    after: Limits
    reason: Reason


class PlayerWagersVoided(Event, frozen=True, kw_only=True, tag="round.player-wagers-voided.v1"):
    """000 §8.3.1: every wager of ``player`` in ``round`` is void: settled ``void`` (the stake
    returned, no winnings) whatever the round's outcome, and never carried into a re-run."""

    round: int
    player: Id
    reason: Reason


class PlayerExcluded(Event, frozen=True, kw_only=True, tag="table.player-excluded.v1"):
    """000 §8.3.2: ``player`` takes no seat and places, changes or keeps no slip at this table
    until an ExclusionLifted; it outlives the table's closing."""

    player: Id
    reason: Reason


class ExclusionLifted(Event, frozen=True, kw_only=True, tag="table.exclusion-lifted.v1"):
    player: Id
    reason: Reason
    #: The exclusion lifted: since when, and why (the value before, DESIGN.md "Contracts").
    excluded_since: Time
    excluded_for: str


class ClosingNoticePosted(Event, frozen=True, kw_only=True, tag="table.closing-notice-posted.v1"):
    close_at: Time


class TableClosed(Event, frozen=True, kw_only=True, tag="table.closed.v1"):
    pass


class SeatTaken(Event, frozen=True, kw_only=True, tag="table.seat-taken.v1"):
    player: Id
    seat: int


class SeatVacated(Event, frozen=True, kw_only=True, tag="table.seat-vacated.v1"):
    player: Id
    seat: int


class VacateNoticeIssued(Event, frozen=True, kw_only=True, tag="table.vacate-notice-issued.v1"):
    """000 §8.9: no wager for three consecutive rounds while every seat was taken."""

    player: Id
    seat: int
    rounds_without_wager: int


class PaytableProposed(Event, frozen=True, kw_only=True, tag="paytable.proposed.v1"):
    paytable: str
    choices: dict[str, int | str]
    applied_on: date
    max_rtp: str  # exact, "N/D"
    #: Bets the house-edge report flags as having no house edge (RULES.md "Triples").
    no_house_edge: list[str] = []


class PaytableApproved(Event, frozen=True, kw_only=True, tag="paytable.approved.v1"):
    paytable: str
    adoption_date: date
    no_house_edge: list[str] = []
    #: The regulator's reference of its permission (002/2004 art. 8); "" in logs from before.
    regulator_reference: str = ""


class RoundStarted(Event, frozen=True, kw_only=True, tag="round.started.v1"):
    round: int
    tumbles: int
    paytable: str  # the paytable version the round is played and settled under
    #: How the dice were set tumbling; logs from before the field were all handle presses.
    activation: Activation = Activation.HANDLE


class BettingOpened(Event, frozen=True, kw_only=True, tag="round.betting-opened.v1"):
    round: int
    #: When the countdown closes betting by itself (004), else None.
    closes_at: Time | None = None


class BettingClosed(Event, frozen=True, kw_only=True, tag="round.betting-closed.v1"):
    round: int
    by_countdown: bool = False


class Uncovered(Event, frozen=True, kw_only=True, tag="round.uncovered.v1"):
    round: int


class NoResultDeclared(Event, frozen=True, kw_only=True, tag="round.no-result-declared.v1"):
    round: int
    reason: NoResultReason
    detail: str = ""
    #: The profile's consequence for the wagers: refund | carry-over-locked | player-choice.
    consequence: str


class TableSuspended(Event, frozen=True, kw_only=True, tag="table.suspended.v1"):
    equipment: str
    detail: Reason
    round: int | None = None
    #: suspend-table (000 §7.7: inspector clears) or suspend-round (004: fix or cancel).
    policy: str


class FaultCleared(Event, frozen=True, kw_only=True, tag="table.fault-cleared.v1"):
    detail: Reason
    suspended_since: Time


class RoundCancelled(Event, frozen=True, kw_only=True, tag="round.cancelled.v1"):
    round: int
    reason: Reason


class RoundCompleted(Event, frozen=True, kw_only=True, tag="round.completed.v1"):
    round: int
    players: list[Id] = []


LifecycleEvent = (
    TableOpened
    | LimitsNoticePosted
    | LimitsChanged
    | PlayerLimitsOverridden
    | PlayerWagersVoided
    | PlayerExcluded
    | ExclusionLifted
    | ClosingNoticePosted
    | TableClosed
    | SeatTaken
    | SeatVacated
    | VacateNoticeIssued
    | PaytableProposed
    | PaytableApproved
    | RoundStarted
    | BettingOpened
    | BettingClosed
    | Uncovered
    | NoResultDeclared
    | RoundInvalidated
    | TableSuspended
    | FaultCleared
    | RoundCancelled
    | RoundCompleted
    | BettingResumed
    | InvalidationProposed  # TableConfig.dual_control
    | InvalidationRejected
    | PlayerLimitsOverrideProposed
    | PlayerLimitsOverrideRejected
)
