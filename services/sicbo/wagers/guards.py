"""The checks wager intake's commands share; each refuses naming the field and the rule.

A refusal names where in the command the problem is, as the contract's own validation does
(``wagers[2].bet: ...``), then the rule, so a dealer or an integrator can act on it.
"""

from collections.abc import Sequence
from datetime import datetime
from functools import lru_cache

from sicbo.decider import Refused, refuse
from sicbo.game.bets import Bet, parse_bet
from sicbo.game.errors import GameError, InvalidBet
from sicbo.game.limits import Bounds, bounds_for
from sicbo.game.profiles import NoResultPolicy, Paytable
from sicbo.wagers.exposure import paytable_by_ref, shifted, worst
from sicbo.wagers.media_checks import check_media
from sicbo.wagers.state import Betting, CurrentRound, Slip, WagerState
from sicbo_contracts.base import Command, Role
from sicbo_contracts.wagers import Wager

#: ``parse_bet``, memoised: the catalogue has a few dozen bet ids and slips name the same ones
#: over and over (parsing them was about 6% of the wager service's CPU a slip). A ``Bet`` is
#: frozen, so one may be shared; an id that is not a bet raises and is not kept, and the cache
#: is bounded whatever ids are sent.
_parse_bet = lru_cache(maxsize=512)(parse_bet)


def require_own(command: Command, player: str) -> None:
    """A player acts only for themself; a dealer places and moves wagers for a player at the
    player's instruction (000 §3.10-3.11: the player is responsible for the positioning)."""
    actor = command.actor
    if actor.role is Role.PLAYER and actor.id != player:
        raise Refused(
            f"player: {actor.id!r} may not act for {player!r}: a player wagers only for"
            " themself; a dealer places wagers for a player (000 §3.10-3.11)",
            code="forbidden",
            key="wager.not-yours",
        )


def betting_round(state: WagerState, number: int, at: datetime) -> CurrentRound:
    """The current round, if wagers may be placed, changed or withdrawn in it now."""
    table = state.table
    if not state.table_open:
        refuse(
            f"round: table {table} is not open: no wager is taken at a closed table",
            key="wager.table-closed",
        )
    current = state.round
    if current is None:
        refuse(
            f"round: betting is not open for round {number}: no round has started at {table}",
            key="wager.not-open",
            params={"round": number},
        )
    if current.number != number:
        refuse(
            f"round: betting is not open for round {number}: the current round of {table} is"
            f" {current.number}",
            key="wager.not-open",
            params={"round": number},
        )
    if current.betting is Betting.CLOSED:
        refuse(
            f'round: betting is closed for round {number} ("no more bets" was called, or the'
            " round ended): no wager is placed, changed or withdrawn after it (000 §3.9)",
            key="wager.closed",
            params={"round": number},
        )
    if current.betting is Betting.NOT_OPEN:
        refuse(
            f'round: betting is not open yet for round {number}: wagers follow "place your'
            ' bets" (000 §5.1)',
            key="wager.not-open",
            params={"round": number},
        )
    if state.suspended:
        # Before the countdown's check: a suspension pauses the countdown (its deadline no
        # longer applies); betting resumes with a new ``closes_at`` (BettingResumed).
        refuse(
            f"round: table {table} is suspended: no further play until an inspector clears"
            ' the fault (000 §7.7) or the supervisor resumes the round (004 "Ralat'
            ' Pengendalian": the round is suspended)',
            key="wager.suspended",
        )
    if current.closes_at is not None and at >= current.closes_at:
        # The countdown's own CloseBetting may still be on its way: the time rule is what
        # counts (004 "Cara Bermain"), not the timer event.
        refuse(
            f"round: betting is closed for round {number}: its countdown ended at"
            f" {current.closes_at.isoformat()} (004; no wager after it, 000 §3.9)",
            key="wager.closed",
            params={"round": number},
        )
    return current


def paytable_of(current: CurrentRound) -> Paytable:
    try:
        return paytable_by_ref(current.paytable)
    except GameError as error:
        why = f"round {current.number}'s paytable {current.paytable!r} is unknown here: {error}"
        refuse(why, key="wager.paytable-unknown")


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
        refuse("wagers: a slip holds at least one wager", key="wager.empty")
    limits = state.limits_for(player)
    if limits is None:
        why = f"table {state.table} has no limits sign: it was never opened (000 §4.1)"
        refuse(why, key="wager.no-limits")
    paytable = paytable_of(current)
    own = player in state.player_limits
    for index, wager in enumerate(wagers):
        where = f"wagers[{index}]"
        bet = _check_bet(where, wager, paytable)
        _check_stake(where, wager.stake, bounds_for(limits, bet.kind), own)
    check_media(state.media, state.table, player, wagers, moving)  # 000 §1.1, §3.2-3.8
    return tuple(wagers)


def check_payout(
    state: WagerState,
    current: CurrentRound,
    removed: Sequence[Wager] = (),
    added: Sequence[Wager] = (),
) -> None:
    """The table's maximum payout per round (a house limit, ``config.max_payout_per_round``):
    refuse wagers that would raise the round's worst case above it (see
    :mod:`sicbo.wagers.exposure`)."""
    cap = state.max_payout
    if cap is None or current.exposure is None:
        return
    before, _ = worst(current.exposure)
    after, roll = worst(shifted(current.exposure, current.paytable, removed, added))
    if after > cap and after > before:
        dice = "-".join(map(str, roll))
        refuse(
            f"wagers: with these wagers round {current.number} could pay {after} in winnings"
            f" (on {dice}), above the table's maximum payout per round {cap}"
            f" (config.max_payout_per_round, a house limit); its accepted wagers could already"
            f" pay {before} at most",
            key="wager.max-payout",
            params={"amount": cap},
        )


def _check_bet(where: str, wager: Wager, paytable: Paytable) -> Bet:
    try:
        bet = _parse_bet(wager.bet)
    except InvalidBet as error:
        refuse(f"{where}.bet: {error} (RULES.md bet catalogue)", key="wager.bad-bet")
    if not paytable.offers(bet):
        refuse(
            f"{where}.bet: {bet.id!r} is not offered under {paytable.profile.id!r} (the"
            f" round's paytable {paytable.ref}): a wager on a bet the profile does not offer"
            " is rejected (RULES.md payouts)",
            key="wager.not-offered",
            params={"where": where, "bet": bet.id},
        )
    return bet


def _check_stake(where: str, stake: int, bounds: Bounds, own: bool) -> None:
    """Within the sign's bounds for the wager's bet kind (000 §4.1), or the player's own sign's
    (000 §4.4). Only here: a wager outside them that stands when the cover comes off is valid
    and settled like any other (000 §4.2; settlement never checks limits)."""
    whose = "this player's own (000 §4.4)" if own else "table"
    kind = bounds.kind.value
    low = f"{kind} minimum" if bounds.own_minimum else "minimum"
    high = f"{kind} maximum" if bounds.own_maximum else "maximum"
    line = f"000 §4.1: the sign's line for {kind} bets"
    if stake < bounds.minimum:
        rule = line if bounds.own_minimum else "000 §4.1"
        refuse(
            f"{where}.stake: {stake} is below the {whose} {low} {bounds.minimum} ({rule})",
            key="wager.below",
            params={"where": where, "amount": bounds.minimum},
        )
    if stake > bounds.maximum:
        rule = line if bounds.own_maximum else "000 §4.1"
        refuse(
            f"{where}.stake: {stake} is above the {whose} {high} {bounds.maximum} ({rule}; a"
            " supervisor may allow a player more with a sign for them, 000 §4.4)",
            key="wager.above",
            params={"where": where, "amount": bounds.maximum},
        )
    if (stake - bounds.minimum) % bounds.unit:
        refuse(
            f"{where}.stake: {stake} is not the {low} {bounds.minimum} plus whole units of"
            f" {bounds.unit}: the sign's minimum unit for wagers above the minimum (000 §4.1)",
            key="wager.steps",
            params={"where": where, "amount": bounds.unit},
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
