"""What the pages show of a table, folded from its log (pure).

A table's view is its lifecycle state (:mod:`sicbo.lifecycle.state`, the same fold the round
lifecycle service decides on), the dice capture's state (:mod:`sicbo.dice.state`, the same
fold: the table's manual mode, GLI-19 §C.6.8(o), and the corrections waiting for a second
supervisor) plus the two things a screen needs that those forget: the last result (the
current round has none while it is being played) and what the layout's lamps last showed (the
illumination service's verdict).
"""

from dataclasses import dataclass, replace
from datetime import datetime
from functools import lru_cache

import msgspec

from sicbo.dice.state import DiceState
from sicbo.dice.state import evolve as evolve_dice
from sicbo.dice.state import initial_state as initial_dice
from sicbo.game.dice import make_roll
from sicbo.game.errors import GameError
from sicbo.game.evaluation import winning_bets
from sicbo.game.profiles import DEFAULT_TIME_ZONE, load_profile, parse_paytable_ref
from sicbo.gateway.view_rules import (
    CancellationView,
    KindLineView,
    LampFaultView,
    ReasonView,
    StartWayView,
    cancellation_view,
    kind_lines,
    refusal_words,
    round_decisions,
    start_ways_view,
)
from sicbo.lifecycle.evolve import evolve as evolve_lifecycle
from sicbo.lifecycle.state import LifecycleState, initial_state
from sicbo_contracts.base import Dice, Limits
from sicbo_contracts.dice import DiceEntered, DiceEvent, ResultConfirmed, ResultCorrected
from sicbo_contracts.illumination import IlluminationEvent, IlluminationFault, LayoutIlluminated
from sicbo_contracts.lifecycle import (
    FaultCleared,
    LifecycleEvent,
    RoundCancelled,
    RoundInvalidated,
    RoundStarted,
)


@dataclass(frozen=True, slots=True)
class LastResult:
    round: int
    dice: Dice
    paytable: str | None = None  # the round's: what its dice won


@dataclass(frozen=True, slots=True)
class TableFold:
    """Folded from the table's lifecycle aggregate (``lc``)."""

    lifecycle: LifecycleState
    dice: DiceState  # the dice capture's: manual mode, corrections waiting for approval
    last_result: LastResult | None = None
    #: The result before ``last_result``: shown again if that one is voided afterwards.
    previous_result: LastResult | None = None
    entered_by: str | None = None  # who entered the current round's dice (000 §5.4)
    #: The last round an inspector's FaultCleared covered (000 §7.7): a lamp fault of that
    #: round or before is no longer shown, though the lamps keep their last verdict.
    faults_cleared_through: int = 0


@dataclass(frozen=True, slots=True)
class Lamps:
    """Folded from the table's lamp aggregate (``lamp``): the latest verdict."""

    round: int = 0
    dice: Dice | None = None
    spots: tuple[str, ...] = ()
    fault: str | None = None  # the fault's detail, when the latest verdict is a fault
    fault_spots: LampFaultView | None = None  # the same fault, for the pages' own words


def initial_table(table: str) -> TableFold:
    return TableFold(initial_state(table), initial_dice(table))


def evolve_table(state: TableFold, event: LifecycleEvent | DiceEvent) -> TableFold:
    state = replace(state, dice=evolve_dice(state.dice, event))
    lifecycle = evolve_lifecycle(state.lifecycle, event)
    last = state.last_result
    match event:
        case RoundStarted():
            return replace(state, lifecycle=lifecycle, entered_by=None)
        case FaultCleared():
            before = state.lifecycle
            through = before.round.number if before.round else before.next_round - 1
            return replace(state, lifecycle=lifecycle, faults_cleared_through=through)
        case DiceEntered(actor=actor):
            return replace(state, lifecycle=lifecycle, entered_by=actor.id)
        case ResultCorrected(round=number, after=dice) if last and number < last.round:
            # An earlier round's (GLI-19 §4.18.4): the last result stays the later round's.
            previous = state.previous_result
            if previous is not None and previous.round == number:
                previous = LastResult(number, dice, previous.paytable)
            return replace(state, lifecycle=lifecycle, previous_result=previous)
        case ResultConfirmed(round=number, dice=dice) | ResultCorrected(round=number, after=dice):
            previous = last if last is not None and last.round != number else state.previous_result
            current = state.lifecycle.round
            paytable = current.paytable if current and current.number == number else None
            return replace(
                state,
                lifecycle=lifecycle,
                last_result=LastResult(number, dice, paytable),
                previous_result=previous,
            )
        case RoundCancelled(round=number) | RoundInvalidated(round=number) if (
            state.last_result is not None and state.last_result.round == number
        ):
            # That result no longer stands (000 §8.4, 004): the one before it is the last.
            return replace(
                state, lifecycle=lifecycle, last_result=state.previous_result, previous_result=None
            )
    return replace(state, lifecycle=lifecycle)


@lru_cache(maxsize=256)
def _winning(paytable: str, dice: Dice) -> tuple[str, ...]:
    """What ``dice`` win under ``paytable``, in catalogue order (read on every view: kept)."""
    try:
        return tuple(bet.id for bet in winning_bets(parse_paytable_ref(paytable), make_roll(dice)))
    except GameError:  # a paytable of a newer version than this gateway knows
        return ()


def initial_lamps(table: str) -> Lamps:
    return Lamps()


def evolve_lamps(state: Lamps, event: IlluminationEvent) -> Lamps:
    match event:
        case LayoutIlluminated(round=number, dice=dice, spots=spots):
            return Lamps(number, dice, tuple(spots))
        case IlluminationFault(
            round=number, dice=dice, expected=expected, missing=missing, detail=detail
        ):
            lit = tuple(s for s in expected if s not in missing)
            fault_spots = LampFaultView(
                missing=missing, extra=event.extra, timed_out=event.timed_out
            )
            return Lamps(number, dice, lit, fault=detail, fault_spots=fault_spots)
    return state


# ---- what goes to the browser -----------------------------------------------------------------


class RoundView(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    phase: str
    paytable: str
    tumbles: int
    started_at: datetime
    closes_at: datetime | None
    entered: Dice | None
    entered_by: str | None  # second-person confirmation: someone else confirms
    result: Dice | None
    held: bool
    ended_by: str | None
    corrections: int


class ManualModeView(msgspec.Struct, frozen=True, kw_only=True):
    """The table is in manual mode (GLI-19 §C.6.8(o)): a supervisor corrects by hand."""

    since: datetime
    by: str
    reason: str


class ProposalView(msgspec.Struct, frozen=True, kw_only=True):
    """Dual control: a correction waiting for a second supervisor."""

    round: int
    before: Dice | None
    after: Dice
    by: str
    reason: str


class PendingInvalidationView(msgspec.Struct, frozen=True, kw_only=True):
    """Dual control: an invalidation of the current round (000 §8.4) waiting for a second
    supervisor; nothing changed yet."""

    round: int
    reason: str
    detail: str
    forfeits: list[str]
    by: str


class PendingSignView(msgspec.Struct, frozen=True, kw_only=True):
    """Dual control: a player's own sign (000 §4.4) waiting for a second supervisor."""

    player: str
    limits: Limits
    reason: str
    by: str


class ResultView(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    dice: Dice
    total: int


class LitView(msgspec.Struct, frozen=True, kw_only=True):
    round: int
    dice: Dice | None
    spots: list[str]


class SuspensionView(msgspec.Struct, frozen=True, kw_only=True):
    since: datetime
    equipment: list[str]
    round: int | None
    policy: str


class NoticeView(msgspec.Struct, frozen=True, kw_only=True):
    limits: Limits
    effective_at: datetime


class TableView(msgspec.Struct, frozen=True, kw_only=True):
    table: str
    status: str
    profile: str | None
    paytable: str | None
    limits: Limits | None
    #: 000 §4.1: the sign's line for each bet kind that has its own, with its bounds.
    limits_by_kind: list[KindLineView]
    seats: dict[int, str]
    betting_seconds: int | None
    #: Whether players bet here from their own devices (the profile's, 004's online table):
    #: the player page offers betting, and the gateway takes a player's slip, only then.
    remote_players: bool
    #: The money the table plays in (ISO 4217; TableConfig.currency), None for chips only:
    #: the pages write amounts in it.
    currency: str | None
    #: The IANA zone the table's times are shown in (TableConfig.time_zone, else the
    #: profile's): one time format on every page, the table's own clock.
    time_zone: str
    second_person_confirmation: bool
    layout_controller: bool
    dual_control: bool  # a correction needs a second supervisor (TableConfig.dual_control)
    manual_mode: ManualModeView | None  # GLI-19 §C.6.8(o): shown to the table's players
    proposals: list[ProposalView]
    #: Dual control of the lifecycle: what waits for a second supervisor (000 §8.4, §4.4).
    pending_invalidation: PendingInvalidationView | None
    pending_signs: list[PendingSignView]
    round: RoundView | None
    next_round: int
    last_result: ResultView | None
    #: The bets the last result won under its round's paytable (the player page lights them,
    #: lamps or none); empty when that paytable is not known here.
    last_winning: list[str]
    lit: LitView | None
    fault: str | None
    #: The same fault as its spots (since the lamps' verdict has them): the pages' words.
    fault_spots: LampFaultView | None
    suspended: SuspensionView | None
    closing_notice: datetime | None
    limits_notices: list[NoticeView]
    #: 000 §4.4: a player's own sign (player -> limits); the gateway shows each player theirs.
    player_signs: dict[str, Limits]
    #: 000 §8.9: the players asked to vacate their seat; each player sees only their own.
    vacate_notices: list[str]
    #: How a round may be started now (profile and paytable in force, 002/2004 art. 2(1), 8).
    start_ways: list[StartWayView]
    #: Whether the current round may be cancelled now (004 "Ralat Pengendalian").
    cancellation: CancellationView
    #: For each of the dealer's round buttons (round.start.v1, ...), the lifecycle's refusal
    #: if pressed now, or None: the terminal disables a button the server would refuse.
    round_refusals: dict[str, str | None]
    #: The same refusals as message keys and parameters (None: accepted, or no key yet).
    round_refusal_words: dict[str, ReasonView | None]
    as_of: int  # the stream sequence the view was read up to


def table_view(log: TableFold, lamps: Lamps, as_of: int, at: datetime) -> TableView:
    """The view read up to ``as_of``; what the rules allow is as of ``at`` (the reader's now)."""
    state = log.lifecycle
    config = state.config
    current = state.round
    last = log.last_result
    suspension = state.suspension
    captured = log.dice
    manual = captured.manual
    decisions = round_decisions(state, at)
    fault_shown = lamps.round > log.faults_cleared_through
    return TableView(
        table=state.table,
        status=state.status.value,
        profile=config.profile if config else None,
        paytable=current.paytable if current else state.opened_paytable,
        limits=config.limits if config else None,
        limits_by_kind=kind_lines(config.limits if config else None),
        seats=dict(state.seats),
        betting_seconds=config.betting_seconds if config else None,
        remote_players=load_profile(config.profile).takes_remote_players if config else False,
        currency=config.currency if config else None,
        time_zone=(config.time_zone or load_profile(config.profile).time_zone)
        if config
        else DEFAULT_TIME_ZONE,
        second_person_confirmation=config.second_person_confirmation if config else False,
        layout_controller=config.layout_controller if config else False,
        dual_control=config.dual_control if config else False,
        manual_mode=None
        if manual is None
        else ManualModeView(since=manual.since, by=manual.by, reason=manual.reason),
        proposals=[
            ProposalView(round=r.number, before=r.result, after=p.after, by=p.by, reason=p.reason)
            for r in captured.proposals
            if (p := r.proposal) is not None
        ],
        pending_invalidation=_pending_invalidation(state),
        pending_signs=[
            PendingSignView(player=player, limits=p.limits, reason=p.reason, by=p.by)
            for player, p in sorted(state.pending_limits.items())
        ],
        round=None
        if current is None
        else RoundView(
            number=current.number,
            phase=current.phase.value,
            paytable=current.paytable,
            tumbles=current.tumbles,
            started_at=current.started_at,
            closes_at=current.closes_at,
            entered=current.entered,
            entered_by=log.entered_by if current.entered else None,
            result=current.result,
            held=current.held,
            ended_by=current.ended_by.value if current.ended_by else None,
            corrections=current.corrections,
        ),
        next_round=state.next_round,
        last_result=None
        if last is None
        else ResultView(round=last.round, dice=last.dice, total=sum(last.dice)),
        last_winning=list(_winning(last.paytable, last.dice)) if last and last.paytable else [],
        lit=LitView(round=lamps.round, dice=lamps.dice, spots=list(lamps.spots))
        if lamps.round
        else None,
        fault=lamps.fault if fault_shown else None,
        fault_spots=lamps.fault_spots if fault_shown else None,
        suspended=None
        if suspension is None
        else SuspensionView(
            since=suspension.since,
            equipment=list(suspension.equipment),
            round=suspension.round,
            policy=suspension.policy,
        ),
        closing_notice=state.closing_notice.close_at if state.closing_notice else None,
        limits_notices=[
            NoticeView(limits=n.limits, effective_at=n.effective_at) for n in state.limits_notices
        ],
        player_signs=dict(state.player_limits),
        vacate_notices=sorted(state.asked_to_vacate),
        start_ways=start_ways_view(state, at),
        cancellation=cancellation_view(state, at),
        round_refusals={tag: r.reason if r else None for tag, r in decisions.items()},
        round_refusal_words=refusal_words(decisions),
        as_of=as_of,
    )


def _pending_invalidation(state: LifecycleState) -> PendingInvalidationView | None:
    current = state.round
    pending = current.pending_invalidation if current is not None else None
    if current is None or pending is None:
        return None
    return PendingInvalidationView(
        round=current.number,
        reason=pending.reason.value,
        detail=pending.detail,
        forfeits=list(pending.forfeits),
        by=pending.by,
    )
