"""What a round's accepted wagers could pay at most: the table's maximum payout per round.

A round's exposure is the winnings its standing wagers would be paid on each of the 56 results
(:data:`~sicbo.game.evaluation.ROLLS`; the 216 ordered outcomes pay as their sorted faces do),
kept in the intake state and moved by every slip placed, changed, withdrawn or chosen for, so a
slip is checked with one pass over its own wagers, never the round's.

Choices where the sources are silent (no seed has a maximum payout; it is a house limit set on
the table, ``TableConfig.max_payout_per_round``; also in docs/rules.md, "Wagers"):

- The payout is the winnings settlement pays (``WagerResult.winnings``): returned stakes are the
  players' own, and losing stakes are not set off against it. Winnings that are not whole are
  counted before rounding to the table's unit (rounding only lowers them), so the bound holds
  whatever the unit when the round settles.
- The worst case is exact: the largest total over the results, not the sum of each wager's best
  case (big and small never both win).
- A slip, change or choice is refused when it would raise the round's worst case above the
  maximum. One that does not raise it is taken even if the round is already above (its carried
  wagers, settled under the re-run's paytable, can be): 000 §4.2 keeps accepted wagers valid.
"""

from collections.abc import Iterable
from functools import lru_cache

from sicbo.game.dice import Roll
from sicbo.game.errors import GameError
from sicbo.game.evaluation import ROLLS, pays_by_roll
from sicbo.game.profiles import Paytable, parse_paytable_ref
from sicbo_contracts.wagers import Wager

#: Winnings by result, indexed like :data:`~sicbo.game.evaluation.ROLLS`.
Exposure = tuple[int, ...]

NONE_EXPOSED: Exposure = (0,) * len(ROLLS)


@lru_cache(maxsize=64)
def paytable_by_ref(ref: str) -> Paytable:
    """Memoised: the profile documents ship with the code, so a ref always means one paytable
    (building it anew for every slip cost more than the rest of the decision)."""
    return parse_paytable_ref(ref)


def shifted(
    exposure: Exposure, ref: str, removed: Iterable[Wager] = (), added: Iterable[Wager] = ()
) -> Exposure:
    """``exposure`` less what ``removed`` would win and plus what ``added`` would, under the
    paytable ``ref``; as it was if the paytable is unknown (intake refuses its slips)."""
    try:
        paytable = paytable_by_ref(ref)
    except GameError:
        return exposure
    totals = list(exposure)
    for sign, wagers in ((-1, removed), (1, added)):
        for wager in wagers:
            stake = wager.stake
            # As winnings_for(stake, num, den, unit=1): the pay before any rounding to the
            # table's unit, which only lowers it.
            for index, num, den in pays_by_roll(paytable, wager.bet):
                totals[index] += sign * (stake * num // den)
    return tuple(totals)


def worst(exposure: Exposure) -> tuple[int, Roll]:
    """The most the round could pay, and a result it would pay that on."""
    amount = max(exposure)
    return amount, ROLLS[exposure.index(amount)]
