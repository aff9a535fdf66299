"""The table's limits: the sign (000 §4.1), notices and changes (000 §4.3), and one player's own
sign (000 §4.4), with the lines a sign may have for single bet kinds.

Choices where the sources are silent (also in docs/rules.md, "Table and round"):

- A bet kind's own minimum is "a minimum wager" of 000 §4.3: a change raising it, or raising
  the sign's minimum that a kind without its own line follows, or removing a kind's line whose
  minimum was below the sign's, needs a notice showing the new minimum of every kind raised,
  posted at least 20 minutes before and with its time of change reached. A notice is used up
  by the change that puts all its minimums in force.
- A player's own sign (000 §4.4) replaces the table's for that player, bet kinds' lines
  included: a line the player's sign does not repeat does not bind them. Giving a player their
  own sign needs no notice (000 §4.3 is about the table's limits).
- With dual control (``TableConfig.dual_control``) the sign is a ``PlayerLimitsOverrideProposed``
  that changes nothing; another supervisor approves it (:mod:`sicbo.lifecycle.dual_control`).
"""

from datetime import datetime, timedelta

from sicbo.decider import refuse, require_role, stamp
from sicbo.game.limits import Raise, bounds_for, raised_minimums
from sicbo.lifecycle.guards import check_limits, hhmm, profile_of, require_open, show_limits
from sicbo.lifecycle.state import LifecycleState
from sicbo_contracts.base import Limits, Role
from sicbo_contracts.lifecycle import (
    ChangeLimits,
    LifecycleEvent,
    LimitsChanged,
    LimitsNoticePosted,
    OverridePlayerLimits,
    PlayerLimitsOverridden,
    PlayerLimitsOverrideProposed,
    PostLimitsNotice,
)

#: 000 §4.3: raising the minimum needs the sign displayed this long before.
SIGN_NOTICE = timedelta(minutes=20)

_SUPERVISOR = (Role.SUPERVISOR,)  # 000 §4.3, §4.4: "a casino supervisor"


# ---- limits (000 §4.1-4.4) ----------------------------------------------------------------------


def post_limits_notice(
    state: LifecycleState, command: PostLimitsNotice, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule="000 §4.3")
    config = require_open(state)
    check_limits(command.limits, "the limits notice", profile_of(config))
    return [
        LimitsNoticePosted(
            **stamp(command, at), limits=command.limits, effective_at=command.effective_at
        )
    ]


def change_limits(
    state: LifecycleState, command: ChangeLimits, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule="000 §4.3")
    config = require_open(state)
    before = config.limits
    after = command.limits
    check_limits(after, "the new limits", profile_of(config))
    if after == before:
        refuse(
            f"the table limits are already {show_limits(before)}: nothing to change",
            key="limits.unchanged",
        )
    raises = raised_minimums(before, after)
    if raises:
        # 000 §4.3: "a minimum wager can only be changed to a higher minimum if a sign
        # indicating the new minimum and proposed time of change has been displayed at the
        # table at least 20 minutes before the change". A bet kind's own minimum is a minimum
        # wager too: the sign must show the new minimum of every kind the change raises.
        signs = [n for n in state.limits_notices if announces(n.limits, raises)]
        if not any(n.posted_at + SIGN_NOTICE <= at and n.effective_at <= at for n in signs):
            seen = "; ".join(
                f"one posted at {hhmm(n.posted_at)} for {hhmm(n.effective_at)}" for n in signs
            )
            refuse(
                f"raising {show_raises(raises)} needs a sign of the new minimum and its time of"
                " change, displayed at least 20 minutes before the change and with that time"
                f" reached (000 §4.3); at {hhmm(at)} there is "
                + (f"no such sign ({seen})" if signs else "no sign for that minimum"),
                key="limits.raise-needs-sign",
                params={"minutes": int(SIGN_NOTICE.total_seconds() // 60)},
            )
    # Lowering the minimum, or changing the maximum or the unit: any time (000 §4.3).
    return [LimitsChanged(**stamp(command, at), before=before, after=after, reason=command.reason)]


def override_player_limits(
    state: LifecycleState, command: OverridePlayerLimits, at: datetime
) -> list[LifecycleEvent]:
    require_role(command, _SUPERVISOR, rule="000 §4.4")
    before = player_sign_before(state, command.player, command.limits)
    config = state.config
    if config is not None and config.dual_control:
        pending = state.pending_limits.get(command.player)
        if pending is not None:
            refuse(
                f"player: a sign of {show_limits(pending.limits)} for player {command.player!r}"
                f" by {pending.by!r} waits for approval: approve or reject it first"
                " (TableConfig.dual_control)",
                key="limits.sign-waits",
                params={"player": command.player, "by": pending.by},
            )
        return [
            PlayerLimitsOverrideProposed(
                **stamp(command, at),
                player=command.player,
                before=before,
                after=command.limits,
                reason=command.reason,
            )
        ]
    # 000 §4.4: the player's maximum may exceed the table maximum; the event is their sign.
    return [
        PlayerLimitsOverridden(
            **stamp(command, at),
            player=command.player,
            before=before,
            after=command.limits,
            reason=command.reason,
        )
    ]


def player_sign_before(state: LifecycleState, player: str, limits: Limits) -> Limits | None:
    """The player's own sign before one of ``limits`` (None: they have none), if a supervisor
    may give them that sign (000 §4.4); checked again when a second supervisor approves."""
    config = require_open(state)
    check_limits(limits, f"the limits of player {player!r}", profile_of(config))
    table_minimum = config.limits.minimum
    if limits.minimum < table_minimum:
        # 000 §4.4 lets a player wager "in excess of the stated maximum"; it gives no lower
        # minimum, so a player's own sign keeps at least the table's (docs/rules.md).
        refuse(
            f"limits.minimum: {limits.minimum} is below the table minimum"
            f" {table_minimum}: a player's own sign raises the maximum (000 §4.4), it does not"
            " lower the minimum",
            key="limits.below-table",
            params={"amount": table_minimum},
        )
    before = state.player_limits.get(player)
    if before == limits:
        refuse(
            f"player {player!r} already has limits {show_limits(before)}",
            key="limits.player-unchanged",
            params={"player": player},
        )
    return before


def announces(notice: Limits, raises: list[Raise]) -> bool:
    """Whether a notice's sign shows the new minimum of every bet kind raised (000 §4.3)."""
    return all(bounds_for(notice, r.kind).minimum == r.after for r in raises)


def show_raises(raises: list[Raise]) -> str:
    """``the minimum from 10 to 25``, ``the minimum of triple from 10 to 50``..."""
    shown = []
    follow = [r for r in raises if not r.own]
    if follow:
        shown.append(f"the minimum from {follow[0].before} to {follow[0].after}")
    shown += [
        f"the minimum of {r.kind.value} from {r.before} to {r.after}" for r in raises if r.own
    ]
    return " and ".join(shown)
