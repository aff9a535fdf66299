"""Settlement of wagers: what goes back to the player (RULES.md "Money", "Wagering media")."""

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from sicbo.game.bets import parse_bet
from sicbo.game.dice import Roll
from sicbo.game.errors import GameError, InvalidStake
from sicbo.game.evaluation import pay_for, roll_pays
from sicbo.game.profiles import Paytable
from sicbo_contracts.wagers import Medium  # the wire's media are the game's media

__all__ = ["Medium", "Outcome", "Settled", "settle_round", "settle_wager", "void_wager"]


class Outcome(StrEnum):
    WIN = "win"
    LOSE = "lose"
    VOID = "void"


@dataclass(frozen=True, slots=True)
class Settled:
    outcome: Outcome
    winnings: int
    returned: int  # everything that goes back to the player, stake included


def parse_medium(value: str) -> Medium:
    try:
        return Medium(value)
    except ValueError:
        media = ", ".join(repr(m.value) for m in Medium)
        raise GameError(f"unknown medium {value!r}; use one of {media}") from None


def check_stake(stake: object) -> int:
    if type(stake) is not int or stake < 1:
        raise InvalidStake(
            f"stake must be a whole number of minor units, at least 1; got {stake!r}"
        )
    return stake


def check_unit(unit: object) -> int:
    if type(unit) is not int or unit < 1:
        raise GameError(
            f"the table's minimum unit must be a whole number, at least 1; got {unit!r}"
        )
    return unit


def winnings_for(stake: int, num: int, den: int, unit: int) -> int:
    """Winnings at ``num`` to ``den``. A pay that is not whole (3 to 2 on an odd stake) is
    rounded down to the table's minimum unit (RULES.md "Money")."""
    gross = stake * num
    if gross % den == 0:
        return gross // den
    return gross // (den * unit) * unit


def _settled(medium: Medium, stake: int, winnings: int | None) -> Settled:
    if winnings is None:
        return Settled(Outcome.LOSE, 0, 0)
    if medium is Medium.PROMO:
        # 000 §1.1: the token is forfeited after a valid result; a win pays winnings only.
        return Settled(Outcome.WIN, winnings, winnings)
    return Settled(Outcome.WIN, winnings, stake + winnings)


def settle_wager(
    paytable: Paytable, roll: Roll, bet_id: str, stake: int, medium: Medium, unit: int = 1
) -> Settled:
    """Settle one wager, validating every input."""
    bet = parse_bet(bet_id)
    paytable.require_offered(bet)
    check_stake(stake)
    check_unit(unit)
    pay: Fraction | None = pay_for(paytable, bet, roll)
    winnings = None if pay is None else winnings_for(stake, pay.numerator, pay.denominator, unit)
    return _settled(medium, stake, winnings)


def settle_round(
    paytable: Paytable,
    roll: Roll,
    wagers: Iterable[tuple[str, int, Medium]],
    unit: int = 1,
) -> list[Settled]:
    """Settle already-validated wagers (bet id, stake, medium) of one round: the hot path."""
    pays = roll_pays(paytable, roll)
    lose = Settled(Outcome.LOSE, 0, 0)
    out: list[Settled] = []
    append = out.append
    for bet_id, stake, medium in wagers:
        pay = pays.get(bet_id)
        if pay is None:
            append(lose)
            continue
        winnings = winnings_for(stake, pay[0], pay[1], unit)
        append(_settled(medium, stake, winnings))
    return out


def void_wager(stake: int, medium: Medium) -> Settled:
    """A void round (no result, invalidation) returns every wager, a token included (000 §7.5,
    §8.5; 000 §1.1 forfeits a token only after a valid result)."""
    return Settled(Outcome.VOID, 0, stake)
