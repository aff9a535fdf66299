"""Properties over random command sequences folded through decide/evolve: a round starts once,
and round N+1 never starts before round N is completed (002 art. 4)."""

from datetime import datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from sicbo.decider import Refused
from sicbo.lifecycle.decider import decide
from sicbo.lifecycle.evolve import evolve
from sicbo.lifecycle.state import LifecycleState, Phase, initial_state
from sicbo_contracts.base import Role
from sicbo_contracts.dice import ResultConfirmed
from sicbo_contracts.lifecycle import (
    CancelRound,
    ClearFault,
    CloseBetting,
    CloseTable,
    CompleteRound,
    DeclareNoResult,
    InvalidateRound,
    InvalidationReason,
    LeaveSeat,
    LifecycleCommand,
    NoResultReason,
    OpenBetting,
    OpenTable,
    PostClosingNotice,
    ReportMalfunction,
    RoundCompleted,
    RoundStarted,
    StartRound,
    TakeSeat,
    Uncover,
)
from sicbo_contracts.resumption import ResumeRound
from tests.support.common import PROFILES, TABLE, Fact, actor, at, command
from tests.support.lifecycle import config

#: The role each step is normally sent by; a step may also come from any other role.
PROPER: dict[str, Role] = {
    "open-table": Role.OPERATOR,
    "start": Role.DEALER,
    "open-betting": Role.DEALER,
    "close-betting": Role.DEALER,
    "uncover": Role.DEALER,
    "confirm-dice": Role.DEALER,
    "no-result": Role.DEALER,
    "invalidate": Role.SUPERVISOR,
    "cancel": Role.SUPERVISOR,
    "complete": Role.SERVICE,
    "malfunction": Role.DEALER,
    "clear-fault": Role.INSPECTOR,
    "resume": Role.SUPERVISOR,  # 004 "Ralat Pengendalian"
    "seat": Role.DEALER,
    "leave": Role.DEALER,
    "closing-notice": Role.SUPERVISOR,
    "close-table": Role.SUPERVISOR,
}


def build(
    kind: str, role: Role, n: int, profile: str, tumbles: int, moment: datetime
) -> LifecycleCommand | None:
    """The command of a step (None for a dice confirmation, which is an event of dice capture)."""
    match kind:
        case "open-table":
            return command(OpenTable, role, config=config(profile, seats=2))
        case "start":
            return command(StartRound, role, round=n, tumbles=tumbles)
        case "open-betting":
            return command(OpenBetting, role, round=n)
        case "close-betting":
            return command(CloseBetting, role, round=n)
        case "uncover":
            return command(Uncover, role, round=n)
        case "no-result":
            return command(DeclareNoResult, role, round=n, reason=NoResultReason.DICE_NOT_FLAT)
        case "invalidate":
            reason = InvalidationReason.FIRE
            return command(InvalidateRound, role, round=n, reason=reason, detail="fire")
        case "cancel":
            return command(CancelRound, role, round=n, reason="no fix")
        case "complete":
            return command(CompleteRound, role, round=n, players=["p1"])
        case "malfunction":
            return command(ReportMalfunction, role, equipment="lamp", detail="dark")
        case "clear-fault":
            return command(ClearFault, role, detail="fixed")
        case "resume":
            return command(ResumeRound, role, round=n, detail="fixed")
        case "seat":
            return command(TakeSeat, role, player=f"p{tumbles % 3}", seat=1 + tumbles % 2)
        case "leave":
            return command(LeaveSeat, role, player=f"p{tumbles % 3}")
        case "closing-notice":
            return command(PostClosingNotice, role, close_at=moment)
        case "close-table":
            return command(CloseTable, role)
    return None


def natural_next(state: LifecycleState) -> str:
    """The step that moves the table on: what a dealer would do next."""
    current = state.round
    if not state.is_open:
        return "open-table"
    if state.suspended:
        return "clear-fault"
    if current is None or current.phase is Phase.COMPLETED:
        return "start"
    return {
        Phase.STARTED: "open-betting",
        Phase.BETTING_OPEN: "close-betting",
        Phase.BETTING_CLOSED: "uncover",
        Phase.UNCOVERED: "confirm-dice",
    }.get(current.phase, "complete")


#: A step: what (or "next": the natural next step), by the proper role (None) or any role,
#: the round number's offset from the current one, tumbles, minutes since the previous step.
STEPS = st.lists(
    st.tuples(
        st.sampled_from(["next"] * 8 + sorted(PROPER)),
        st.sampled_from([None, None, None, *Role]),
        st.sampled_from([0, 0, 0, 0, 1, -1, 2]),
        st.sampled_from([3, 3, 3, 4, 0, 1, 2]),
        st.integers(0, 25),
    ),
    min_size=20,
    max_size=150,
)


@settings(max_examples=200, deadline=None)
@given(profile=st.sampled_from(PROFILES), steps=STEPS)
def test_no_round_starts_twice_or_before_the_previous_one_completed(
    profile: str, steps: list[tuple[str, Role | None, int, int, int]]
) -> None:
    """Whatever the commands, their order, roles and round numbers: every RoundStarted has a
    new number, one more than the last, and comes after the previous round's RoundCompleted
    (002 art. 4); no round completes twice."""
    state: LifecycleState = initial_state(TABLE)
    log: list[Fact] = []
    minutes = 0
    for kind, role, offset, tumbles, gap in steps:
        minutes += gap
        if kind == "next":  # the natural next step, by the proper role for the right round
            kind, role, offset = natural_next(state), None, 0
        who = role or PROPER[kind]
        base = state.next_round if kind == "start" else state.last_round
        n = max(1, base + offset)
        cmd = build(kind, who, n, profile, tumbles, at(minutes + 25))
        if cmd is None:  # dice capture confirms a result (any round: evolve must cope)
            events: list[Fact] = [
                ResultConfirmed(
                    table=TABLE,
                    actor=actor(who),
                    at=at(minutes),
                    round=n,
                    dice=(1, 2, 3),
                    total=6,
                    entered_by="dealer-1",
                )
            ]
        else:
            try:
                events = [*decide(state, cmd, at(minutes))]
            except Refused:
                continue
        for e in events:
            state = evolve(state, e)
            log.append(e)

    started = [e.round for e in log if isinstance(e, RoundStarted)]
    assert len(started) == len(set(started)), f"a round started twice: {started}"
    assert started == list(range(1, len(started) + 1)), f"rounds out of order: {started}"
    completed: set[int] = set()
    for e in log:
        if isinstance(e, RoundCompleted):
            assert e.round not in completed, f"round {e.round} completed twice"
            completed.add(e.round)
        if isinstance(e, RoundStarted) and e.round > 1:
            assert e.round - 1 in completed, f"round {e.round} started before {e.round - 1} ended"
    assert state.last_round == (started[-1] if started else 0)
