"""Check 7 of the log's invariants, ``token`` (000 §1.1): every promotional token a stored slip
stakes was issued at the table to its player, is staked at its face amount, once, and was not
used (forfeited after a valid result) nor standing on another slip (pure).

Asked of wager intake's own check (:func:`sicbo.wagers.media_checks.check_tokens`) on its
state as of that event: the table's lifecycle, bets and settlement events folded with its own
``evolve`` (:class:`Purses`). A promo wager naming no token is from a log older than tokens
(not checked).
"""

from __future__ import annotations

from typing import Any

import msgspec

from sicbo.decider import Refused
from sicbo.replay.owners import PartKeys
from sicbo.wagers.evolve import evolve as wagers_evolve
from sicbo.wagers.media_checks import check_tokens
from sicbo.wagers.state import WagerState
from sicbo.wagers.state import initial_state as wagers_initial
from sicbo_contracts.settlement import WagersSettled
from sicbo_contracts.subjects import Aggregate
from sicbo_contracts.wagers import CarriedSlipChosen, SlipChanged, SlipPlaced

__all__ = ["Purses"]

#: A settlement part in full: replay's own reading keeps only its wagers' keys.
_part = msgspec.json.Decoder(WagersSettled)
_STAKING = (SlipPlaced, SlipChanged, CarriedSlipChosen)
_FOLDED = frozenset({Aggregate.LIFECYCLE, Aggregate.BETS, Aggregate.SETTLE})


class Purses:
    """Wager intake's state of one table, as of the event being checked."""

    def __init__(self, table: str) -> None:
        self.state: WagerState = wagers_initial(table)

    def problem(self, event: Any) -> str | None:
        """Why intake refuses the tokens ``event`` stakes (None: it takes them, or it stakes
        none)."""
        if not isinstance(event, _STAKING):
            return None
        wagers = event.wagers if isinstance(event, SlipPlaced) else event.after
        moving = None if isinstance(event, SlipPlaced) else self.state.slips.get(event.slip_id)
        try:
            check_tokens(self.state.media, self.state.table, event.player, wagers, moving)
        except Refused as refused:
            return refused.reason
        return None

    def fold(self, aggregate: Aggregate, event: Any, data: bytes) -> None:
        """Fold one stored event of ``aggregate`` (``data``: as stored)."""
        if aggregate not in _FOLDED:
            return
        if isinstance(event, PartKeys):
            media = self.state.media
            if not (media.colors or len(media.tokens)):
                return  # nothing held at the table: no part can change it
            event = _part.decode(data)
        self.state = wagers_evolve(self.state, event)
