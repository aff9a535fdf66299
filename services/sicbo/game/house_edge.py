"""The house-edge report of a paytable, by enumerating the 216 outcomes with exact fractions."""

from dataclasses import dataclass
from fractions import Fraction

from sicbo.game.bets import Bet, BetKind
from sicbo.game.dice import ORDERED_OUTCOMES, make_roll
from sicbo.game.evaluation import pay_for
from sicbo.game.profiles import Paytable, pay_key

OUTCOMES = len(ORDERED_OUTCOMES)  # 216


@dataclass(frozen=True, slots=True)
class BetEdge:
    bet: Bet
    pays: Fraction  # for single: the pay when one die shows the number
    pays_by_dice: tuple[Fraction, ...]  # single only: one, two, three dice
    wins_out_of_216: int
    rtp: Fraction  # expected return per unit staked, stake included
    house_edge: Fraction

    @property
    def no_house_edge(self) -> bool:
        """True for a bet the house cannot expect to win (002/2004 odd/even, RULES.md)."""
        return self.house_edge <= 0


@dataclass(frozen=True, slots=True)
class EdgeReport:
    paytable: Paytable
    bets: tuple[BetEdge, ...]

    @property
    def max_rtp(self) -> Fraction:
        """The best bet's return (004 "Tambahan" publishes it: 97.22% online)."""
        return max(b.rtp for b in self.bets)

    @property
    def no_house_edge(self) -> tuple[BetEdge, ...]:
        return tuple(b for b in self.bets if b.no_house_edge)


def bet_edge(paytable: Paytable, bet: Bet) -> BetEdge:
    wins = 0
    returned = Fraction(0)
    for outcome in ORDERED_OUTCOMES:
        pay = pay_for(paytable, bet, make_roll(outcome))
        if pay is not None:
            wins += 1
            returned += 1 + pay
    rtp = returned / OUTCOMES
    if bet.kind is BetKind.SINGLE:
        by_dice = tuple(paytable.pays[pay_key(BetKind.SINGLE, n)] for n in (1, 2, 3))
        headline = by_dice[0]
    else:
        by_dice = ()
        level = bet.numbers[0] if bet.kind is BetKind.TOTAL else None
        headline = paytable.pays[pay_key(bet.kind, level)]
    return BetEdge(bet, headline, by_dice, wins, rtp, 1 - rtp)


def house_edge_report(paytable: Paytable) -> EdgeReport:
    return EdgeReport(paytable, tuple(bet_edge(paytable, b) for b in paytable.offered_bets()))


def format_pay(pay: Fraction) -> str:
    """``"N:D"`` as the layouts write it: 3 to 2 stays ``3:2``, 8 to 1 is ``8:1``."""
    return f"{pay.numerator}:{pay.denominator}"
