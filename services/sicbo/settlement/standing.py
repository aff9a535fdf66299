"""The wagers standing in a round, as the wager intake decider folds them.

The wager intake service owns the rules of slips (placed, withdrawn, changed, carried over a
void round, 002/2003 art. 3(3), 002/2004 art. 3(4), 004); settlement must settle exactly the
wagers it accepted, so it uses that decider's own fold and listing, never a copy of them.
"""

from sicbo.wagers.decider import fold, wagers_of_round
from sicbo.wagers.state import CARRY_OVER, StandingWager

#: One wager standing in a round: (slip_id, player, index, wager, carried).
Standing = StandingWager

__all__ = ["CARRY_OVER", "Standing", "fold", "wagers_of_round"]
