"""Wager intake's facts and commands, the wagers themselves, and given / when / then for its
decider.

Slips are Alice's in round 1 unless told (``by`` a player or a dealer for ``player``); bets
facts are stamped at ``NOW``, the moment ``when`` decides at. The scene is set with the
lifecycle's facts under the wager tests' sign, :data:`LIMITS`.
"""

from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypedDict, TypeVar, Unpack

from sicbo.wagers.decider import decide, evolve, initial_state
from sicbo_contracts.base import Actor, Command, Event, Limits
from sicbo_contracts.wagers import (
    CarriedChoice,
    CarriedSlipChosen,
    ChangeSlip,
    ChooseForCarriedSlip,
    ColorChecksIssued,
    ColorChecksRedeemed,
    IssueColorChecks,
    Medium,
    PlaceSlip,
    RedeemColorChecks,
    SlipChanged,
    SlipPlaced,
    SlipWithdrawn,
    Wager,
    WithdrawSlip,
)
from tests.support.common import ALICE, DEALER, NOW, Fact, command, event
from tests.support.deciders import Decider
from tests.support.lifecycle import betting_opened, round_started, table_opened

E = TypeVar("E", bound=Event)
C = TypeVar("C", bound=Command)

WAGERS = Decider(initial_state, evolve, decide)
given, when, refused = WAGERS.given, WAGERS.when, WAGERS.refused

#: The wager tests' table sign: 100 to 10,000, in units of 10 above the minimum (000 §4.1).
LIMITS = Limits(minimum=100, maximum=10_000, unit=10)

# ---- the scene: a round taking wagers ------------------------------------------------------------


def betting(
    profile: str = "cca-1992", round_no: int = 1, *, closes_at: datetime | None = None
) -> list[Fact]:
    """A table open under :data:`LIMITS` whose round ``round_no`` takes wagers (until
    ``closes_at``, where a countdown is given)."""
    return [
        table_opened(profile, limits=LIMITS),
        round_started(round_no, profile),
        betting_opened(round_no, closes_at=closes_at),
    ]


def next_round(round_no: int, profile: str = "cca-1992") -> list[Fact]:
    """Round ``round_no`` started and open for betting (no new TableOpened)."""
    return [round_started(round_no, profile), betting_opened(round_no)]


# ---- wagers --------------------------------------------------------------------------------------


def chips(bet: str = "big", stake: int = 100) -> Wager:
    return Wager(bet=bet, stake=stake)


def promo(bet: str = "big", stake: int = 100, token: str | None = None) -> Wager:
    """A promotional token (``token``: its id): it wins its winnings only (000 §1.1)."""
    return Wager(bet=bet, stake=stake, medium=Medium.PROMO, token=token)


def color(bet: str = "big", stake: int = 100, check: str = "red") -> Wager:
    """Colour checks of colour ``check`` (000 §3.2-3.8)."""
    return Wager(bet=bet, stake=stake, medium=Medium.COLOR, color=check)


# ---- who acts on a slip -------------------------------------------------------------------------


class By(TypedDict, total=False):
    """Who acts on a slip: ``by`` a player or a dealer, for ``player``, in round ``round_no``
    (Alice herself, in round 1, unless told)."""

    by: Actor
    player: str
    round_no: int


class Whose(By, total=False):
    """Who acted on a slip, and ``at`` what time (``NOW`` unless told)."""

    at: datetime


def _slip_fact(kind: type[E], slip: str, whose: Whose, **fields: Any) -> E:
    return event(
        kind,
        whose.get("by", ALICE),
        at=whose.get("at", NOW),
        round=whose.get("round_no", 1),
        slip_id=slip,
        player=whose.get("player", "alice"),
        **fields,
    )


def _slip_command(kind: type[C], by: By, **fields: Any) -> C:
    return command(
        kind,
        by.get("by", ALICE),
        round=by.get("round_no", 1),
        player=by.get("player", "alice"),
        **fields,
    )


# ---- bets facts ----------------------------------------------------------------------------------


def placed(
    slip: str = "s-1", wagers: Sequence[Wager] = (chips(),), **whose: Unpack[Whose]
) -> SlipPlaced:
    return _slip_fact(SlipPlaced, slip, whose, wagers=list(wagers))


def withdrawn(slip: str, before: Sequence[Wager], **whose: Unpack[Whose]) -> SlipWithdrawn:
    return _slip_fact(SlipWithdrawn, slip, whose, before=list(before))


def changed(
    slip: str, before: Sequence[Wager], after: Sequence[Wager], **whose: Unpack[Whose]
) -> SlipChanged:
    return _slip_fact(SlipChanged, slip, whose, before=list(before), after=list(after))


def chosen(
    slip: str,
    choice: CarriedChoice,
    before: Sequence[Wager],
    after: Sequence[Wager],
    **whose: Unpack[Whose],
) -> CarriedSlipChosen:
    """The player's choice for a slip carried into the re-run, round 2 unless told
    (002/2004 art. 3(4))."""
    return _slip_fact(
        CarriedSlipChosen,
        slip,
        {"round_no": 2, **whose},
        choice=choice,
        before=list(before),
        after=list(after),
    )


def issued(
    player: str, color: str, value: int, count: int = 20, *, at: datetime = NOW, by: Actor = DEALER
) -> ColorChecksIssued:
    return event(
        ColorChecksIssued,
        by,
        at=at,
        player=player,
        color=color,
        marker_value=value,
        count=count,
    )


def redeemed(
    player: str, color: str, count: int, value: int, *, at: datetime = NOW
) -> ColorChecksRedeemed:
    return event(
        ColorChecksRedeemed, DEALER, at=at, player=player, color=color, count=count, value=value
    )


# ---- commands ------------------------------------------------------------------------------------


def place(slip: str = "s-1", wagers: Sequence[Wager] = (chips(),), **by: Unpack[By]) -> PlaceSlip:
    """Place slip ``slip`` (its id is the command's)."""
    return _slip_command(PlaceSlip, by, command_id=slip, wagers=list(wagers))


def withdraw(slip: str = "s-1", *, command_id: str = "w-1", **by: Unpack[By]) -> WithdrawSlip:
    return _slip_command(WithdrawSlip, by, command_id=command_id, slip_id=slip)


def change(wagers: Sequence[Wager], slip: str = "s-1", **by: Unpack[By]) -> ChangeSlip:
    return _slip_command(ChangeSlip, by, command_id="c-1", slip_id=slip, wagers=list(wagers))


def choose(
    choice: CarriedChoice, wagers: Sequence[Wager] = (), *, slip: str = "s-1", **by: Unpack[By]
) -> ChooseForCarriedSlip:
    """Choose for slip ``slip`` carried into the re-run, round 2 unless told
    (002/2004 art. 3(4))."""
    return _slip_command(
        ChooseForCarriedSlip,
        {"round_no": 2, **by},
        command_id="ch-1",
        slip_id=slip,
        choice=choice,
        wagers=list(wagers),
    )


def issue(
    player: str = "alice",
    color: str = "red",
    value: int = 250,
    count: int = 20,
    *,
    by: Actor = DEALER,
    shared: bool = False,
) -> IssueColorChecks:
    return command(
        IssueColorChecks,
        by,
        command_id="i-1",
        player=player,
        color=color,
        marker_value=value,
        count=count,
        shared_with_consent=shared,
    )


def redeem(
    count: int, player: str = "alice", color: str = "red", *, by: Actor = DEALER
) -> RedeemColorChecks:
    return command(RedeemColorChecks, by, command_id="r-1", player=player, color=color, count=count)
