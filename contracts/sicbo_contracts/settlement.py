"""Settlement: events on ``sicbo.evt.<table>.settle.<round>.<type>``.

A round's settlement is one atomic batch: its wager results in parts, then the summary. It is
appended with "expected last sequence 0" on the round's settlement filter, so it exists once.
A corrected result is compensated by an adjustment (its parts, one atomic batch) expecting the
last sequence on that filter as read: a settlement is never rewritten.
"""

from enum import StrEnum

import msgspec

from sicbo_contracts.base import Dice, Event, Id, Money


class SettlementBasis(StrEnum):
    RESULT = "result"  # a confirmed result
    NO_RESULT = "no-result"  # 000 §7.5 / 002 art. 3(3) / 004
    INVALIDATED = "invalidated"  # 000 §8.4-8.5
    CANCELLED = "cancelled"  # 004 "Ralat Pengendalian"


class WagerOutcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    VOID = "void"  # returned: no result with refund, invalidation, cancellation, 000 §8.3.1
    FORFEIT = "forfeit"  # 000 §8.5: a fraudster's wager on an invalidated round
    CARRIED = "carried"  # 002 art. 3(3), 004: stays on the layout for the re-run round


class WagerResult(msgspec.Struct, frozen=True, kw_only=True):
    slip_id: Id
    index: int  # the wager's position on its slip
    player: Id
    bet: str
    stake: Money
    medium: str
    outcome: WagerOutcome
    winnings: Money
    returned: Money  # everything that goes back to the player, stake included
    #: The wager stood in this round because an earlier round of the table was void and its
    #: wagers stayed on the layout (002 art. 3(3)(4), 004).
    carried_in: bool = False


class WagersSettled(Event, frozen=True, kw_only=True, tag="settle.wagers-settled.v1"):
    round: int
    part: int
    wagers: list[WagerResult]


class RoundSettled(Event, frozen=True, kw_only=True, tag="settle.round-settled.v1"):
    """The round's summary: the last message of the settlement batch."""

    round: int
    basis: SettlementBasis
    paytable: str
    dice: Dice | None = None
    unit: int = 1
    wagers: int
    parts: int
    #: Stakes of the wagers settled here; a carried wager is not (it is settled in the re-run).
    staked: Money
    returned: Money
    house_result: int  # staked - returned (negative when the house lost)
    players: list[Id] = msgspec.field(default_factory=list)
    #: The stream sequence of the last event of the table's history this settlement was
    #: computed from: replay folds the log up to here, so it recomputes the same decision.
    as_of: int = 0
    #: no-result only: the profile's consequence (refund | carry-over-locked | player-choice).
    consequence: str | None = None
    #: invalidated only: players whose wagers were forfeited (000 §8.5).
    forfeits: list[Id] = msgspec.field(default_factory=list)
    #: Stakes left on the layout for the re-run round (outcome "carried"), not in ``staked``.
    carried: Money = 0
    #: Players whose wagers a supervisor declared void (000 §8.3.1): settled void whatever
    #: the basis (a forfeit of 000 §8.5 excepted), never carried.
    voided: list[Id] = msgspec.field(default_factory=list)


class WagerAdjustment(msgspec.Struct, frozen=True, kw_only=True):
    slip_id: Id
    index: int
    player: Id
    before: WagerResult
    after: WagerResult
    delta: int  # after.returned - before.returned


class SettlementAdjusted(Event, frozen=True, kw_only=True, tag="settle.adjusted.v1"):
    """A corrected result is compensated wager by wager; the settlement is never rewritten.

    One adjustment is ``parts`` messages (at most 500 wager adjustments each, so a big round
    fits the server's message size) appended as one atomic batch. ``delta`` is this message's
    own total, so the sum over the messages is the adjustment's total. An adjustment that
    changes no wager is still recorded (one part, no adjustments): the correction was applied.
    """

    round: int
    correction_seq: int  # the stream sequence of the ResultCorrected event
    before: Dice
    after: Dice
    adjustments: list[WagerAdjustment]
    delta: int  # total change of what goes back to players, over this message's adjustments
    part: int = 1
    parts: int = 1


class SettlementVoided(Event, frozen=True, kw_only=True, tag="settle.voided.v1"):
    """A round settled by its result whose outcome is voided afterwards has every wager
    refunded: 004 "Ralat Pengendalian" (suspended and cancelled because the fault was not fixed
    in time) or 000 §8.4 (invalidated by a supervisor; a fraudster's wagers forfeited, §8.5).
    Like an adjustment it compensates wager by wager (``before`` as paid so far, ``after`` the
    refund: outcome void, the stake returned, a token too; or the forfeit) and never rewrites
    the settlement; ``parts`` messages of at most 500 in one atomic batch, stored once per
    round.
    """

    round: int
    cancel_seq: int  # the stream sequence of the RoundCancelled or RoundInvalidated event
    reason: str  # the cancellation's reason
    adjustments: list[WagerAdjustment]
    delta: int  # total change of what goes back to players, over this message's adjustments
    part: int = 1
    parts: int = 1


SettlementEvent = WagersSettled | RoundSettled | SettlementAdjusted | SettlementVoided
