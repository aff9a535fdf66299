"""A supervisor's powers over a person who used a prohibited device (000 §8.1, §8.3).

"Where a casino supervisor is satisfied that a person has contravened any provision of rule
8.1, he/she may:"

- 8.3.1 "declare that any wager made by the person is void": :func:`void_player_wagers`, for
  the table's current round while it has no outcome (started, betting, closed, uncovered; a
  held result too). Settlement pays a confirmed result at once, so a void after it would undo a
  payment: the supervisor invalidates the outcome then (000 §8.4, forfeits §8.5). Settlement
  settles the player's wagers of the round ``void`` whatever the basis, and after "no result"
  they are not carried into the re-run (wager intake carries no slip of theirs);
- 8.3.2 "direct that the person shall be excluded from further participation in the game":
  :func:`exclude_player` at this table until :func:`lift_exclusion`. An excluded player is
  unseated, takes no seat (:func:`take_seat`), and wager intake takes no slip of theirs
  (:mod:`sicbo.wagers.conduct`). Their wagers standing already are settled as they are, unless
  voided too (8.3.1 is a separate declaration);
- 8.3.3 (exclusion from the casino under section 79 of the Act) and 8.3.4 (detention) are
  outside the table system: see docs/rules.md.

Each event records the supervisor (actor), the time and the reason.
"""

from datetime import datetime

from sicbo.decider import refuse, require_role, stamp
from sicbo.lifecycle import table
from sicbo.lifecycle.guards import current_round, hhmm, require_open
from sicbo.lifecycle.state import PLAYING, LifecycleState
from sicbo_contracts.base import Role
from sicbo_contracts.lifecycle import (
    ExcludePlayer,
    ExclusionLifted,
    LifecycleEvent,
    LiftExclusion,
    PlayerExcluded,
    PlayerWagersVoided,
    SeatVacated,
    TakeSeat,
    VoidPlayerWagers,
)

VOID_RULE = "000 §8.3.1"
EXCLUDE_RULE = "000 §8.3.2"
PLAYER = "$.player"
_SUPERVISOR = (Role.SUPERVISOR,)  # 000 §8.3: "a casino supervisor"


def void_player_wagers(
    state: LifecycleState, command: VoidPlayerWagers, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule=VOID_RULE)
    require_open(state)
    current = current_round(state, command.round)
    if current.phase not in PLAYING:
        done = (current.ended_by or current.phase).value
        refuse(
            f"round: round {current.number} already ended ({done}): a player's wagers are"
            f" declared void ({VOID_RULE}) before the round's result is confirmed, since a"
            " confirmed result is paid at once; after it a supervisor may invalidate the"
            " outcome (000 §8.4, forfeiting a fraudster's wagers, §8.5)",
            key="conduct.round-ended",
            params={"round": current.number},
        )
    if command.player in current.voided:
        refuse(
            f"player: the wagers of {command.player!r} in round {current.number} are already"
            f" declared void ({VOID_RULE})",
            field=PLAYER,
            key="conduct.already-void",
            params={"player": command.player, "round": current.number},
        )
    return [
        PlayerWagersVoided(
            **stamp(command, at),
            round=current.number,
            player=command.player,
            reason=command.reason,
        )
    ]


def exclude_player(
    state: LifecycleState, command: ExcludePlayer, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule=EXCLUDE_RULE)
    require_open(state)
    player = command.player
    known = state.excluded.get(player)
    if known is not None:
        refuse(
            f"player: {player!r} is already excluded from the game at {state.table} since"
            f" {hhmm(known.since)} ({EXCLUDE_RULE})",
            field=PLAYER,
            key="conduct.already-excluded",
            params={"player": player},
        )
    events: list[LifecycleEvent] = [
        PlayerExcluded(**stamp(command, at), player=player, reason=command.reason)
    ]
    seat = state.seat_of(player)
    if seat is not None:  # no further participation: they leave the seat too
        events.append(SeatVacated(**stamp(command, at), player=player, seat=seat))
    return events


def lift_exclusion(
    state: LifecycleState, command: LiftExclusion, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule=EXCLUDE_RULE)
    require_open(state)
    known = state.excluded.get(command.player)
    if known is None:
        refuse(
            f"player: {command.player!r} is not excluded from the game at {state.table}"
            f" ({EXCLUDE_RULE}): nothing to lift",
            field=PLAYER,
            key="conduct.not-excluded",
            params={"player": command.player},
        )
    return [
        ExclusionLifted(
            **stamp(command, at),
            player=command.player,
            reason=command.reason,
            excluded_since=known.since,
            excluded_for=known.reason,
        )
    ]


def take_seat(state: LifecycleState, command: TakeSeat, at: datetime) -> list[LifecycleEvent]:
    """The table's own checks (role, seat), then 000 §8.3.2: an excluded player sits nowhere."""
    events = table.take_seat(state, command, at)
    require_not_excluded(state, command.player, "take a seat")
    return events


def require_not_excluded(state: LifecycleState, player: str, doing: str) -> None:
    known = state.excluded.get(player)
    if known is not None:
        refuse(
            f"player: {player!r} is excluded from further participation in the game at"
            f" {state.table} by supervisor {known.by!r} since {hhmm(known.since)}"
            f" ({EXCLUDE_RULE}): cannot {doing} until a supervisor lifts the exclusion",
            field=PLAYER,
            key="conduct.excluded",
            params={"player": player},
        )
