"""What every builder shares: the test table, the clock, the actors, and the stamp.

Events are built as a decider stamps them (the table, the actor, the time), so a test compares
whole events: a wrong table, actor or time fails the comparison too. Time is counted in minutes
from ``NOW`` (Monday 2024-06-03 20:00 UTC): a decider decides at ``NOW`` unless a test says
otherwise, and the facts that set the scene happened before it.
"""

import itertools
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, TypeVar

from sicbo.game.profiles import load_profile
from sicbo_contracts.base import Actor, Command, Event, Role
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.lifecycle import LifecycleEvent
from sicbo_contracts.settlement import SettlementEvent
from sicbo_contracts.wagers import WagerEvent

TABLE = "T1"
NOW = datetime(2024, 6, 3, 20, 0, tzinfo=UTC)  # a Monday evening
PROFILES = ("cca-1992", "macau-2003", "macau-2004", "online-live")

#: Anything a table's log holds.
Fact = LifecycleEvent | DiceEvent | WagerEvent | SettlementEvent

E = TypeVar("E", bound=Event)
C = TypeVar("C", bound=Command)


def at(minutes: float = 0, *, day: date | None = None) -> datetime:
    """``minutes`` after NOW, or after 20:00 UTC of ``day``."""
    base = NOW if day is None else datetime.combine(day, time(20, 0), tzinfo=UTC)
    return base + timedelta(minutes=minutes)


#: When the facts that set the scene happened, unless a builder or a test says otherwise.
EARLIER = at(-5)

# ---- the actors ----------------------------------------------------------------------------------

#: The service account that settles and completes rounds (the service role's actor).
SERVICE = Actor(id="settlement", role=Role.SERVICE)
#: The automatic dice reader, a second service account.
READER = Actor(id="reader-1", role=Role.SERVICE)


def actor(role: Role | str, n: int = 1) -> Actor:
    """The ``n``-th person of ``role`` at the table ("dealer-1", "dealer-2"...); the service
    role acts as :data:`SERVICE`."""
    role = Role(role)
    if role is Role.SERVICE:
        return SERVICE
    return Actor(id=f"{role.value}-{n}", role=role)


DEALER, DEALER_2 = actor(Role.DEALER), actor(Role.DEALER, 2)
SUPERVISOR, SUPERVISOR_2 = actor(Role.SUPERVISOR), actor(Role.SUPERVISOR, 2)
INSPECTOR = actor(Role.INSPECTOR)
OPERATOR = actor(Role.OPERATOR)
PLAYER = actor(Role.PLAYER)
ALICE = Actor(id="alice", role=Role.PLAYER)
BOB = Actor(id="bob", role=Role.PLAYER)

Who = Actor | Role | str


def _actor(who: Who) -> Actor:
    return who if isinstance(who, Actor) else actor(who)


# ---- the stamp -----------------------------------------------------------------------------------

_command_ids = itertools.count(1)


def event(kind: type[E], who: Who, *, at: datetime = NOW, **fields: Any) -> E:
    """An event of ``kind`` as a decider stamps it: the test table, ``who`` (an actor, or the
    actor of a role), ``at``."""
    return kind(table=TABLE, actor=_actor(who), at=at, **fields)


def command(kind: type[C], who: Who, **fields: Any) -> C:
    """A command of ``kind`` from ``who`` at the test table (a fresh id unless given one)."""
    fields.setdefault("command_id", f"cmd-{next(_command_ids)}")
    return kind(table=TABLE, actor=_actor(who), **fields)


def default_paytable(profile: str) -> str:
    """The paytable a table of ``profile`` plays until an approved one is adopted."""
    return load_profile(profile).paytable().ref


def countdown(profile: str) -> bool:
    """Whether betting under ``profile`` closes on a countdown (004)."""
    return load_profile(profile).betting_countdown
