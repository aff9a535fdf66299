"""Colour checks issued and redeemed, promotional tokens issued: wager intake's decisions on
the media a player wagers with (pure; :mod:`sicbo.wagers.media` keeps what each holds).

- A player's first colour at the table, or more checks of a colour they hold, is issued by the
  dealer, who ascertains its value (000 §3.7). A further colour (the player holds checks of
  another colour here) is "at the discretion of a game supervisor" (000 §3.8): only a
  supervisor issues it, at the value of the player's other colours, and only if "no other
  player is precluded from wagering with colour checks": after the issue, the colours of the
  table's set still free (``TableConfig.check_colors`` less the colours in use) must be at
  least the seats whose players hold no colour. A table whose set has no stated size gives
  no second colour: the proviso cannot be met knowingly.
- A colour held by another player only with their agreement (000 §3.6).
- Redeemed at the issuing table by the dealer, or at the cage (operator) while it is closed
  (000 §3.5); never more than the player holds in hand.
- A promotional token is issued by the casino operator (000 §1.1 "issued by the casino
  operator") for one player at this table, with an id unique here and its face amount.
"""

from datetime import datetime

from sicbo.decider import Refused, refuse, require_role, stamp
from sicbo.wagers.state import WagerState
from sicbo_contracts.base import Role
from sicbo_contracts.wagers import (
    ColorChecksIssued,
    ColorChecksRedeemed,
    IssueColorChecks,
    IssuePromoToken,
    PromoTokenIssued,
    RedeemColorChecks,
)


def issue_checks(state: WagerState, command: IssueColorChecks, at: datetime) -> ColorChecksIssued:
    require_role(
        command,
        (Role.DEALER, Role.SUPERVISOR),
        rule="000 §3.7: the dealer issues colour checks; §3.8: a further colour, a supervisor",
    )
    if not state.table_open:
        refuse(
            f"table {state.table} is not open: colour checks are issued at an open table",
            key="media.table-not-open",
        )
    if command.marker_value < 1 or command.count < 1:  # a command built in code is unchecked
        refuse(
            "marker_value, count: colour checks have a value and a count of at least 1",
            key="media.checks-count",
        )
    color, player, media = command.color, command.player, state.media
    others_of_mine = [c for c in media.colors_of(player) if c != color]
    further = bool(others_of_mine) and media.holding(color, player) is None
    _require_issuer(command, further, others_of_mine)
    holders = media.colors.get(color, {})
    others = sorted(p for p in holders if p != player)
    if others and not command.shared_with_consent:
        refuse(
            f"color: {color!r} checks are already issued to {', '.join(others)} at table"
            f" {state.table}: no two players share a colour unless they agree (000 §3.6); set"
            " shared_with_consent once they do",
            key="media.colour-taken",
        )
    held = holders.get(player)
    if held is not None and held.marker_value != command.marker_value:
        refuse(
            f"marker_value: {player}'s {color!r} checks are valued {held.marker_value} each"
            " (000 §3.7: the marker button); issue more at that value, or redeem them first",
            key="media.marker-value",
        )
    for other in others_of_mine:
        mine = media.holding(other, player)
        if mine is not None and mine.marker_value != command.marker_value:
            refuse(
                f"marker_value: {player} holds {other!r} checks valued {mine.marker_value}"
                " here: the colours issued to one player are designated the same value"
                " (000 §3.8)",
                key="media.marker-value",
            )
    if further:
        _precludes_no_one(state, player, color)
    return ColorChecksIssued(
        **stamp(command, at),
        player=player,
        color=color,
        marker_value=command.marker_value,
        count=command.count,
        shared_with_consent=command.shared_with_consent,
    )


def _require_issuer(command: IssueColorChecks, further: bool, others_of_mine: list[str]) -> None:
    role, player = command.actor.role, command.player
    if further and role is not Role.SUPERVISOR:
        raise Refused(
            f"color: {player} already holds {', '.join(map(repr, others_of_mine))} checks"
            f" here: a further colour ({command.color!r}) is issued at the discretion of a game"
            " supervisor (000 §3.8), not by the dealer",
            code="forbidden",
            key="media.colour-more",
            params={"player": player},
        )
    if not further and role is not Role.DEALER:
        raise Refused(
            f"color: {command.color!r} would be {player}'s first colour here (or more of one"
            " they hold): the dealer issues it and ascertains its value (000 §3.7); a"
            " supervisor issues only a further colour (000 §3.8)",
            code="forbidden",
            key="media.colour-more",
            params={"player": player},
        )


def _precludes_no_one(state: WagerState, player: str, color: str) -> None:
    """000 §3.8: "provided that as a result, no other player is precluded from wagering with
    color checks": every seat whose player holds no colour keeps a free colour of the set."""
    size, media = state.check_colors, state.media
    if size is None:
        refuse(
            f"color: table {state.table}'s set of colour checks has no stated number of"
            " colours (TableConfig.check_colors): a further colour is issued only if no other"
            " player is precluded from wagering with colour checks (000 §3.8)",
            key="media.colours-unstated",
        )
    in_use = {*media.colors, color}
    holders = {p for players in media.colors.values() for p in players} | {player}
    waiting = max(0, state.seats - len(holders))
    free = size - len(in_use)
    if free < waiting:
        refuse(
            f"color: a further colour for {player} would leave {max(free, 0)} of the table's"
            f" {size} colours free for {waiting} other seat(s) whose players hold none: no"
            " other player may be precluded from wagering with colour checks (000 §3.8)",
            key="media.colours-short",
            params={"player": player},
        )


def redeem_checks(
    state: WagerState, command: RedeemColorChecks, at: datetime
) -> ColorChecksRedeemed:
    require_role(command, (Role.DEALER, Role.OPERATOR), rule="000 §3.5: the table, or the cage")
    color, player = command.color, command.player
    held = state.media.holding(color, player)
    if held is None:
        refuse(
            f"color: no {color!r} checks of {player} are outstanding at table {state.table}:"
            " colour checks are redeemed only at the table that issued them (000 §3.5)",
            key="media.none-outstanding",
            params={"player": player},
        )
    role = command.actor.role
    if state.table_open and role is not Role.DEALER:
        raise Refused(
            f"table {state.table} is open: its colour checks are redeemed there, by the"
            " dealer; elsewhere only while the table is closed (000 §3.5)",
            code="forbidden",
            key="media.redeem-at-table",
        )
    if not state.table_open and role is not Role.OPERATOR:
        raise Refused(
            f"table {state.table} is closed: its colour checks are redeemed at the cage"
            " (operator) while it stays closed (000 §3.5)",
            code="forbidden",
            key="media.redeem-at-cage",
        )
    if not 1 <= command.count <= held.in_hand:
        refuse(
            f"count: {player} holds {held.in_hand} {color!r} checks at table {state.table}"
            f" (issued, less those redeemed, at stake or lost, plus those won);"
            f" {command.count} cannot be redeemed",
            key="media.redeem-over",
            params={"player": player},
        )
    return ColorChecksRedeemed(
        **stamp(command, at),
        player=player,
        color=color,
        count=command.count,
        value=command.count * held.marker_value,
        table_closed=not state.table_open,
    )


def issue_token(state: WagerState, command: IssuePromoToken, at: datetime) -> PromoTokenIssued:
    require_role(
        command, (Role.OPERATOR,), rule="000 §1.1: a token is issued by the casino operator"
    )
    if command.amount < 1:  # a command built in code is unchecked
        refuse(
            "amount: a token's face amount is at least 1 minor unit (000 §1.1)",
            key="media.token-amount-zero",
        )
    known = state.media.tokens.get(command.token)
    if known is not None:
        refuse(
            f"token: {command.token!r} was already issued at table {state.table}, to"
            f" {known.player}: a token id names one token (000 §1.1: one free wager)",
            key="media.token-issued",
        )
    return PromoTokenIssued(
        **stamp(command, at), token=command.token, player=command.player, amount=command.amount
    )
