"""What each player holds at one table in colour checks and promotional tokens (pure).

Folded by :func:`sicbo.wagers.state.evolve` from the table's bets events and settlement's
results, so that intake stakes only what a player holds (:mod:`sicbo.wagers.media_checks`).

**Colour checks** (000 §3.3-3.8), per player and colour, counted in checks:
``in hand = issued - redeemed - at stake - lost + won``:

- issued at a marker value (000 §3.7; a second colour, 000 §3.8), redeemed at the table or
  the cage (000 §3.5);
- at stake: on wagers standing on the layout and not settled yet (placed, changed, withdrawn,
  carried over a void round and chosen for);
- settled as settlement paid them (its WagersSettled, not a copy of its rules): a lost or
  forfeited wager's checks are collected (``lost``); a won one's come back with its winnings
  paid in checks of its colour (``won``: winnings // marker value; a remainder worth less than
  a check is paid in value chips, not tracked); a void one's come back; a carried one's stay
  on the layout for the re-run. A correction's adjustment and a cancellation's refund move
  ``lost`` and ``won`` from the result before to the one after.

A colour is the player's while they hold checks of it in hand or at stake; once none are left
(redeemed or lost) it is free for another player, at any value (000 §3.6-3.7).

**Promotional tokens** (000 §1.1): available once issued; at stake on a standing slip; used
(forfeited) once settlement settles its wager by a valid result, won or lost (or forfeited
for fraud, 000 §8.5); available again when its wager is withdrawn, changed away or cancelled,
or settled void (000 §1.1 "void": invalid with no result; 000 §7.5, §8.5, 004 cancellation):
a void wager was no wager, so the token's one free wager is still to be made.

``version`` counts the events appended under the table's media msg id (colour checks issued
or redeemed, slip events that stake or release checks or tokens, see
:func:`sicbo.wagers.decider.msg_id_of`): two decisions on the same version name the same msg id
and the server stores one, so a token or a check is never staked twice by racing commands.
Settlement's events only ever give back (except an adjustment after a correction), so they
leave the version alone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType

from sicbo.wagers.pmap import PMap
from sicbo_contracts.settlement import (
    SettlementAdjusted,
    SettlementVoided,
    WagerOutcome,
    WagerResult,
    WagersSettled,
)
from sicbo_contracts.wagers import Medium, Wager

#: ``(round, slip id, index) -> the wager`` as it stood in that round (the state's books).
WagerAt = Callable[[int, str, int], Wager | None]


@dataclass(frozen=True, slots=True)
class Holding:
    """One player's colour checks of one colour at this table (000 §3.3-3.8), in checks."""

    marker_value: int  # the value of one check, on the player's marker button (000 §3.7)
    issued: int
    redeemed: int = 0
    at_stake: int = 0  # on wagers standing on the layout, not settled yet
    lost: int = 0  # collected by settlement: lost or forfeited wagers
    won: int = 0  # paid by settlement as winnings, in checks of this colour

    @property
    def in_hand(self) -> int:
        """What the player may stake or redeem now."""
        return self.issued - self.redeemed - self.at_stake - self.lost + self.won

    @property
    def in_use(self) -> bool:
        return self.in_hand > 0 or self.at_stake > 0


class TokenStatus(StrEnum):
    AVAILABLE = "available"
    AT_STAKE = "at stake"
    USED = "used"  # forfeited after a valid result (000 §1.1)


@dataclass(frozen=True, slots=True)
class Token:
    """A promotional token or voucher issued for this table (000 §1.1)."""

    token: str
    player: str
    amount: int  # its face amount: the stake of its one wager
    status: TokenStatus = TokenStatus.AVAILABLE
    slip: str | None = None  # where it stands, or last stood


def _empty() -> Mapping[str, Mapping[str, Holding]]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Media:
    #: colour -> player -> holding, only while the colour is in use by that player.
    colors: Mapping[str, Mapping[str, Holding]] = field(default_factory=_empty)
    tokens: PMap[str, Token] = field(default_factory=PMap)
    version: int = 0

    def holding(self, color: str, player: str) -> Holding | None:
        return self.colors.get(color, {}).get(player)

    def colors_of(self, player: str) -> list[str]:
        """The colours ``player`` holds here (in hand or at stake), sorted."""
        return sorted(c for c, holders in self.colors.items() if player in holders)


def uses_media(wagers: Iterable[Wager]) -> bool:
    """Whether any wager stakes colour checks or a promotional token."""
    for w in wagers:  # noqa: SIM110 (a loop, not any(<generator>): the fold asks it twice a slip)
        if w.medium is not _CHIPS:
            return True
    return False


_CHIPS = Medium.CHIPS


# ---- colour checks and tokens issued and redeemed ----------------------------------------------


def issue_checks(media: Media, player: str, color: str, value: int, count: int) -> Media:
    held = media.holding(color, player)
    after = Holding(value, count) if held is None else replace(held, issued=held.issued + count)
    return _hold(media, color, player, after, bump=True)


def redeem_checks(media: Media, player: str, color: str, count: int) -> Media:
    held = media.holding(color, player)
    after = None if held is None else replace(held, redeemed=held.redeemed + count)
    return _hold(media, color, player, after, bump=True)


def issue_token(media: Media, token: str, player: str, amount: int) -> Media:
    return replace(media, tokens=media.tokens.set(token, Token(token, player, amount)))


# ---- slips ---------------------------------------------------------------------------------------


def restake(
    media: Media, slip_id: str, player: str, before: Sequence[Wager], after: Sequence[Wager]
) -> Media:
    """A slip's wagers go from ``before`` (released) to ``after`` (staked)."""
    if not (uses_media(before) or uses_media(after)):
        return media
    for sign, wagers in ((-1, before), (1, after)):
        for wager in wagers:
            if wager.medium is Medium.COLOR and wager.color is not None:
                media = _stake(media, wager.color, player, sign * wager.stake)
            elif wager.medium is Medium.PROMO and wager.token is not None:
                status = TokenStatus.AT_STAKE if sign > 0 else TokenStatus.AVAILABLE
                media = _token(media, wager.token, status, slip_id)
    return replace(media, version=media.version + 1)


def _stake(media: Media, color: str, player: str, stake: int) -> Media:
    held = media.holding(color, player)
    if held is None:
        return media  # never issued here (a log older than these checks): nothing to count
    checks = stake // held.marker_value
    return _hold(media, color, player, replace(held, at_stake=held.at_stake + checks))


def _token(media: Media, token: str, status: TokenStatus, slip_id: str) -> Media:
    known = media.tokens.get(token)
    if known is None:
        return media
    if status is TokenStatus.AVAILABLE and (
        known.status is not TokenStatus.AT_STAKE or known.slip != slip_id
    ):
        return media  # released from a slip it does not stand on
    return replace(
        media, tokens=media.tokens.set(token, replace(known, status=status, slip=slip_id))
    )


# ---- settlement ----------------------------------------------------------------------------------


def settled(
    media: Media, event: WagersSettled | SettlementAdjusted | SettlementVoided, wager_at: WagerAt
) -> Media:
    """Settlement's results for the round's colour-check and token wagers."""
    if isinstance(event, WagersSettled):
        for r in event.wagers:
            if r.medium != Medium.CHIPS and r.outcome is not WagerOutcome.CARRIED:
                wager = wager_at(event.round, r.slip_id, r.index)
                if wager is not None:
                    media = _settle(media, r.player, wager, None, r)
        return media
    for a in event.adjustments:
        if a.after.medium != Medium.CHIPS:
            wager = wager_at(event.round, a.slip_id, a.index)
            if wager is not None:
                media = _settle(media, a.player, wager, a.before, a.after)
    return media


def _settle(
    media: Media, player: str, wager: Wager, before: WagerResult | None, after: WagerResult
) -> Media:
    """``after`` replaces ``before`` (None: the wager was at stake) as the wager's result."""
    if wager.medium is Medium.PROMO and wager.token is not None:
        void = after.outcome is WagerOutcome.VOID
        status = TokenStatus.AVAILABLE if void else TokenStatus.USED
        known = media.tokens.get(wager.token)
        if known is None or known.slip != after.slip_id:
            return media  # staked again since (a late adjustment of an earlier round)
        return replace(media, tokens=media.tokens.set(wager.token, replace(known, status=status)))
    if wager.medium is not Medium.COLOR or wager.color is None:
        return media
    held = media.holding(wager.color, player)
    if held is None:
        return media  # no checks of it left to count (a correction after all were redeemed)
    value = held.marker_value
    lost, won = _checks(after, value)
    at_stake = held.at_stake
    if before is None:
        at_stake -= wager.stake // value
    else:
        lost_before, won_before = _checks(before, value)
        lost, won = lost - lost_before, won - won_before
    after_held = replace(held, at_stake=at_stake, lost=held.lost + lost, won=held.won + won)
    return _hold(media, wager.color, player, after_held)


def _checks(result: WagerResult, value: int) -> tuple[int, int]:
    """(checks collected, checks paid as winnings) by one settled result."""
    if result.outcome in (WagerOutcome.LOSE, WagerOutcome.FORFEIT):
        return result.stake // value, 0
    if result.outcome is WagerOutcome.WIN:
        return 0, result.winnings // value
    return 0, 0


def _hold(
    media: Media, color: str, player: str, held: Holding | None, *, bump: bool = False
) -> Media:
    """Record a player's holding of a colour; a colour no longer in use is theirs no longer."""
    holders = {p: h for p, h in media.colors.get(color, {}).items() if p != player}
    if held is not None and held.in_use:
        holders[player] = held
    colors = {c: h for c, h in media.colors.items() if c != color}
    if holders:
        colors[color] = MappingProxyType(holders)
    version = media.version + 1 if bump else media.version
    return replace(media, colors=MappingProxyType(colors), version=version)
