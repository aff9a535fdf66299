"""The bet catalogue: every bet spot of every layout, by its canonical id (RULES.md table)."""

from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations, permutations

from sicbo.game.dice import FACES
from sicbo.game.errors import InvalidBet


class BetKind(StrEnum):
    SMALL = "small"  # 000 §3.1.1, 002 art. 5(1), 004
    BIG = "big"  # 000 §3.1.2, 002 art. 5(2), 004
    ODD = "odd"  # 002/2004 art. 5(8), 004
    EVEN = "even"  # 002/2004 art. 5(7), 004
    SINGLE = "single"  # 000 §3.1.8, 002 art. 5(3), 004
    DOUBLE = "double"  # 000 §3.1.4, 002/2004 art. 5(12), 004 "Pasangan"
    TRIPLE = "triple"  # 000 §3.1.3, 002 art. 5(4), 004
    ANY_TRIPLE = "any-triple"  # 000 §3.1.5, 002 art. 5(5), 004
    TOTAL = "total"  # 000 §3.1.6, 002 art. 5(6), 004
    COMBO = "combo"  # 000 §3.1.7, 002/2004 art. 5(11), 004 "Sekali Ganda Spesifik"
    THREE = "three"  # 002/2004 art. 5(10), 004 "3 Tunggal"
    PAIR_SINGLE = "pair-single"  # 002/2004 art. 5(9), 004
    FOUR = "four"  # 002/2004 art. 5(13), 004 "4 Nombor"
    ALL_ODD = "all-odd"  # 004
    ALL_EVEN = "all-even"  # 004
    TWO_ODD_ONE_EVEN = "two-odd-one-even"  # 004
    TWO_EVEN_ONE_ODD = "two-even-one-odd"  # 004


#: The four-number sets on the layout. 004 names four kinds; 002/2004 names none, so RULES.md
#: uses the same four for both.
FOUR_NUMBER_SETS: tuple[tuple[int, ...], ...] = (
    (1, 2, 3, 4),
    (2, 3, 4, 5),
    (2, 3, 5, 6),
    (3, 4, 5, 6),
)

TOTALS: tuple[int, ...] = tuple(range(4, 18))  # 000 §3.1.6: totals 4..17 only

_PLAIN = frozenset(
    {
        BetKind.SMALL,
        BetKind.BIG,
        BetKind.ODD,
        BetKind.EVEN,
        BetKind.ANY_TRIPLE,
        BetKind.ALL_ODD,
        BetKind.ALL_EVEN,
        BetKind.TWO_ODD_ONE_EVEN,
        BetKind.TWO_EVEN_ONE_ODD,
    }
)


@dataclass(frozen=True, slots=True, order=True)
class Bet:
    """One bet spot. Build it with :func:`parse_bet` or :func:`catalogue`, which validate."""

    kind: BetKind
    numbers: tuple[int, ...] = ()

    @property
    def id(self) -> str:
        if not self.numbers:
            return self.kind.value
        return f"{self.kind.value}:{'-'.join(str(n) for n in self.numbers)}"

    def __str__(self) -> str:
        return self.id


def _ints(kind: BetKind, text: str, count: int, bet_id: str) -> tuple[int, ...]:
    parts = text.split("-")
    if len(parts) != count:
        raise InvalidBet(f"bet {bet_id!r}: '{kind.value}' takes {count} number(s) joined by '-'")
    numbers = []
    for part in parts:
        # Canonical ids only: no signs, spaces or leading zeros, so one bet has one id.
        if not part.isdigit() or part != str(int(part)):
            raise InvalidBet(f"bet {bet_id!r}: {part!r} is not a whole number")
        numbers.append(int(part))
    return tuple(numbers)


def _check_faces(bet_id: str, numbers: tuple[int, ...]) -> None:
    for n in numbers:
        if n not in FACES:
            raise InvalidBet(f"bet {bet_id!r}: {n} is not a die face 1..6")


def _check_ascending(bet_id: str, numbers: tuple[int, ...]) -> None:
    if len(set(numbers)) != len(numbers):
        raise InvalidBet(f"bet {bet_id!r}: the numbers must all differ")
    if list(numbers) != sorted(numbers):
        canonical = "-".join(str(n) for n in sorted(numbers))
        raise InvalidBet(f"bet {bet_id!r}: write the numbers in ascending order ({canonical})")


def parse_bet(bet_id: str) -> Bet:
    """Parse and validate a canonical bet id such as ``small``, ``total:9`` or ``combo:2-5``."""
    if not isinstance(bet_id, str) or not bet_id:
        raise InvalidBet(f"a bet id is a non-empty string, got {bet_id!r}")
    name, sep, args = bet_id.partition(":")
    try:
        kind = BetKind(name)
    except ValueError:
        raise InvalidBet(f"bet {bet_id!r}: unknown bet {name!r}") from None
    if kind in _PLAIN:
        if sep:
            raise InvalidBet(f"bet {bet_id!r}: '{kind.value}' takes no numbers")
        return Bet(kind)
    if not sep or not args:
        raise InvalidBet(f"bet {bet_id!r}: '{kind.value}' needs numbers, e.g. {_EXAMPLES[kind]}")
    if kind is BetKind.TOTAL:
        (value,) = _ints(kind, args, 1, bet_id)
        if value not in TOTALS:
            raise InvalidBet(f"bet {bet_id!r}: totals on the layout are 4..17 (000 §3.1.6)")
        return Bet(kind, (value,))
    arity = _ARITY[kind]
    numbers = _ints(kind, args, arity, bet_id)
    _check_faces(bet_id, numbers)
    if kind is BetKind.PAIR_SINGLE:
        if numbers[0] == numbers[1]:
            raise InvalidBet(f"bet {bet_id!r}: the pair and the single must differ")
    elif arity > 1:
        _check_ascending(bet_id, numbers)
    if kind is BetKind.FOUR and numbers not in FOUR_NUMBER_SETS:
        offered = ", ".join("-".join(map(str, s)) for s in FOUR_NUMBER_SETS)
        raise InvalidBet(f"bet {bet_id!r}: the four-number sets are {offered}")
    return Bet(kind, numbers)


_ARITY = {
    BetKind.SINGLE: 1,
    BetKind.DOUBLE: 1,
    BetKind.TRIPLE: 1,
    BetKind.COMBO: 2,
    BetKind.THREE: 3,
    BetKind.PAIR_SINGLE: 2,
    BetKind.FOUR: 4,
}

_EXAMPLES = {
    BetKind.SINGLE: "single:4",
    BetKind.DOUBLE: "double:2",
    BetKind.TRIPLE: "triple:6",
    BetKind.TOTAL: "total:9",
    BetKind.COMBO: "combo:2-5",
    BetKind.THREE: "three:1-3-5",
    BetKind.PAIR_SINGLE: "pair-single:1-2",
    BetKind.FOUR: "four:2-3-5-6",
}


def bets_of_kind(kind: BetKind) -> tuple[Bet, ...]:
    """Every bet spot of one kind, in layout order."""
    if kind in _PLAIN:
        return (Bet(kind),)
    if kind in (BetKind.SINGLE, BetKind.DOUBLE, BetKind.TRIPLE):
        return tuple(Bet(kind, (n,)) for n in FACES)
    if kind is BetKind.TOTAL:
        return tuple(Bet(kind, (t,)) for t in TOTALS)
    if kind is BetKind.COMBO:
        return tuple(Bet(kind, pair) for pair in combinations(FACES, 2))
    if kind is BetKind.THREE:
        return tuple(Bet(kind, trio) for trio in combinations(FACES, 3))
    if kind is BetKind.PAIR_SINGLE:
        return tuple(Bet(kind, pair) for pair in permutations(FACES, 2))
    return tuple(Bet(kind, s) for s in FOUR_NUMBER_SETS)


def catalogue() -> tuple[Bet, ...]:
    """Every bet of every kind."""
    return tuple(bet for kind in BetKind for bet in bets_of_kind(kind))
