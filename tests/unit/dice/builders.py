"""Given / when / then builders for the dice capture decider.

Events are built exactly as the decider must stamp them (table, actor, ``AT``), so a test can
compare whole events: a wrong table, actor or time fails the comparison too.
"""

from collections.abc import Iterable
from datetime import UTC, datetime

import pytest

from sicbo.decider import Refused
from sicbo.dice.decider import DiceState, RoundState, decide, fold
from sicbo_contracts.base import Actor, Dice, Limits, Role
from sicbo_contracts.dice import (
    ConfirmResult,
    CorrectResult,
    DiceCommand,
    DiceEntered,
    DiceEvent,
    DiceRead,
    EnterDice,
    ReadDice,
    ResolveHeldResult,
    ResultConfirmed,
    ResultCorrected,
    ResultHeld,
)
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    FaultCleared,
    InvalidationReason,
    LifecycleEvent,
    NoResultDeclared,
    NoResultReason,
    RoundCancelled,
    RoundCompleted,
    RoundInvalidated,
    RoundStarted,
    TableConfig,
    TableOpened,
    TableSuspended,
)
from sicbo_contracts.lifecycle import Uncovered as UncoveredEvent

TABLE = "T1"
AT = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
EARLIER = datetime(2025, 3, 1, 19, 0, tzinfo=UTC)

DEALER = Actor(id="dealer-1", role=Role.DEALER)
DEALER_2 = Actor(id="dealer-2", role=Role.DEALER)
SUPERVISOR = Actor(id="super-1", role=Role.SUPERVISOR)
SUPERVISOR_2 = Actor(id="super-2", role=Role.SUPERVISOR)
READER = Actor(id="reader-1", role=Role.SERVICE)
PLAYER = Actor(id="player-1", role=Role.PLAYER)
INSPECTOR = Actor(id="inspector-1", role=Role.INSPECTOR)
OPERATOR = Actor(id="operator-1", role=Role.OPERATOR)

Fact = LifecycleEvent | DiceEvent

# ---- lifecycle events (written by the round lifecycle service) ---------------------------------


def table_opened(*, second_person: bool = False) -> TableOpened:
    config = TableConfig(
        profile="cca-1992",
        limits=Limits(minimum=100, maximum=10_000),
        second_person_confirmation=second_person,
    )
    return TableOpened(table=TABLE, actor=SUPERVISOR, at=EARLIER, config=config, paytable="p1")


def round_started(n: int = 1) -> RoundStarted:
    return RoundStarted(table=TABLE, actor=DEALER, at=EARLIER, round=n, tumbles=3, paytable="p1")


def betting_opened(n: int = 1) -> BettingOpened:
    return BettingOpened(table=TABLE, actor=DEALER, at=EARLIER, round=n)


def betting_closed(n: int = 1) -> BettingClosed:
    return BettingClosed(table=TABLE, actor=DEALER, at=EARLIER, round=n)


def uncovered(n: int = 1) -> UncoveredEvent:
    return UncoveredEvent(table=TABLE, actor=DEALER, at=EARLIER, round=n)


def no_result(n: int = 1) -> NoResultDeclared:
    return NoResultDeclared(
        table=TABLE,
        actor=DEALER,
        at=EARLIER,
        round=n,
        reason=NoResultReason.DICE_NOT_FLAT,
        consequence="refund",
    )


def invalidated(n: int = 1) -> RoundInvalidated:
    return RoundInvalidated(
        table=TABLE,
        actor=SUPERVISOR,
        at=EARLIER,
        round=n,
        reason=InvalidationReason.BRAWL,
        detail="fight at seat 3",
    )


def cancelled(n: int = 1) -> RoundCancelled:
    return RoundCancelled(table=TABLE, actor=SUPERVISOR, at=EARLIER, round=n, reason="no fix")


def completed(n: int = 1) -> RoundCompleted:
    return RoundCompleted(table=TABLE, actor=READER, at=EARLIER, round=n)


def suspended(n: int | None = 1) -> TableSuspended:
    return TableSuspended(
        table=TABLE,
        actor=DEALER,
        at=EARLIER,
        equipment="layout-lamps",
        detail="winning areas not lit",
        round=n,
        policy="suspend-table",
    )


def fault_cleared() -> FaultCleared:
    return FaultCleared(
        table=TABLE, actor=INSPECTOR, at=EARLIER, detail="lamps fixed", suspended_since=EARLIER
    )


def round_until_betting_closed(n: int = 1, *, second_person: bool = False) -> list[Fact]:
    """A table open and round ``n`` past "no more bets", the cover still on (000 §5.2)."""
    return [table_opened(second_person=second_person), *_round_events(n)[:-1]]


def uncovered_round(n: int = 1, *, second_person: bool = False) -> list[Fact]:
    """A table open and round ``n`` uncovered: its dice may be entered (000 §5.3-5.4)."""
    return [table_opened(second_person=second_person), *_round_events(n)]


def _round_events(n: int) -> list[Fact]:
    return [round_started(n), betting_opened(n), betting_closed(n), uncovered(n)]


def next_round(n: int) -> list[Fact]:
    """Round ``n`` started and uncovered after an earlier round (no new TableOpened)."""
    return _round_events(n)


# ---- dice events, as the decider must produce them ----------------------------------------------


def _sorted(dice: Dice) -> Dice:
    low, mid, high = sorted(dice)
    return (low, mid, high)


def entered(dice: Dice, n: int = 1, *, by: Actor = DEALER, at: datetime = AT) -> DiceEntered:
    ordered = _sorted(dice)
    return DiceEntered(
        table=TABLE, actor=by, at=at, round=n, dice=dice, announced=ordered, total=sum(dice)
    )


def dice_read(dice: Dice, n: int = 1, *, at: datetime = AT) -> DiceRead:
    return DiceRead(table=TABLE, actor=READER, at=at, round=n, dice=dice)


def confirmed(
    dice: Dice,
    n: int = 1,
    *,
    by: Actor = DEALER,
    entered_by: Actor = DEALER,
    reason: str = "",
    at: datetime = AT,
) -> ResultConfirmed:
    return ResultConfirmed(
        table=TABLE,
        actor=by,
        at=at,
        round=n,
        dice=_sorted(dice),
        total=sum(dice),
        entered_by=entered_by.id,
        reason=reason,
    )


def held(entered_dice: Dice, read_dice: Dice, n: int = 1, *, by: Actor = DEALER) -> ResultHeld:
    return ResultHeld(
        table=TABLE,
        actor=by,
        at=AT,
        round=n,
        entered=_sorted(entered_dice),
        read=_sorted(read_dice),
    )


def corrected(
    before: Dice, after: Dice, reason: str, n: int = 1, *, by: Actor = SUPERVISOR
) -> ResultCorrected:
    return ResultCorrected(
        table=TABLE,
        actor=by,
        at=AT,
        round=n,
        before=_sorted(before),
        after=_sorted(after),
        reason=reason,
    )


# ---- commands -----------------------------------------------------------------------------------


def enter(dice: Dice, n: int = 1, *, by: Actor = DEALER) -> EnterDice:
    return EnterDice(command_id="c-enter", table=TABLE, actor=by, round=n, dice=dice)


def confirm(n: int = 1, *, by: Actor = DEALER) -> ConfirmResult:
    return ConfirmResult(command_id="c-confirm", table=TABLE, actor=by, round=n)


def read(dice: Dice, n: int = 1, *, by: Actor = READER) -> ReadDice:
    return ReadDice(command_id="c-read", table=TABLE, actor=by, round=n, dice=dice)


def resolve(dice: Dice, reason: str, n: int = 1, *, by: Actor = SUPERVISOR) -> ResolveHeldResult:
    return ResolveHeldResult(
        command_id="c-resolve", table=TABLE, actor=by, round=n, dice=dice, reason=reason
    )


def correct(dice: Dice, reason: str, n: int = 1, *, by: Actor = SUPERVISOR) -> CorrectResult:
    return CorrectResult(
        command_id="c-correct", table=TABLE, actor=by, round=n, dice=dice, reason=reason
    )


# ---- given / when / then ------------------------------------------------------------------------


def given(history: Iterable[Fact]) -> DiceState:
    return fold(TABLE, history)


def current(history: Iterable[Fact]) -> RoundState:
    """The current round's state after ``history`` (there must be one)."""
    state = given(history).round
    assert state is not None, "no round has started in this history"
    return state


def when(history: Iterable[Fact], command: DiceCommand) -> list[DiceEvent]:
    """The events the decider appends for ``command`` after ``history``."""
    return decide(given(history), command, AT)


def refusal(history: Iterable[Fact], command: DiceCommand) -> Refused:
    """The refusal of ``command`` after ``history`` (the test fails if it is accepted)."""
    with pytest.raises(Refused) as info:
        when(history, command)
    return info.value
