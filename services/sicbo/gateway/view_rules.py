"""The parts of a table's view that come from its rules at the moment of reading (pure): how a
round may be started, whether the round may be cancelled (:mod:`sicbo.lifecycle.offers`, the
decider's own checks), why the dealer's round buttons would be refused now (the lifecycle
decider itself) and the sign's line for each bet kind (000 §4.1, bounds by
:func:`sicbo.game.limits.bounds_for`)."""

from datetime import datetime

import msgspec

from sicbo.decider import Refused
from sicbo.game.bets import BetKind
from sicbo.game.limits import bounds_for
from sicbo.lifecycle.decider import decide
from sicbo.lifecycle.offers import cancellation_now, start_ways
from sicbo.lifecycle.state import LifecycleState
from sicbo_contracts.base import Actor, Limits, Role
from sicbo_contracts.lifecycle import (
    Activation,
    CloseBetting,
    LifecycleCommand,
    OpenBetting,
    StartRound,
    Uncover,
)

#: What a sign calls the wagers of each kind (000 §3.1, 002 art. 5, 004).
KIND_NAMES: dict[BetKind, str] = {
    BetKind.SMALL: "Small",
    BetKind.BIG: "Big",
    BetKind.ODD: "Odd",
    BetKind.EVEN: "Even",
    BetKind.SINGLE: "Single numbers",
    BetKind.DOUBLE: "Doubles",
    BetKind.TRIPLE: "Triples",
    BetKind.ANY_TRIPLE: "Any triple",
    BetKind.TOTAL: "Totals",
    BetKind.COMBO: "Combinations",
    BetKind.THREE: "Three numbers",
    BetKind.PAIR_SINGLE: "Pair and single",
    BetKind.FOUR: "Four numbers",
    BetKind.ALL_ODD: "All odd",
    BetKind.ALL_EVEN: "All even",
    BetKind.TWO_ODD_ONE_EVEN: "Two odd, one even",
    BetKind.TWO_EVEN_ONE_ODD: "Two even, one odd",
}


class StartWayView(msgspec.Struct, frozen=True, kw_only=True):
    """A way the round may be started now, and the fewest tumbles it needs (0: none counted)."""

    activation: str
    min_tumbles: int
    rule: str


class CancellationView(msgspec.Struct, frozen=True, kw_only=True):
    """Whether a supervisor may cancel the current round now (004 "Ralat Pengendalian"); if
    not, the lifecycle's reason, and when it becomes possible if only time is missing."""

    possible: bool
    round: int | None
    reason: str | None
    possible_from: datetime | None


class KindLineView(msgspec.Struct, frozen=True, kw_only=True):
    """A line of the sign for one bet kind (000 §4.1): the bounds a wager of it plays under."""

    kind: str
    name: str
    minimum: int
    maximum: int


def start_ways_view(state: LifecycleState, at: datetime) -> list[StartWayView]:
    return [
        StartWayView(activation=w.activation.value, min_tumbles=w.min_tumbles, rule=w.rule)
        for w in start_ways(state, at)
    ]


def cancellation_view(state: LifecycleState, at: datetime) -> CancellationView:
    c = cancellation_now(state, at)
    return CancellationView(
        possible=c.possible, round=c.round, reason=c.refusal, possible_from=c.possible_from
    )


#: The dealer the round buttons are asked for: the decider checks the role, and a dealer may
#: press every one of them (000 §5.1-5.2). Never sent: no command leaves this module.
_DEALER = Actor(id="terminal-check", role=Role.DEALER)


def round_refusals(state: LifecycleState, at: datetime) -> dict[str, str | None]:
    """For each of the dealer's round buttons (its command's type tag), the lifecycle
    decider's refusal were a dealer to press it at ``at``, or None when it would be accepted:
    the terminal disables a button the server would refuse and shows this reason."""
    table, check = state.table, "terminal-check"
    ways = start_ways(state, at)
    way = ways[0] if ways else None
    number = state.round.number if state.round is not None else state.next_round
    commands: list[LifecycleCommand] = [
        StartRound(
            command_id=check,
            table=table,
            actor=_DEALER,
            round=state.next_round,
            tumbles=way.min_tumbles if way else 3,
            activation=way.activation if way else Activation.HANDLE,
        ),
        OpenBetting(command_id=check, table=table, actor=_DEALER, round=number),
        CloseBetting(command_id=check, table=table, actor=_DEALER, round=number),
        Uncover(command_id=check, table=table, actor=_DEALER, round=number),
    ]
    refusals: dict[str, str | None] = {}
    for command in commands:
        tag = str(command.__struct_config__.tag)
        try:
            decide(state, command, at)
            refusals[tag] = None
        except Refused as refused:
            refusals[tag] = refused.reason
    return refusals


def kind_lines(limits: Limits | None) -> list[KindLineView]:
    """The sign's lines for single bet kinds, in the catalogue's order, each with the bounds
    it gives (a bound the line leaves out is the sign's own). Lines of no known kind (a newer
    catalogue's) are left out: this gateway cannot name them."""
    if limits is None:
        return []
    lines = []
    for kind in BetKind:
        if kind.value not in limits.by_kind:
            continue
        bounds = bounds_for(limits, kind)
        lines.append(
            KindLineView(
                kind=kind.value,
                name=KIND_NAMES[kind],
                minimum=bounds.minimum,
                maximum=bounds.maximum,
            )
        )
    return lines
