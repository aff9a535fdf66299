"""Which bets a result wins, and at what pay (RULES.md "Bet catalogue", "Triples")."""

from collections import Counter
from fractions import Fraction
from functools import cache, lru_cache

from sicbo.game.bets import Bet, BetKind
from sicbo.game.dice import Roll, all_rolls, is_triple
from sicbo.game.profiles import Paytable, pay_key


def pay_level(bet: Bet, roll: Roll) -> int | None:
    """Whether ``bet`` wins on ``roll`` before any triple rule: ``None`` if it loses, else the
    level its pay is looked up at (matching dice for ``single``, the total for ``total``, 0
    otherwise)."""
    kind, numbers = bet.kind, bet.numbers
    total = roll[0] + roll[1] + roll[2]
    odd_dice = sum(d % 2 for d in roll)
    won: bool
    if kind is BetKind.SMALL:
        won = 4 <= total <= 10  # 000 §3.1.1.1
    elif kind is BetKind.BIG:
        won = 11 <= total <= 17  # 000 §3.1.2.1
    elif kind is BetKind.ODD:
        won = total % 2 == 1
    elif kind is BetKind.EVEN:
        won = total % 2 == 0
    elif kind is BetKind.SINGLE:
        count = roll.count(numbers[0])  # 000 §3.1.8: paid by how many dice show it
        return count or None
    elif kind is BetKind.DOUBLE:
        won = roll.count(numbers[0]) >= 2  # 000 §3.1.4: a triple of the number wins too
    elif kind is BetKind.TRIPLE:
        won = roll.count(numbers[0]) == 3
    elif kind is BetKind.ANY_TRIPLE:
        won = is_triple(roll)
    elif kind is BetKind.TOTAL:
        won = total == numbers[0]  # 000 §3.1.6: a triple with that total wins
    elif kind is BetKind.COMBO:
        won = numbers[0] in roll and numbers[1] in roll
    elif kind is BetKind.THREE:
        won = roll == numbers
    elif kind is BetKind.PAIR_SINGLE:
        counts = Counter(roll)
        won = counts[numbers[0]] == 2 and counts[numbers[1]] == 1
    elif kind is BetKind.FOUR:
        # 002/2004 art. 5(13): three of the four chosen numbers show, so three different faces.
        won = len(set(roll)) == 3 and set(roll) <= set(numbers)
    elif kind is BetKind.ALL_ODD:
        won = odd_dice == 3
    elif kind is BetKind.ALL_EVEN:
        won = odd_dice == 0
    elif kind is BetKind.TWO_ODD_ONE_EVEN:
        won = odd_dice == 2
    else:  # BetKind.TWO_EVEN_ONE_ODD
        won = odd_dice == 1
    if not won:
        return None
    return total if kind is BetKind.TOTAL else 0


def pay_for(paytable: Paytable, bet: Bet, roll: Roll) -> Fraction | None:
    """The pay ("X to 1" as a fraction of the stake) of a winning bet, or ``None`` if it loses.

    The bet must be offered by the paytable."""
    level = pay_level(bet, roll)
    if level is None:
        return None
    if is_triple(roll) and paytable.kills_on_triple(bet.kind):
        return None  # 000 §3.1.1.2, §3.1.2.2; 002 art. 7; 004
    by_level = bet.kind in (BetKind.SINGLE, BetKind.TOTAL)
    return paytable.pays[pay_key(bet.kind, level if by_level else None)]


def winning_bets(paytable: Paytable, roll: Roll) -> dict[Bet, Fraction]:
    """Every offered bet that wins on ``roll``, with its pay: what the layout lights (000 §2.3)."""
    return dict(_winners(paytable, roll))


@cache
def _winners(paytable: Paytable, roll: Roll) -> tuple[tuple[Bet, Fraction], ...]:
    found = ((bet, pay_for(paytable, bet, roll)) for bet in paytable.offered_bets())
    return tuple((bet, pay) for bet, pay in found if pay is not None)


@cache
def roll_pays(paytable: Paytable, roll: Roll) -> dict[str, tuple[int, int]]:
    """For the settle hot path: winning bet id -> (numerator, denominator) for one result."""
    return {bet.id: (pay.numerator, pay.denominator) for bet, pay in _winners(paytable, roll)}


#: The 56 distinct results, in the order :func:`pays_by_roll` indexes them. A wager's pay depends
#: only on the faces shown, never their order, so these stand for the 216 outcomes exactly.
ROLLS: tuple[Roll, ...] = all_rolls()


@lru_cache(maxsize=4096)
def pays_by_roll(paytable: Paytable, bet_id: str) -> tuple[tuple[int, int, int], ...]:
    """The payout of one bet by outcome: ``(index in ROLLS, numerator, denominator)`` of its
    pay for every result it wins on. A bet id the paytable does not offer wins nothing."""
    found = ((i, roll_pays(paytable, roll).get(bet_id)) for i, roll in enumerate(ROLLS))
    return tuple((i, pay[0], pay[1]) for i, pay in found if pay is not None)
