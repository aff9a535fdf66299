"""Given / when / then builders for the wager intake decider.

Events are built exactly as the decider must stamp them (table, actor, ``AT``), so a test can
compare whole events: a wrong table, actor or time fails the comparison too.
"""

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from sicbo.decider import Refused
from sicbo.wagers.decider import WagerState, decide, fold
from sicbo.wagers.state import Fact
from sicbo_contracts.base import Actor, Limits, Role
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    NoResultDeclared,
    NoResultReason,
    PlayerLimitsOverridden,
    RoundCompleted,
    RoundStarted,
    TableClosed,
    TableConfig,
    TableOpened,
)
from sicbo_contracts.wagers import (
    ColorChecksIssued,
    Medium,
    PlaceSlip,
    SlipPlaced,
    Wager,
    WagerCommand,
    WagerEvent,
)

TABLE = "T1"
AT = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
EARLIER = AT - timedelta(minutes=5)

DEALER = Actor(id="dealer-1", role=Role.DEALER)
SUPERVISOR = Actor(id="super-1", role=Role.SUPERVISOR)
INSPECTOR = Actor(id="inspector-1", role=Role.INSPECTOR)
OPERATOR = Actor(id="cage-1", role=Role.OPERATOR)
SERVICE = Actor(id="settlement", role=Role.SERVICE)
ALICE = Actor(id="alice", role=Role.PLAYER)
BOB = Actor(id="bob", role=Role.PLAYER)

#: The table sign: 100 to 10,000, in units of 10 above the minimum (000 §4.1).
LIMITS = Limits(minimum=100, maximum=10_000, unit=10)
PAYTABLES = {
    "cca-1992": "cca-1992@v1",
    "macau-2003": "macau-2003@v1",
    "macau-2004": "macau-2004@v1",
    "online-live": "online-live@v1",
}

# ---- lifecycle facts -----------------------------------------------------------------------------


def table_opened(profile: str = "cca-1992", limits: Limits = LIMITS) -> TableOpened:
    config = TableConfig(profile=profile, limits=limits)
    return TableOpened(
        table=TABLE, actor=OPERATOR, at=EARLIER, config=config, paytable=PAYTABLES[profile]
    )


def round_started(n: int = 1, profile: str = "cca-1992") -> RoundStarted:
    return RoundStarted(
        table=TABLE, actor=DEALER, at=EARLIER, round=n, tumbles=3, paytable=PAYTABLES[profile]
    )


def betting_opened(n: int = 1, closes_at: datetime | None = None) -> BettingOpened:
    return BettingOpened(table=TABLE, actor=DEALER, at=EARLIER, round=n, closes_at=closes_at)


def betting_closed(n: int = 1) -> BettingClosed:
    return BettingClosed(table=TABLE, actor=DEALER, at=EARLIER, round=n)


def no_result(n: int, consequence: str) -> NoResultDeclared:
    return NoResultDeclared(
        table=TABLE,
        actor=DEALER,
        at=EARLIER,
        round=n,
        reason=NoResultReason.DICE_NOT_FLAT,
        consequence=consequence,
    )


def completed(n: int) -> RoundCompleted:
    return RoundCompleted(table=TABLE, actor=SERVICE, at=EARLIER, round=n)


def table_closed() -> TableClosed:
    return TableClosed(table=TABLE, actor=SUPERVISOR, at=EARLIER)


def override(player: str, limits: Limits) -> PlayerLimitsOverridden:
    return PlayerLimitsOverridden(
        table=TABLE,
        actor=SUPERVISOR,
        at=EARLIER,
        player=player,
        before=None,
        after=limits,
        reason="high roller sign",
    )


def betting(profile: str = "cca-1992", n: int = 1) -> list[Fact]:
    """An open table whose round ``n`` takes wagers."""
    return [table_opened(profile), round_started(n, profile), betting_opened(n)]


def next_round(n: int, profile: str) -> list[Fact]:
    """Round ``n - 1`` settled (completed), round ``n`` started and open for betting."""
    return [completed(n - 1), round_started(n, profile), betting_opened(n)]


# ---- wager facts and commands --------------------------------------------------------------------


def chips(bet: str = "big", stake: int = 100) -> Wager:
    return Wager(bet=bet, stake=stake)


def colour(color: str, stake: int, bet: str = "big") -> Wager:
    return Wager(bet=bet, stake=stake, medium=Medium.COLOR, color=color)


def place(
    slip: str = "s-1",
    wagers: Sequence[Wager] = (chips(),),
    *,
    actor: Actor = ALICE,
    player: str = "alice",
    round_no: int = 1,
) -> PlaceSlip:
    return PlaceSlip(
        command_id=slip,
        table=TABLE,
        actor=actor,
        round=round_no,
        player=player,
        wagers=list(wagers),
    )


def placed(
    slip: str = "s-1",
    wagers: Sequence[Wager] = (chips(),),
    *,
    actor: Actor = ALICE,
    player: str = "alice",
    round_no: int = 1,
) -> SlipPlaced:
    return SlipPlaced(
        table=TABLE,
        actor=actor,
        at=AT,
        round=round_no,
        slip_id=slip,
        player=player,
        wagers=list(wagers),
    )


def issued(player: str, color: str, value: int, count: int = 20) -> ColorChecksIssued:
    return ColorChecksIssued(
        table=TABLE,
        actor=DEALER,
        at=EARLIER,
        player=player,
        color=color,
        marker_value=value,
        count=count,
    )


# ---- given / when / then -------------------------------------------------------------------------


def given(*facts: Any) -> WagerState:
    """The state after ``facts`` (events, or lists of events), in order."""
    events: list[Fact] = []
    for fact in facts:
        events.extend(fact if isinstance(fact, list | tuple) else [fact])
    return fold(TABLE, events)


def when(state: WagerState, command: WagerCommand, at: datetime = AT) -> list[WagerEvent]:
    return decide(state, command, at)


def refused(
    state: WagerState,
    command: WagerCommand,
    *words: str,
    code: str = "refused",
    at: datetime = AT,
) -> Refused:
    """Assert the command is refused with ``code`` and a reason containing every word."""
    with pytest.raises(Refused) as caught:
        decide(state, command, at)
    error = caught.value
    assert error.code == code, error.reason
    for word in words:
        assert word in error.reason, f"{word!r} not in {error.reason!r}"
    return error
