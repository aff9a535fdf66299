"""Wager intake's side of a supervisor's powers over a person who used a prohibited device
(000 §8.1, §8.3; the lifecycle records them, :mod:`sicbo.lifecycle.conduct`).

- 000 §8.3.2: an excluded player "shall be excluded from further participation in the game":
  no slip of theirs is placed, changed or kept (the choice for a carried slip), whoever sends
  it, until a supervisor lifts the exclusion. Withdrawing a slip, and cancelling a carried one
  (002/2004 art. 3(4)), stay allowed while betting is open: taking a stake back off the layout
  is no participation, and it returns what a void would.
- 000 §8.3.1: once a player's wagers in the current round are declared void, no new or
  changed wager of theirs is taken in that round (it would be void as well).

Every slip append expects the table's lifecycle filter to end where the decision saw it, so a
slip decided before an exclusion (or a void) is stored is refused by the server and decided
again on the state that holds it.
"""

from sicbo.decider import refuse
from sicbo.wagers.state import WagerState

PLAYER = "$.player"


def require_may_wager(state: WagerState, player: str, round_no: int, doing: str) -> None:
    """Refuse a slip command of ``player`` in ``round_no`` that would have them wager."""
    if player in state.excluded:
        refuse(
            f"player: {player!r} is excluded from further participation in the game at table"
            f" {state.table} by a supervisor (000 §8.3.2): cannot {doing} until the exclusion"
            " is lifted",
            key="wager.excluded",
            field=PLAYER,
        )
    current = state.round
    if current is not None and current.number == round_no and player in current.voided:
        refuse(
            f"player: the wagers of {player!r} in round {round_no} were declared void by a"
            f" supervisor (000 §8.3.1): cannot {doing} in this round",
            field=PLAYER,
            key="wager.voided",
            params={"round": round_no},
        )
