"""The parts of a table's view that come from its rules at the moment of reading (pure): how a
round may be started, whether the round may be cancelled (:mod:`sicbo.lifecycle.offers`, the
decider's own checks), why the dealer's round buttons would be refused now (the lifecycle
decider itself) and the sign's line for each bet kind (000 §4.1, bounds by
:func:`sicbo.game.limits.bounds_for`)."""

from collections.abc import Mapping
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


class ReasonView(msgspec.Struct, frozen=True, kw_only=True):
    """A service's reason as a stable message key and its parameters (Rejected.reason_key):
    the pages write it in their reader's language from their catalogues."""

    key: str
    params: dict[str, int | str] = {}


def reason_view(key: str | None, params: Mapping[str, int | str]) -> ReasonView | None:
    return None if key is None else ReasonView(key=key, params=dict(params))


class LampFaultView(msgspec.Struct, frozen=True, kw_only=True):
    """A lamp fault as the pages write it in their reader's language (the verdict's detail,
    ``fault``, is the English): the winning spots not lit, the spots lit wrongly (bet ids,
    which the pages name), and whether the controller did not answer at all."""

    missing: list[str]
    extra: list[str]
    timed_out: bool


class CancellationView(msgspec.Struct, frozen=True, kw_only=True):
    """Whether a supervisor may cancel the current round now (004 "Ralat Pengendalian"); if
    not, the lifecycle's reason, and when it becomes possible if only time is missing."""

    possible: bool
    round: int | None
    reason: str | None
    possible_from: datetime | None
    #: The reason as a message key (None when possible, or when the reason has no key).
    reason_words: ReasonView | None = None


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
        possible=c.possible,
        round=c.round,
        reason=c.refusal,
        possible_from=c.possible_from,
        reason_words=reason_view(c.refusal_key, c.refusal_params),
    )


#: The dealer the round buttons are asked for: the decider checks the role, and a dealer may
#: press every one of them (000 §5.1-5.2). Never sent: no command leaves this module.
_DEALER = Actor(id="terminal-check", role=Role.DEALER)


def round_refusals(state: LifecycleState, at: datetime) -> dict[str, str | None]:
    """For each of the dealer's round buttons (its command's type tag), the lifecycle
    decider's refusal were a dealer to press it at ``at``, or None when it would be accepted:
    the terminal disables a button the server would refuse and shows this reason."""
    return {tag: r.reason if r else None for tag, r in round_decisions(state, at).items()}


def refusal_words(decisions: Mapping[str, Refused | None]) -> dict[str, ReasonView | None]:
    """The refusals of :func:`round_decisions` as message keys (None: accepted, or no key)."""
    return {tag: reason_view(r.key, r.params) if r else None for tag, r in decisions.items()}


def round_decisions(state: LifecycleState, at: datetime) -> dict[str, Refused | None]:
    """For each of the dealer's round buttons, the decider's Refused were it pressed at
    ``at``, or None when it would be accepted."""
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
    refusals: dict[str, Refused | None] = {}
    for command in commands:
        tag = str(command.__struct_config__.tag)
        try:
            decide(state, command, at)
            refusals[tag] = None
        except Refused as refused:
            refusals[tag] = refused
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
