"""The wager intake decider: bet slips, colour checks and promotional tokens, as pure functions.

``decide(state, command, at)`` turns a player's or a dealer's command into events or raises
:class:`~sicbo.decider.Refused` naming the field and the rule; ``evolve(state, event)`` folds
one event of the table's lifecycle, bets or settlement aggregate (see
:mod:`sicbo.wagers.state`). No clock, no randomness, no I/O: time comes in as ``at``, actors
with the command, so replay is exact.

What keeps late wagers out is not this module: the shell appends every slip expecting the
table's lifecycle filter to still end where this decision saw it, so once "no more bets" is
stored the server refuses a slip decided before it (DESIGN.md invariant, 000 §3.9). Here a
slip is refused when the state already shows betting closed, or its countdown over (004).

:func:`msg_id_of` keys each append on what it changes, so that of two different commands
changing the same thing the server stores one (the shell re-decides the other on fresh state):
a new slip on its id (the command id); a withdrawal, change or carried choice on the slip's
next version (``<table>/<slip>#v<n>``); colour checks issued or redeemed, and any slip command
that stakes or releases colour checks or a promotional token, on the table's next media
version (``<table>/media#v<n>``, :mod:`sicbo.wagers.media`), so that two slips never stake the
same token or the same checks (000 §1.1: one free wager); a token issued on its id
(``<table>/promo-token/<id>``). The ``/`` is not allowed in ids, so these never collide with
a command id, and the table keeps two tables' slips with the same id apart.

Choices where the sources are silent (each is also noted where it is enforced):

- Limits apply to each wager on its own (000 §4.1 "minimum and maximum wagers"), under the
  sign's line for the wager's bet kind where it has one (:mod:`sicbo.game.limits`); a player
  with a supervisor's override plays under that override's sign alone (000 §4.4). Limits are
  checked only when a wager is placed or changed: one that stands when the cover comes off is
  valid whatever the limits then (000 §4.2), so a change of limits never touches standing
  slips, a carried slip kept as it was is not checked again, and settlement pays every
  standing wager.
- A table with a maximum payout per round refuses a slip, change or choice that would raise
  the round's worst case above it (:mod:`sicbo.wagers.exposure`).
- After "no result" with a carry-over, every active slip of round R stands in R+1, the re-run
  (the lifecycle numbers rounds without gaps, so the re-run is R+1). A player-choice slip
  left alone is kept as it was (002/2004 art. 3(4) offers a choice; it does not void the
  wager). The player may choose again while betting is open, until they cancel.
- A carried slip is never withdrawn or changed with WithdrawSlip / ChangeSlip: locked slips
  not at all (002/2003 art. 3(3), 004), player-choice slips only with ChooseForCarriedSlip.
- An excluded player (000 §8.3.2) places, changes and keeps no slip; a voided one (000 §8.3.1)
  none in that round; both may still withdraw, or cancel a carried slip
  (:mod:`sicbo.wagers.conduct`).
- While the table is suspended (000 §7.7: "no further play"; 004) no slip is placed, changed or
  withdrawn. Colour checks may still be issued and redeemed: that is not play.
- Colour checks and promotional tokens: see :mod:`sicbo.wagers.media_commands` (who issues,
  a second colour, redemption) and :mod:`sicbo.wagers.media_checks` (what a slip may stake).
"""

from datetime import datetime

from sicbo.decider import Refused, refuse, require_role, stamp
from sicbo.game.profiles import NoResultPolicy
from sicbo.wagers.conduct import require_may_wager
from sicbo.wagers.evolve import evolve, fold
from sicbo.wagers.guards import (
    betting_round,
    check_payout,
    check_wagers,
    locked,
    require_own,
)
from sicbo.wagers.media import uses_media
from sicbo.wagers.media_commands import issue_checks, issue_token, redeem_checks
from sicbo.wagers.state import CurrentRound, Slip, WagerState, initial_state
from sicbo_contracts.base import Role
from sicbo_contracts.wagers import (
    CarriedChoice,
    CarriedSlipChosen,
    ChangeSlip,
    ChooseForCarriedSlip,
    IssueColorChecks,
    IssuePromoToken,
    PlaceSlip,
    RedeemColorChecks,
    SlipChanged,
    SlipPlaced,
    SlipStatus,
    SlipWithdrawn,
    Wager,
    WagerCommand,
    WagerEvent,
    WithdrawSlip,
)

__all__ = [
    "WagerState",
    "decide",
    "evolve",
    "fold",
    "initial_state",
    "msg_id_of",
]

#: 000 §3.10-3.11: the player wagers, or the dealer places the wager for them. Not an
#: inspector, supervisor, operator or service account.
_BETTORS = (Role.PLAYER, Role.DEALER)


def decide(state: WagerState, command: WagerCommand, at: datetime) -> list[WagerEvent]:
    """The events ``command`` causes at time ``at``, or raise :class:`Refused` citing the rule."""
    if command.table != state.table:
        refuse(f"command for table {command.table!r} reached the state of table {state.table!r}")
    match command:
        case PlaceSlip():
            return [_place(state, command, at)]
        case WithdrawSlip():
            return [_withdraw(state, command, at)]
        case ChangeSlip():
            return [_change(state, command, at)]
        case ChooseForCarriedSlip():
            return [_choose(state, command, at)]
        case IssueColorChecks():
            return [issue_checks(state, command, at)]
        case RedeemColorChecks():
            return [redeem_checks(state, command, at)]
        case IssuePromoToken():
            return [issue_token(state, command, at)]
    raise AssertionError(f"unhandled command {command!r}")  # pragma: no cover


def msg_id_of(state: WagerState, command: WagerCommand) -> str:
    """The ``Nats-Msg-Id`` of the command's append (see the module docstring)."""
    media = f"{state.table}/media#v{state.media.version + 1}"
    match command:
        case WithdrawSlip(slip_id=slip_id):
            return media if _stakes_media(state, slip_id) else _slip_version(state, slip_id)
        case ChangeSlip(slip_id=slip_id, wagers=wagers):
            moves_media = uses_media(wagers) or _stakes_media(state, slip_id)
            return media if moves_media else _slip_version(state, slip_id)
        case ChooseForCarriedSlip(slip_id=slip_id, wagers=wagers):
            moves_media = uses_media(wagers) or _stakes_media(state, slip_id)
            return media if moves_media else _slip_version(state, slip_id)
        case IssueColorChecks() | RedeemColorChecks():
            return media
        case IssuePromoToken(token=token):
            return f"{state.table}/promo-token/{token}"
        case PlaceSlip(wagers=wagers) if uses_media(wagers):
            return media
    # PlaceSlip: the slip id, so a retried slip is a duplicate. Like every msg id it names the
    # table: the server dedupes across the whole stream. '#' never occurs in a command id.
    return f"{state.table}/wagers/{command.command_id}"


def _stakes_media(state: WagerState, slip_id: str) -> bool:
    slip = state.slips.get(slip_id)
    return slip is not None and uses_media(slip.wagers)


def _slip_version(state: WagerState, slip_id: str) -> str:
    slip = state.slips.get(slip_id)
    return f"{state.table}/{slip_id}#v{(slip.version if slip else 0) + 1}"


# ---- slips --------------------------------------------------------------------------------------


def _place(state: WagerState, command: PlaceSlip, at: datetime) -> SlipPlaced:
    require_role(command, _BETTORS, rule="000 §3.10-3.11: a player wagers, or a dealer for them")
    require_own(command, command.player)
    require_may_wager(state, command.player, command.round, "place a slip")  # 000 §8.3
    if command.command_id in state.slips:
        # A retry of the same slip never gets here: the shell answers it as a duplicate.
        refuse(
            f"command_id: slip {command.command_id!r} already exists at table {state.table}:"
            " a slip id is used once; a new slip needs a new id",
            key="slip.id-used",
        )
    current = betting_round(state, command.round, at)
    wagers = check_wagers(state, current, command.player, command.wagers)
    check_payout(state, current, added=wagers)
    return SlipPlaced(
        **stamp(command, at),
        round=current.number,
        slip_id=command.command_id,
        player=command.player,
        wagers=list(wagers),
    )


def _withdraw(state: WagerState, command: WithdrawSlip, at: datetime) -> SlipWithdrawn:
    slip, _ = _slip_to_move(state, command, at)
    if slip.carried:
        refuse(locked(slip), key="slip.locked")
    return SlipWithdrawn(
        **stamp(command, at),
        round=slip.round,
        slip_id=slip.slip_id,
        player=slip.player,
        before=list(slip.wagers),
    )


def _change(state: WagerState, command: ChangeSlip, at: datetime) -> SlipChanged:
    slip, current = _slip_to_move(state, command, at)
    if slip.carried:
        refuse(locked(slip), key="slip.locked")
    require_may_wager(state, slip.player, slip.round, "change a slip")  # 000 §8.3
    after = check_wagers(state, current, slip.player, command.wagers, slip)
    if after == slip.wagers:
        refuse(
            f"wagers: slip {slip.slip_id!r} already stands so: nothing to change",
            key="slip.unchanged",
        )
    check_payout(state, current, removed=slip.wagers, added=after)
    return SlipChanged(
        **stamp(command, at),
        round=slip.round,
        slip_id=slip.slip_id,
        player=slip.player,
        before=list(slip.wagers),
        after=list(after),
    )


def _choose(state: WagerState, command: ChooseForCarriedSlip, at: datetime) -> CarriedSlipChosen:
    slip, current = _slip_to_move(state, command, at)
    if not slip.carried:
        refuse(
            f"slip_id: slip {slip.slip_id!r} was not carried over a void round: the choice to"
            ' cancel, keep or change is for wagers carried after "no result" (002/2004 art.'
            " 3(4)); withdraw or change it instead",
            key="slip.not-carried",
        )
    if slip.carried_under is not NoResultPolicy.PLAYER_CHOICE:
        refuse(locked(slip), key="slip.locked")
    choice = command.choice
    if choice is not CarriedChoice.CANCEL:  # 000 §8.3: a cancel only takes the stake back
        require_may_wager(state, slip.player, slip.round, f"{choice.value} a carried slip")
    if choice is not CarriedChoice.CHANGE and command.wagers:
        why = f"wagers: only a change names new wagers, not a {choice.value}"
        refuse(why, key="slip.choice-no-wagers")
    if choice is CarriedChoice.CANCEL:
        wagers: list[Wager] = []
    elif choice is CarriedChoice.KEEP:
        if slip.choice is CarriedChoice.KEEP:
            why = f"choice: slip {slip.slip_id!r} is already kept as it stands"
            refuse(why, key="slip.already-kept")
        wagers = list(slip.wagers)
    else:
        if not command.wagers:
            refuse(
                "wagers: a change names the new wagers (002/2004 art. 3(4): changed, reduced"
                " or not)",
                key="slip.change-empty",
            )
        # 002/2004 art. 3(4) "在減注或不減注的情況下更改原注": the original wager changed, its
        # stake reduced or not, never raised (more money is a new slip); any valid bets,
        # checked as a new slip's (000 §4.1, §3.4).
        raised = sum(w.stake for w in command.wagers) - sum(w.stake for w in slip.wagers)
        if raised > 0:
            refuse(
                f"wagers: a change of a carried slip may keep or reduce its stake, not raise it"
                f" ({raised} more than the {sum(w.stake for w in slip.wagers)} carried;"
                " 002/2004 art. 3(4): 在減注或不減注的情況下更改原注): place a new slip for more",
                key="slip.change-raised",
                params={"amount": raised},
            )
        after = check_wagers(state, current, slip.player, command.wagers, slip)
        if after == slip.wagers:
            why = f"wagers: slip {slip.slip_id!r} already stands so: choose keep instead"
            refuse(why, key="slip.unchanged")
        check_payout(state, current, removed=slip.wagers, added=after)
        wagers = list(after)
    return CarriedSlipChosen(
        **stamp(command, at),
        round=slip.round,
        slip_id=slip.slip_id,
        player=slip.player,
        choice=choice,
        before=list(slip.wagers),
        after=wagers,
    )


def _slip_to_move(
    state: WagerState, command: WithdrawSlip | ChangeSlip | ChooseForCarriedSlip, at: datetime
) -> tuple[Slip, CurrentRound]:
    """The slip a command withdraws, changes or chooses for, if its player (or a dealer for
    them) may still move it: it stands, in the command's round, and betting is open there."""
    require_role(command, _BETTORS, rule="000 §3.9-3.11: the player, or a dealer for them")
    require_own(command, command.player)
    slip = state.slips.get(command.slip_id)
    if slip is None:
        why = f"slip_id: no slip {command.slip_id!r} was placed at table {state.table}"
        refuse(why, key="slip.unknown")
    if slip.player != command.player:
        raise Refused(
            f"player: slip {slip.slip_id!r} is {slip.player!r}'s, not {command.player!r}'s:"
            " only its player, or a dealer for them, may move it (000 §3.11)",
            code="forbidden",
            key="wager.not-yours",
        )
    if slip.status is not SlipStatus.ACTIVE:
        why = f"slip_id: slip {slip.slip_id!r} was {slip.status.value}: nothing stands on it"
        refuse(why, key="slip.gone")
    if command.round != slip.round:
        why = f"round: slip {slip.slip_id!r} stands in round {slip.round}, not {command.round}"
        refuse(why, key="slip.other-round", params={"round": slip.round})
    return slip, betting_round(state, slip.round, at)  # 000 §3.9: not after "no more bets"
