"""The statistics board (004: "the previous 50 rounds") and game recall (AGCO standard 13.1:
the last 10 games): read models per table, answered by the board service on request/reply.

- ``sicbo.qry.<table>.stats``: request a :class:`StatsQuery`, get a :class:`StatsBoard`;
- ``sicbo.qry.<table>.recall``: request a :class:`RecallQuery`, get a :class:`Recall`;

or a :class:`~sicbo_contracts.replies.Rejected` (``invalid`` for a bad query, ``unavailable``
when the log cannot be read). Like commands, queries refuse unknown fields; an empty request
(or ``{}``) asks for the defaults. A table that has played no round has an empty board.

Both show past results only; nothing here claims to predict a result (every outcome of the
dice is independent of the ones before it).

The statistics board counts the last ``limit`` **results**: rounds whose outcome is a confirmed
result (``SettlementBasis.RESULT``), with the corrected dice where a supervisor corrected them.
Void rounds (no result, invalidated, cancelled) are not results: they are not counted and are
listed apart in :attr:`StatsBoard.voids`.
"""

from typing import Annotated

import msgspec
from msgspec import Meta

from sicbo_contracts.base import Actor, Dice, Id, Money, TableId, Time
from sicbo_contracts.settlement import SettlementBasis, WagerAdjustment, WagerOutcome

#: 004: the statistics board shows the previous 50 rounds.
STATS_DEPTH = 50
#: AGCO standard 13.1: the last 10 games can be recalled.
RECALL_DEPTH = 10

# ---- the statistics board ---------------------------------------------------------------------


class StatsQuery(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How many of the table's last results to show (at most 50, 004)."""

    limit: Annotated[int, Meta(ge=1, le=STATS_DEPTH)] = STATS_DEPTH


class BoardResult(msgspec.Struct, frozen=True, kw_only=True):
    """One result on the board, classified by the rules of the paytable the round was played
    under (RULES.md "Triples": a triple is neither big nor small in every profile; odd and even
    lose on a triple in ``online-live`` and not in ``macau-2004``). A profile that offers no
    odd/even bet (``cca-1992``, ``macau-2003``) names no triple rule for them, so the board
    shows the parity of the total there."""

    round: int
    dice: Dice  # lowest to highest; the corrected dice where the result was corrected
    total: int
    triple: bool
    big: bool
    small: bool
    odd: bool
    even: bool
    corrected: bool = False  # a supervisor corrected the confirmed result (GLI-19 §4.18.4)
    paytable: str  # the paytable the round was played under


class BoardVoid(msgspec.Struct, frozen=True, kw_only=True):
    """A void round among the board's rounds: listed, never counted."""

    round: int
    basis: SettlementBasis  # no-result | invalidated | cancelled
    reason: str  # the NoResultReason, the InvalidationReason, or the cancellation's reason


class StatsBoard(msgspec.Struct, frozen=True, kw_only=True, tag="board.stats.v1", tag_field="type"):
    table: TableId
    limit: int
    #: The last ``limit`` results (fewer when the table has had fewer), oldest first.
    results: list[BoardResult]
    #: Counts over ``results``.
    big: int
    small: int
    odd: int
    even: int
    triples: int
    #: Totals histogram: every total 3..18, with how many results showed it.
    totals: dict[int, int]
    #: Each face 1..6: how many dice of the results showed it (three dice per result).
    faces: dict[int, int]
    #: Void rounds played since the oldest listed result (all of them while fewer than
    #: ``limit`` results exist), oldest first; not counted above.
    voids: list[BoardVoid]
    #: The stream sequence the board was read up to (0: no round played yet).
    as_of: int


# ---- game recall ------------------------------------------------------------------------------


class RecallQuery(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """How many of the table's last rounds to recall (at most 10, AGCO 13.1)."""

    limit: Annotated[int, Meta(ge=1, le=RECALL_DEPTH)] = RECALL_DEPTH


class RecallWager(msgspec.Struct, frozen=True, kw_only=True):
    """One wager that stood in the round, and how it settled."""

    slip_id: Id
    index: int  # its position on the slip
    player: Id
    bet: str
    stake: Money
    medium: str  # chips | color | promo
    carried_in: bool = False  # stood here because an earlier round was void (002 art. 3(3))
    #: As the settlement recorded it; None while the round is not settled yet.
    outcome: WagerOutcome | None = None
    winnings: Money | None = None
    returned: Money | None = None  # everything that went back to the player, stake included
    #: After every adjustment and refund (equal to the above when there was none).
    final_outcome: WagerOutcome | None = None
    final_returned: Money | None = None


class RecallVoid(msgspec.Struct, frozen=True, kw_only=True):
    """Why the round has no result: a no result, an invalidation or a cancellation."""

    basis: SettlementBasis  # no-result | invalidated | cancelled
    reason: str
    detail: str = ""
    #: no-result only: refund | carry-over-locked | player-choice.
    consequence: str | None = None
    #: invalidated only: players whose wagers were forfeited (000 §8.5).
    forfeits: list[Id] = []
    actor: Actor
    at: Time


class RecallCorrection(msgspec.Struct, frozen=True, kw_only=True):
    """A supervisor's correction of the confirmed result."""

    seq: int  # its stream sequence (the adjustment's ``correction_seq``)
    before: Dice
    after: Dice
    reason: str
    actor: Actor
    at: Time


class RecallAdjustment(msgspec.Struct, frozen=True, kw_only=True):
    """The settlement's compensation of one correction, wager by wager (all its parts)."""

    correction_seq: int
    before: Dice
    after: Dice
    delta: int  # total change of what went back to players
    wagers: list[WagerAdjustment]


class RecallRefund(msgspec.Struct, frozen=True, kw_only=True):
    """A result cancelled afterwards (004 "Ralat Pengendalian": suspended, not fixed in time):
    the settlement's refund of every wager (``SettlementVoided``, all its parts)."""

    cancel_seq: int  # the stream sequence of the RoundCancelled event
    reason: str
    delta: int  # total change of what went back to players
    wagers: list[WagerAdjustment]


class RecallRound(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    paytable: str
    started_at: Time
    #: How the round ended: result | no-result | invalidated | cancelled (a result cancelled
    #: afterwards, 004, is cancelled: see ``refund``).
    basis: SettlementBasis
    #: The result as confirmed (lowest to highest), if one was; kept when the round was then
    #: invalidated or cancelled.
    dice: Dice | None = None
    confirmed_at: Time | None = None
    #: The result after every correction (equal to ``dice`` when none).
    final_dice: Dice | None = None
    void: RecallVoid | None = None
    corrections: list[RecallCorrection] = []
    #: Every wager that stood in the round, in settlement order.
    wagers: list[RecallWager] = []
    adjustments: list[RecallAdjustment] = []
    refund: RecallRefund | None = None
    settled: bool = False  # the settlement's summary is in the log
    completed: bool = False  # the lifecycle completed the round (every winner paid)
    #: The settlement's totals, None while the round is not settled. ``staked``: the stakes
    #: settled here (a carried wager is settled in the re-run); ``returned`` after every
    #: adjustment and refund; ``house_result`` = staked - returned.
    staked: Money | None = None
    returned: Money | None = None
    house_result: int | None = None


class Recall(msgspec.Struct, frozen=True, kw_only=True, tag="board.recall.v1", tag_field="type"):
    table: TableId
    limit: int
    #: The last ``limit`` rounds that have an outcome (a round still being played is not
    #: recalled), oldest first: the order they were played in.
    rounds: list[RecallRound]
    as_of: int  # the stream sequence the recall was read up to
