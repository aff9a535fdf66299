"""What a slip's colour checks and promotional tokens must be: each refusal names the wager's
field and the rule (000 §1.1, §3.2-3.8).

- Chips carry neither a colour nor a token.
- Colour checks: the player's own colour at this table, a whole number of checks at their
  marker value, and no more checks of a colour on the slip than the player holds
  (:attr:`~sicbo.wagers.media.Holding.in_hand`; a slip being changed gives its own back first).
- A promotional token: issued at this table to this player, not used (forfeited after a valid
  result) nor standing on another slip, once on the slip, staked at its face amount.

:func:`check_tokens` is the token part alone, which replay asks of every stored slip.
"""

from collections.abc import Sequence

from sicbo.decider import refuse
from sicbo.wagers.media import Holding, Media, TokenStatus
from sicbo.wagers.slips import Slip
from sicbo_contracts.wagers import Medium, Wager

_CHECKS_HELD = (
    "colour checks are staked from the checks the player holds at this table: issued, less"
    " those redeemed, at stake or lost, plus those won (000 §3.4, §3.7)"
)


def check_media(
    media: Media, table: str, player: str, wagers: Sequence[Wager], moving: Slip | None = None
) -> None:
    """Refuse the first wager whose medium is not the player's to stake. ``moving``: the slip
    being changed (its own checks and tokens are the player's again)."""
    staked: dict[str, int] = {}  # colour -> checks on this slip so far
    for index, wager in enumerate(wagers):
        where = f"wagers[{index}]"
        if wager.medium is not Medium.COLOR and wager.color is not None:
            refuse(
                f"{where}.color: only colour checks carry a colour, a {wager.medium.value}"
                " wager has none (000 §3.2: value chips, colour checks, promotional tokens)",
                key="media.colour-on-other",
            )
        if wager.medium is not Medium.PROMO and wager.token is not None:
            refuse(
                f"{where}.token: only a promotional-token wager names a token, a"
                f" {wager.medium.value} wager has none (000 §1.1, §3.2)",
                key="media.token-on-other",
            )
        if wager.medium is Medium.COLOR:
            held = _colour(media, table, where, player, wager)
            color = wager.color or ""
            checks = staked[color] = staked.get(color, 0) + wager.stake // held.marker_value
            back = _own_checks(moving, color, held.marker_value)
            if checks > held.in_hand + back:
                mine = f" (and {back} on the slip being changed)" if back else ""
                refuse(
                    f"{where}.stake: {player} holds {held.in_hand} {color!r} checks at table"
                    f" {table}{mine}; this slip stakes {checks}: {_CHECKS_HELD}",
                    key="media.checks-short",
                    params={"player": player},
                )
        elif wager.medium is Medium.PROMO:
            if wager.token is None:
                refuse(
                    f"{where}.token: a promotional-token wager names the token it stakes (000"
                    " §1.1: one free wager in the amount identified on the token)",
                    key="media.token-unnamed",
                )
            _token(media, table, where, player, wagers, index, moving)


def check_tokens(
    media: Media, table: str, player: str, wagers: Sequence[Wager], moving: Slip | None = None
) -> None:
    """The tokens the wagers name, checked as intake checks them (a promo wager naming no
    token is from a log older than tokens: not checked)."""
    for index, wager in enumerate(wagers):
        if wager.medium is Medium.PROMO and wager.token is not None:
            _token(media, table, f"wagers[{index}]", player, wagers, index, moving)


def _colour(media: Media, table: str, where: str, player: str, wager: Wager) -> Holding:
    color = wager.color
    if color is None:
        refuse(
            f"{where}.color: a colour-check wager names its colour (000 §3.3, §3.7)",
            key="media.colour-unnamed",
        )
    holders = media.colors.get(color, {})
    held = holders.get(player)
    if held is None:
        if holders:
            refuse(
                f"{where}.color: {color!r} checks at table {table} were issued to"
                f" {', '.join(sorted(holders))}, not to {player!r} (000 §3.6-3.7: a colour"
                " and its value belong to the player it was issued to)",
                key="media.checks-not-theirs",
                params={"player": player},
            )
        refuse(
            f"{where}.color: {color!r} checks were not issued to {player!r} at table"
            f" {table} (or none are left: redeemed or lost): colour checks are used only at"
            " the table that issued them, by the player they were issued to (000 §3.4, §3.6)",
            key="media.checks-not-theirs",
            params={"player": player},
        )
    if wager.stake % held.marker_value:
        refuse(
            f"{where}.stake: {wager.stake} is not a whole number of {color!r} checks valued"
            f" {held.marker_value} each (000 §3.7: the player's marker button)",
            key="media.checks-whole",
        )
    return held


def _own_checks(moving: Slip | None, color: str, value: int) -> int:
    if moving is None:
        return 0
    return sum(
        w.stake // value for w in moving.wagers if w.medium is Medium.COLOR and w.color == color
    )


def _token(
    media: Media,
    table: str,
    where: str,
    player: str,
    wagers: Sequence[Wager],
    index: int,
    moving: Slip | None,
) -> None:
    wager = wagers[index]
    name = wager.token or ""
    token = media.tokens.get(name)
    if token is None:
        refuse(
            f"{where}.token: no promotional token {name!r} was issued at table {table} (000"
            " §1.1: issued by the casino operator, for one free wager at the table)",
            key="media.token-unknown",
        )
    if token.player != player:
        refuse(
            f"{where}.token: token {name!r} was issued to {token.player!r}, not to"
            f" {player!r}: it is its player's one free wager (000 §1.1)",
            key="media.token-not-theirs",
            params={"player": player},
        )
    if token.status is TokenStatus.USED:
        refuse(
            f"{where}.token: token {name!r} is used: it was forfeited after a valid result"
            " (000 §1.1: one free wager; only a void round returns it)",
            key="media.token-used",
        )
    own = moving is not None and token.slip == moving.slip_id
    if token.status is TokenStatus.AT_STAKE and not own:
        refuse(
            f"{where}.token: token {name!r} already stands on slip {token.slip!r}: a token"
            " makes one wager (000 §1.1); withdraw or change that slip first",
            key="media.token-staked",
        )
    first = next(i for i, w in enumerate(wagers) if w.token == name and w.medium is Medium.PROMO)
    if first != index:
        refuse(
            f"{where}.token: token {name!r} is staked twice on this slip (wagers[{first}] too):"
            " a token makes one wager (000 §1.1)",
            key="media.token-staked",
        )
    if wager.stake != token.amount:
        refuse(
            f"{where}.stake: {wager.stake} is not token {name!r}'s face amount"
            f" {token.amount}: a token wagers the amount identified on it (000 §1.1)",
            key="media.token-amount",
        )
