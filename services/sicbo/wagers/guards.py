"""The checks wager intake's commands share; each refuses naming the field and the rule.

A refusal names where in the command the problem is, as the contract's own validation does
(``wagers[2].bet: ...``), then the rule, so a dealer or an integrator can act on it.
"""

from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache

from sicbo.decider import Refused, refuse
from sicbo.game.bets import parse_bet
from sicbo.game.errors import GameError, InvalidBet
from sicbo.game.profiles import NoResultPolicy, Paytable, parse_paytable_ref
from sicbo.wagers.media_checks import check_media
from sicbo.wagers.state import Betting, CurrentRound, Slip, WagerState
from sicbo_contracts.base import Command, Limits, Role
from sicbo_contracts.wagers import Wager


def require_own(command: Command, player: str) -> None:
    """A player acts only for themself; a dealer places and moves wagers for a player at the
    player's instruction (000 §3.10-3.11: the player is responsible for the positioning)."""
    actor = command.actor
    if actor.role is Role.PLAYER and actor.id != player:
        raise Refused(
            f"player: {actor.id!r} may not act for {player!r}: a player wagers only for"
            " themself; a dealer places wagers for a player (000 §3.10-3.11)",
            code="forbidden",
        )


def betting_round(state: WagerState, number: int, at: datetime) -> CurrentRound:
    """The current round, if wagers may be placed, changed or withdrawn in it now."""
    table = state.table
    if not state.table_open:
        refuse(f"round: table {table} is not open: no wager is taken at a closed table")
    current = state.round
    if current is None:
        refuse(f"round: betting is not open for round {number}: no round has started at {table}")
    if current.number != number:
        refuse(
            f"round: betting is not open for round {number}: the current round of {table} is"
            f" {current.number}"
        )
    if current.betting is Betting.CLOSED:
        refuse(
            f'round: betting is closed for round {number} ("no more bets" was called, or the'
            " round ended): no wager is placed, changed or withdrawn after it (000 §3.9)"
        )
    if current.betting is Betting.NOT_OPEN:
        refuse(
            f'round: betting is not open yet for round {number}: wagers follow "place your'
            ' bets" (000 §5.1)'
        )
    if current.closes_at is not None and at >= current.closes_at:
        # The countdown's own CloseBetting may still be on its way: the time rule is what
        # counts (004 "Cara Bermain"), not the timer event.
        refuse(
            f"round: betting is closed for round {number}: its countdown ended at"
            f" {current.closes_at.isoformat()} (004; no wager after it, 000 §3.9)"
        )
    if state.suspended:
        refuse(
            f"round: table {table} is suspended by an equipment fault: no further play until"
            " an inspector clears it (000 §7.7; 004: the round is suspended)"
        )
    return current


@lru_cache(maxsize=64)
def _paytable(ref: str) -> Paytable:
    """Memoised: the profile documents ship with the code, so a ref always means one paytable
    (building it anew for every slip cost more than the rest of the decision)."""
    return parse_paytable_ref(ref)


def paytable_of(current: CurrentRound) -> Paytable:
    try:
        return _paytable(current.paytable)
    except GameError as error:
        refuse(f"round {current.number}'s paytable {current.paytable!r} is unknown here: {error}")


def check_wagers(
    state: WagerState,
    current: CurrentRound,
    player: str,
    wagers: Sequence[Wager],
    moving: Slip | None = None,
) -> tuple[Wager, ...]:
    """Every wager valid, or the whole slip refused naming the first bad one. ``moving``: the
    slip being changed, whose own colour checks and tokens are the player's again."""
    if not wagers:
        refuse("wagers: a slip holds at least one wager")
    limits = state.limits_for(player)
    if limits is None:
        refuse(f"table {state.table} has no limits sign: it was never opened (000 §4.1)")
    paytable = paytable_of(current)
    own = player in state.player_limits
    for index, wager in enumerate(wagers):
        where = f"wagers[{index}]"
        _check_bet(where, wager, paytable)
        _check_stake(where, wager.stake, limits, own)
    check_media(state.media, state.table, player, wagers, moving)  # 000 §1.1, §3.2-3.8
    return tuple(wagers)


def _check_bet(where: str, wager: Wager, paytable: Paytable) -> None:
    try:
        bet = parse_bet(wager.bet)
    except InvalidBet as error:
        refuse(f"{where}.bet: {error} (RULES.md bet catalogue)")
    if not paytable.offers(bet):
        refuse(
            f"{where}.bet: {bet.id!r} is not offered under {paytable.profile.id!r} (the"
            f" round's paytable {paytable.ref}): a wager on a bet the profile does not offer"
            " is rejected (RULES.md payouts)"
        )


def _check_stake(where: str, stake: int, limits: Limits, own: bool) -> None:
    whose = "this player's own (000 §4.4)" if own else "table"
    if stake < limits.minimum:
        refuse(f"{where}.stake: {stake} is below the {whose} minimum {limits.minimum} (000 §4.1)")
    if stake > limits.maximum:
        refuse(
            f"{where}.stake: {stake} is above the {whose} maximum {limits.maximum} (000 §4.1;"
            " a supervisor may allow a player more with a sign for them, 000 §4.4)"
        )
    if (stake - limits.minimum) % limits.unit:
        refuse(
            f"{where}.stake: {stake} is not the minimum {limits.minimum} plus whole units of"
            f" {limits.unit}: the sign's minimum unit for wagers above the minimum (000 §4.1)"
        )


def locked(slip: Slip) -> str:
    """Why a carried slip may not be withdrawn or changed."""
    prior = slip.round - 1
    if slip.carried_under is NoResultPolicy.PLAYER_CHOICE:
        return (
            f"slip_id: slip {slip.slip_id!r} was carried into round {slip.round} after"
            f' "no result" in round {prior}: the player cancels, keeps or changes it with'
            " ChooseForCarriedSlip (002/2004 art. 3(4))"
        )
    return (
        f"slip_id: slip {slip.slip_id!r} was carried into round {slip.round} after"
        f' "no result" in round {prior} and is locked: its wagers stand and may not be'
        " withdrawn or changed (002/2003 art. 3(3): 原注不得取銷; 004: Tiada pertaruhan yang"
        " diletakkan boleh ditarik balik atau dibatalkan)"
    )
