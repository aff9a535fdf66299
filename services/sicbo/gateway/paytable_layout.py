"""A Sic Bo layout for a paytable: every offered bet spot, in its place, with its pay (pure).

The groups follow the printed layouts (000 §2.1-2.2 describe the table; 004's online layout
adds its rows): small, odd, the doubles, any triple, the triples, even, big across the top; the
totals 4..17; the two-dice combinations; the macau-2004 and online-live extras; the single
numbers along the bottom, nearest the players.
"""

from dataclasses import dataclass

from sicbo.game.bets import Bet, BetKind, bets_of_kind
from sicbo.game.house_edge import BetEdge, bet_edge, format_pay
from sicbo.game.profiles import Paytable


@dataclass(frozen=True, slots=True)
class Spot:
    bet: str  # canonical bet id
    label: str
    pays: str  # as the layout prints it; singles show one, two and three dice
    detail: str


@dataclass(frozen=True, slots=True)
class Group:
    name: str
    title: str
    spots: tuple[Spot, ...]


@dataclass(frozen=True, slots=True)
class Layout:
    profile: str
    paytable: str
    title: str
    groups: tuple[Group, ...]


_TOP = (BetKind.SMALL, BetKind.ODD, BetKind.DOUBLE, BetKind.ANY_TRIPLE, BetKind.TRIPLE)
_GROUPS: tuple[tuple[str, str, tuple[BetKind, ...]], ...] = (
    ("top", "Small · doubles · triples · big", (*_TOP, BetKind.EVEN, BetKind.BIG)),
    ("totals", "Totals", (BetKind.TOTAL,)),
    ("combos", "Two-dice combinations", (BetKind.COMBO,)),
    (
        "parity",
        "Odd and even dice",
        (BetKind.ALL_ODD, BetKind.TWO_ODD_ONE_EVEN, BetKind.TWO_EVEN_ONE_ODD, BetKind.ALL_EVEN),
    ),
    ("four", "Four numbers", (BetKind.FOUR,)),
    ("three", "Three single numbers", (BetKind.THREE,)),
    ("pair-single", "Pair and single", (BetKind.PAIR_SINGLE,)),
    ("singles", "Single numbers", (BetKind.SINGLE,)),
)

_DETAIL = {
    BetKind.SMALL: "4-10 · loses on a triple",
    BetKind.BIG: "11-17 · loses on a triple",
    BetKind.ODD: "odd total",
    BetKind.EVEN: "even total",
    BetKind.ANY_TRIPLE: "any three alike",
    BetKind.ALL_ODD: "three odd dice",
    BetKind.ALL_EVEN: "three even dice",
    BetKind.TWO_ODD_ONE_EVEN: "two odd, one even",
    BetKind.TWO_EVEN_ONE_ODD: "two even, one odd",
}


def _label(bet: Bet) -> str:
    n = bet.numbers
    match bet.kind:
        case BetKind.DOUBLE:
            return f"{n[0]} {n[0]}"
        case BetKind.TRIPLE:
            return f"{n[0]} {n[0]} {n[0]}"
        case BetKind.TOTAL | BetKind.SINGLE:
            return str(n[0])
        case BetKind.PAIR_SINGLE:
            return f"{n[0]} {n[0]} {n[1]}"
        case BetKind.COMBO | BetKind.THREE | BetKind.FOUR:
            return " ".join(map(str, n))
        case _:
            return bet.kind.value.replace("-", " ").upper()


def _detail(bet: Bet) -> str:
    match bet.kind:
        case BetKind.DOUBLE:
            return "two or three of it"
        case BetKind.TRIPLE:
            return "three of it"
        case BetKind.TOTAL:
            return "total of the dice"
        case BetKind.SINGLE:
            return "one, two or three dice"
        case BetKind.COMBO:
            return "both numbers"
        case BetKind.THREE:
            return "all three numbers"
        case BetKind.PAIR_SINGLE:
            return "the pair and the single"
        case BetKind.FOUR:
            return "three of the four"
        case _:
            return _DETAIL[bet.kind]


def _spot(paytable: Paytable, bet: Bet) -> Spot:
    edge: BetEdge = bet_edge(paytable, bet)
    pays = " / ".join(map(format_pay, edge.pays_by_dice)) or format_pay(edge.pays)
    return Spot(bet=bet.id, label=_label(bet), pays=pays, detail=_detail(bet))


def layout_of(paytable: Paytable) -> Layout:
    """Every bet the paytable offers, once, grouped and ordered as on the table."""
    groups = []
    for name, title, kinds in _GROUPS:
        spots = tuple(
            _spot(paytable, bet)
            for kind in kinds
            if kind in paytable.offered_kinds
            for bet in bets_of_kind(kind)
        )
        if spots:
            groups.append(Group(name, title, spots))
    profile = paytable.profile
    return Layout(profile.id, paytable.ref, profile.title, tuple(groups))
