"""Given / when / then builders for the round lifecycle decider, so tests read like the rules.

Events are built exactly as the decider must stamp them (table, ``actor(role)``, ``at(...)``),
so a test compares whole events: a wrong table, actor or time fails the comparison too.
Time is counted in minutes from ``NOW`` (Monday 2024-06-03 20:00 UTC); a history is given at
negative minutes and the command decided at ``at(0)`` unless a test says otherwise.
"""

import itertools
from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, TypeVar

import pytest

from sicbo.decider import Refused
from sicbo.game.profiles import load_profile
from sicbo.lifecycle import LifecycleState, Phase, decide, fold
from sicbo_contracts.base import Actor, Limits, Role
from sicbo_contracts.dice import DiceEvent, ResultConfirmed
from sicbo_contracts.lifecycle import (
    BettingClosed,
    BettingOpened,
    LifecycleCommand,
    LifecycleEvent,
    RoundCompleted,
    RoundStarted,
    SeatTaken,
    TableConfig,
    TableOpened,
    Uncovered,
)

TABLE = "T1"
NOW = datetime(2024, 6, 3, 20, 0, tzinfo=UTC)  # a Monday evening
PROFILES = ("cca-1992", "macau-2003", "macau-2004", "online-live")

Fact = LifecycleEvent | DiceEvent
C = TypeVar("C", bound=LifecycleCommand)
E = TypeVar("E", bound=Fact)

_command_ids = itertools.count(1)


def at(minutes: float = 0, *, day: date | None = None) -> datetime:
    """``minutes`` after NOW, or after 20:00 UTC of ``day``."""
    base = NOW if day is None else datetime.combine(day, time(20, 0), tzinfo=UTC)
    return base + timedelta(minutes=minutes)


def actor(role: Role | str) -> Actor:
    role = Role(role)
    return Actor(id=f"{role.value}-1", role=role)


def command(kind: type[C], role: Role | str, **fields: Any) -> C:
    """A command of ``kind`` from ``actor(role)`` at the test table."""
    return kind(command_id=f"cmd-{next(_command_ids)}", table=TABLE, actor=actor(role), **fields)


def event(kind: type[E], role: Role | str, *, minutes: float = 0, **fields: Any) -> E:
    """An event as the decider stamps it: the test table, ``actor(role)``, ``at(minutes)``."""
    when = fields.pop("when", None) or at(minutes)
    return kind(table=TABLE, actor=actor(role), at=when, **fields)


def default_paytable(profile: str) -> str:
    return load_profile(profile).paytable().ref


def config(
    profile: str = "cca-1992",
    *,
    minimum: int = 10,
    maximum: int = 1_000,
    unit: int = 1,
    seats: int = 7,
    betting_seconds: int | None = None,
    fault_grace_seconds: int = 120,
) -> TableConfig:
    """A table sign and layout; a countdown profile gets 15 s of betting unless told."""
    if betting_seconds is None and load_profile(profile).betting_countdown:
        betting_seconds = 15
    return TableConfig(
        profile=profile,
        limits=Limits(minimum=minimum, maximum=maximum, unit=unit),
        seats=seats,
        betting_seconds=betting_seconds,
        fault_grace_seconds=fault_grace_seconds,
    )


def opened_table(profile: str = "cca-1992", *, minutes: float = -240, **kw: Any) -> list[Fact]:
    """A table opened four hours ago under ``profile`` with its default paytable."""
    return [
        event(
            TableOpened,
            "supervisor",
            minutes=minutes,
            config=config(profile, **kw),
            paytable=default_paytable(profile),
        )
    ]


_ORDER = (
    Phase.STARTED,
    Phase.BETTING_OPEN,
    Phase.BETTING_CLOSED,
    Phase.UNCOVERED,
    Phase.RESULT_CONFIRMED,
    Phase.COMPLETED,
)


def round_through(
    number: int,
    phase: Phase,
    *,
    profile: str = "cca-1992",
    minutes: float = -30,
    players: Iterable[str] = (),
) -> list[Fact]:
    """Round ``number`` played normally up to ``phase`` (one of started ... completed); under
    a countdown profile betting closes 15 s after it opens (the ``config()`` default)."""
    countdown = load_profile(profile).betting_countdown
    closes_at = at(minutes + 1) + timedelta(seconds=15) if countdown else None
    steps: list[Fact] = [
        event(
            RoundStarted,
            "dealer",
            minutes=minutes,
            round=number,
            tumbles=3,
            paytable=default_paytable(profile),
        ),
        event(BettingOpened, "dealer", minutes=minutes + 1, round=number, closes_at=closes_at),
        event(
            BettingClosed,
            "service" if countdown else "dealer",
            minutes=minutes + 2,
            round=number,
            by_countdown=countdown,
        ),
        event(Uncovered, "dealer", minutes=minutes + 3, round=number),
        event(
            ResultConfirmed,
            "dealer",
            minutes=minutes + 4,
            round=number,
            dice=(2, 3, 5),
            total=10,
            entered_by="dealer-1",
        ),
        event(RoundCompleted, "service", minutes=minutes + 5, round=number, players=[*players]),
    ]
    return steps[: _ORDER.index(phase) + 1]


def played_rounds(first: int, last: int, *, minutes: float = -200) -> list[Fact]:
    """Rounds ``first``..``last`` played and completed, six minutes apart."""
    history: list[Fact] = []
    for n in range(first, last + 1):
        history += round_through(n, Phase.COMPLETED, minutes=minutes + 6 * (n - first))
    return history


def seated(*players: str, minutes: float = -100) -> list[Fact]:
    """``players`` seated at seats 1, 2, 3..."""
    return [
        event(SeatTaken, "dealer", minutes=minutes, player=p, seat=i)
        for i, p in enumerate(players, start=1)
    ]


def given(*histories: Iterable[Fact]) -> LifecycleState:
    return fold(TABLE, itertools.chain(*histories))


def phase_after(*histories: Iterable[Fact]) -> Phase | None:
    """The current round's phase after ``histories`` (None before the first round)."""
    current = given(*histories).round
    return None if current is None else current.phase


def when(history: Iterable[Fact], cmd: LifecycleCommand, *, minutes: float = 0) -> list[Fact]:
    """Decide ``cmd`` at ``at(minutes)`` on the state after ``history``."""
    return [*decide(given(history), cmd, at(minutes))]


def when_at(history: Iterable[Fact], cmd: LifecycleCommand, moment: datetime) -> list[Fact]:
    return [*decide(given(history), cmd, moment)]


def refused(
    history: Iterable[Fact],
    cmd: LifecycleCommand,
    match: str,
    *,
    minutes: float = 0,
    moment: datetime | None = None,
) -> Refused:
    """Deciding ``cmd`` at ``at(minutes)`` (or ``moment``) is refused with a reason matching
    ``match`` (a regex)."""
    state = given(history)
    with pytest.raises(Refused, match=match) as info:
        decide(state, cmd, moment or at(minutes))
    return info.value
