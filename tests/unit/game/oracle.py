"""A second, independent formulation of the game, for cross-checking the library.

It is written from RULES.md's tables with ordered dice and regular expressions, and shares no
code with ``sicbo.game``: the pays are transcribed here from the digest, not read from the
profile documents, so a typo in either one shows up as a mismatch.
"""

import re
from fractions import Fraction

F = Fraction

# RULES.md "Payouts": X to 1 unless written as a Fraction.
PAYS: dict[str, dict[str, object]] = {
    "cca-1992": {
        "small": 1,
        "big": 1,
        "single": (1, 2, 12),
        "double": 11,
        "triple": 180,
        "any-triple": 31,
        "combo": 6,
        "total": {4: 62, 5: 31, 6: 18, 7: 12, 8: 8, 9: 7, 10: 6},
    },
    "macau-2003": {
        "small": 1,
        "big": 1,
        "single": (1, 2, 3),
        "triple": 150,
        "any-triple": 24,
        "total": {4: 50, 5: 18, 6: 14, 7: 12, 8: 8, 9: 6, 10: 6},
    },
    "macau-2004": {
        "small": 1,
        "big": 1,
        "odd": 1,
        "even": 1,
        "single": (1, 2, 3),
        "double": 8,
        "triple": 150,
        "any-triple": 24,
        "combo": 5,
        "three": 30,
        "pair-single": 50,
        "four": 7,
        "total": {4: 50, 5: 18, 6: 14, 7: 12, 8: 8, 9: 6, 10: 6},
    },
    "online-live": {
        "small": 1,
        "big": 1,
        "odd": 1,
        "even": 1,
        "single": (1, 2, 3),
        "double": 10,
        "triple": 180,
        "any-triple": 30,
        "combo": 5,
        "three": 30,
        "pair-single": 60,
        "four": 7,
        "all-odd": 6,
        "all-even": 6,
        "two-odd-one-even": F(3, 2),
        "two-even-one-odd": F(3, 2),
        "total": {4: 60, 5: 30, 6: 18, 7: 12, 8: 8, 9: 7, 10: 6},
    },
}

# RULES.md "Triples": which bets lose on any triple.
KILLED_BY_TRIPLE = {
    "cca-1992": {"small", "big"},
    "macau-2003": {"small", "big"},
    "macau-2004": {"small", "big"},
    "online-live": {"small", "big", "odd", "even"},
}


def oracle_pay(profile: str, bet_id: str, dice: tuple[int, int, int]) -> Fraction | None:
    pays = PAYS[profile]
    a, b, c = dice
    s = a + b + c
    triple = a == b == c
    m = re.fullmatch(r"([a-z-]+)(?::([0-9-]+))?", bet_id)
    assert m, bet_id
    name, args = m.group(1), m.group(2)
    nums = [int(x) for x in args.split("-")] if args else []
    if name in KILLED_BY_TRIPLE[profile] and triple:
        return None
    hits = [d for d in dice]
    win: bool
    if name == "small":
        win = s in range(4, 11)
    elif name == "big":
        win = s in range(11, 18)
    elif name == "odd":
        win = s % 2 == 1
    elif name == "even":
        win = s % 2 == 0
    elif name == "single":
        n = sum(1 for d in hits if d == nums[0])
        return None if n == 0 else F(pays["single"][n - 1])  # type: ignore[index]
    elif name == "double":
        win = sum(1 for d in hits if d == nums[0]) >= 2
    elif name == "triple":
        win = a == b == c == nums[0]
    elif name == "any-triple":
        win = triple
    elif name == "total":
        t = nums[0]
        if s != t:
            return None
        table = pays["total"]
        return F(table[min(t, 21 - t)])  # type: ignore[index]
    elif name == "combo":
        win = nums[0] in hits and nums[1] in hits
    elif name == "three":
        win = sorted(hits) == nums
    elif name == "pair-single":
        win = sorted(hits) == sorted([nums[0], nums[0], nums[1]])
    elif name == "four":
        win = len({a, b, c}) == 3 and all(d in nums for d in hits)
    elif name == "all-odd":
        win = all(d % 2 for d in hits)
    elif name == "all-even":
        win = not any(d % 2 for d in hits)
    elif name == "two-odd-one-even":
        win = [d % 2 for d in hits].count(1) == 2
    elif name == "two-even-one-odd":
        win = [d % 2 for d in hits].count(0) == 2
    else:
        raise AssertionError(bet_id)
    return F(pays[name]) if win else None  # type: ignore[arg-type]


def offered(profile: str) -> set[str]:
    """The bet ids a profile offers, listed from RULES.md's catalogue."""
    pays = PAYS[profile]
    ids: set[str] = set()
    for name in pays:
        if name in ("single", "double", "triple"):
            ids |= {f"{name}:{n}" for n in range(1, 7)}
        elif name == "total":
            ids |= {f"total:{t}" for t in range(4, 18)}
        elif name == "combo":
            ids |= {f"combo:{x}-{y}" for x in range(1, 7) for y in range(x + 1, 7)}
        elif name == "three":
            ids |= {
                f"three:{x}-{y}-{z}"
                for x in range(1, 7)
                for y in range(x + 1, 7)
                for z in range(y + 1, 7)
            }
        elif name == "pair-single":
            ids |= {f"pair-single:{x}-{y}" for x in range(1, 7) for y in range(1, 7) if x != y}
        elif name == "four":
            ids |= {"four:1-2-3-4", "four:2-3-4-5", "four:2-3-5-6", "four:3-4-5-6"}
        else:
            ids.add(name)
    return ids
