"""Wager intake: commands to ``sicbo.cmd.<table>.wagers.<sender>``; events on
``sicbo.evt.<table>.bets.<round>.<type>`` (colour checks and promotional tokens: round 0).
The bet history (004 "Rekod Pertaruhan") is a request/reply query on
``sicbo.qry.<table>.bets.history``: request a :class:`BetHistoryQuery`, get a
:class:`BetHistory` (or a ``Rejected`` for a bad query)."""

from enum import StrEnum
from typing import Annotated

import msgspec
from msgspec import Meta

from sicbo_contracts.base import (
    Actor,
    Command,
    Dice,
    Event,
    Id,
    Money,
    RoundNo,
    Stake,
    TableId,
    Time,
)
from sicbo_contracts.settlement import WagerAdjustment, WagerResult

BetId = Annotated[str, Meta(min_length=1, max_length=32)]
Color = Annotated[str, Meta(pattern=r"^[a-z][a-z0-9-]{0,23}$")]


class Medium(StrEnum):
    CHIPS = "chips"  # value chips (000 §1.1)
    COLOR = "color"  # colour checks of this table at the player's marker value (000 §3.3-3.8)
    PROMO = "promo"  # a promotional token or voucher: one free wager (000 §1.1)


class Wager(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    bet: BetId  # a canonical bet id (RULES.md catalogue)
    stake: Stake  # minor units; for colour checks, checks x the marker value
    medium: Medium = Medium.CHIPS
    color: Color | None = None  # required for colour checks
    #: The promotional token or voucher staked (000 §1.1): required for the promo medium, its
    #: stake the token's face amount. None on older logs' promo wagers (tokens not tracked).
    token: Id | None = None


class CarriedChoice(StrEnum):
    """002/2004 art. 3(4): after a void round, each player may cancel, keep or change."""

    CANCEL = "cancel"
    KEEP = "keep"
    CHANGE = "change"


# ---- commands ---------------------------------------------------------------------------------


class PlaceSlip(Command, frozen=True, kw_only=True, tag="bets.place-slip.v1"):
    """A bet slip: all its wagers are accepted or all refused. ``command_id`` is the slip id,
    made by the client, so a retry is a duplicate and never a second slip."""

    round: RoundNo
    player: Id
    wagers: Annotated[list[Wager], Meta(min_length=1, max_length=200)]


class WithdrawSlip(Command, frozen=True, kw_only=True, tag="bets.withdraw-slip.v1"):
    round: RoundNo
    player: Id
    slip_id: Id


class ChangeSlip(Command, frozen=True, kw_only=True, tag="bets.change-slip.v1"):
    round: RoundNo
    player: Id
    slip_id: Id
    wagers: Annotated[list[Wager], Meta(min_length=1, max_length=200)]


class ChooseForCarriedSlip(Command, frozen=True, kw_only=True, tag="bets.choose-carried.v1"):
    """macau-2004 after a void round: cancel, keep, or change (reduced or not) a carried slip."""

    round: RoundNo
    player: Id
    slip_id: Id
    choice: CarriedChoice
    wagers: list[Wager] = msgspec.field(default_factory=list)  # the new wagers, for "change"


class IssueColorChecks(Command, frozen=True, kw_only=True, tag="bets.issue-color-checks.v1"):
    """Colour checks for one player at a marker value (000 §3.7); usable only here (§3.4)."""

    player: Id
    color: Color
    marker_value: Stake  # minor units per check
    count: Annotated[int, Meta(ge=1, le=10_000)]
    #: 000 §3.6: a colour already issued to another player needs both players' agreement.
    shared_with_consent: bool = False


class RedeemColorChecks(Command, frozen=True, kw_only=True, tag="bets.redeem-color-checks.v1"):
    """Only at the issuing table, unless it is closed (000 §3.5)."""

    player: Id
    color: Color
    count: Annotated[int, Meta(ge=1, le=10_000)]


class IssuePromoToken(Command, frozen=True, kw_only=True, tag="bets.issue-promo-token.v1"):
    """A casino promotional token or voucher for one player: one free wager at this table in
    its face amount (000 §1.1: issued by the casino operator). ``token`` is its id, unique at
    the table."""

    token: Id
    player: Id
    amount: Stake  # the face amount, minor units: the stake of the wager it makes


WagerCommand = (
    PlaceSlip
    | WithdrawSlip
    | ChangeSlip
    | ChooseForCarriedSlip
    | IssueColorChecks
    | RedeemColorChecks
    | IssuePromoToken
)

# ---- events -----------------------------------------------------------------------------------


class SlipPlaced(Event, frozen=True, kw_only=True, tag="bets.slip-placed.v1"):
    round: int
    slip_id: Id
    player: Id
    wagers: list[Wager]


class SlipWithdrawn(Event, frozen=True, kw_only=True, tag="bets.slip-withdrawn.v1"):
    round: int
    slip_id: Id
    player: Id
    before: list[Wager]


class SlipChanged(Event, frozen=True, kw_only=True, tag="bets.slip-changed.v1"):
    round: int
    slip_id: Id
    player: Id
    before: list[Wager]
    after: list[Wager]


class CarriedSlipChosen(Event, frozen=True, kw_only=True, tag="bets.carried-slip-chosen.v1"):
    round: int
    slip_id: Id
    player: Id
    choice: CarriedChoice
    before: list[Wager]
    after: list[Wager]  # empty when cancelled


class ColorChecksIssued(Event, frozen=True, kw_only=True, tag="bets.color-checks-issued.v1"):
    player: Id
    color: Color
    marker_value: Money
    count: int
    shared_with_consent: bool = False


class ColorChecksRedeemed(Event, frozen=True, kw_only=True, tag="bets.color-checks-redeemed.v1"):
    player: Id
    color: Color
    count: int
    value: Money
    table_closed: bool = False


class PromoTokenIssued(Event, frozen=True, kw_only=True, tag="bets.promo-token-issued.v1"):
    """000 §1.1: one free wager of ``amount``; forfeited after a valid result, returned by a
    void round (then it may be staked again)."""

    token: Id
    player: Id
    amount: Money


WagerEvent = (
    SlipPlaced
    | SlipWithdrawn
    | SlipChanged
    | CarriedSlipChosen
    | ColorChecksIssued
    | ColorChecksRedeemed
    | PromoTokenIssued
)


# ---- the bet history query (004 "Rekod Pertaruhan") -------------------------------------------


class BetHistoryQuery(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A player's slips at one table, newest first. Like a command, it refuses unknown fields."""

    player: Id
    limit: Annotated[int, Meta(ge=1, le=1000)] = 50


class SlipStatus(StrEnum):
    ACTIVE = "active"  # standing (or settled): never withdrawn
    WITHDRAWN = "withdrawn"  # taken back before "no more bets" (000 §3.9)
    CANCELLED = "cancelled"  # cancelled by the player after a void round (002/2004 art. 3(4))


class RoundSettlement(msgspec.Struct, frozen=True, kw_only=True):
    """How one round settled this slip's wagers (a carried slip may appear for two rounds)."""

    round: int
    basis: str | None = None  # SettlementBasis of the round's summary, once it is read
    dice: Dice | None = None
    results: list[WagerResult] = msgspec.field(default_factory=list)
    #: Corrections of the round's result, wager by wager (SettlementAdjusted).
    adjustments: list[WagerAdjustment] = msgspec.field(default_factory=list)


class SlipRecord(msgspec.Struct, frozen=True, kw_only=True):
    slip_id: Id
    player: Id
    round: int  # the round the slip was placed in
    rounds: list[int]  # every round it stood in (more than one when carried)
    status: SlipStatus
    placed_at: Time
    placed_by: Actor  # the player, or the dealer who placed it for them (000 §3.10-3.11)
    seq: int  # stream sequence of the SlipPlaced event: the order of the history
    placed: list[Wager]  # as placed
    wagers: list[Wager]  # as they stand now (after changes and carried choices); [] if gone
    changes: int = 0  # SlipChanged and CarriedSlipChosen events recorded
    settlements: list[RoundSettlement] = msgspec.field(default_factory=list)


class BetHistory(
    msgspec.Struct, frozen=True, kw_only=True, tag="bets.history.v1", tag_field="type"
):
    table: TableId
    player: Id
    slips: list[SlipRecord]  # newest first
