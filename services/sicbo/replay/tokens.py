"""Check 7 of the log's invariants, ``token`` (000 §1.1): every promotional token a stored slip
stakes was issued at the table to its player, is staked at its face amount, once, and was not
used (forfeited after a valid result) nor standing on another slip (pure).

Asked of wager intake's own check (:func:`sicbo.wagers.media_checks.check_tokens`) on its
state as of that event: the table's lifecycle, bets and settlement events folded with its own
``evolve`` (:class:`Purses`). A promo wager naming no token is from a log older than tokens
(not checked).

The fold is replay's hottest loop (a slip is nearly every event of a busy table), so a new
slip of chips only, where no exposure is kept, is not folded at once: it waits in a list and
is put into the state's slip maps in one pass (:meth:`PMap.set_many`) when the state is next
read. That is exactly what ``evolve`` does to such a slip (no media to restake, no exposure to
shift: the slip set in ``slips`` and in its round's book, ``placed`` counted), so the state
read is the one ``evolve`` gives event by event (the property test
``tests/unit/replay/test_purses_fold.py`` compares the two over generated logs). Every other
event is folded by ``evolve`` itself on the state so far.
"""

from __future__ import annotations

from typing import Any

import msgspec

from sicbo.decider import Refused
from sicbo.replay.owners import PartKeys
from sicbo.wagers.evolve import evolve as wagers_evolve
from sicbo.wagers.frozen import replace
from sicbo.wagers.media import uses_media
from sicbo.wagers.media_checks import check_tokens
from sicbo.wagers.slips import Slip
from sicbo.wagers.state import Betting, WagerState
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
        self._state: WagerState = wagers_initial(table)
        #: New slips of chips folded since ``_state`` (log order), not yet in its maps.
        self._waiting: list[Slip] = []

    @property
    def state(self) -> WagerState:
        """Intake's state as of the last event folded (the waiting slips put in first)."""
        if self._waiting:
            self._state = _with_slips(self._state, self._waiting)
            self._waiting = []
        return self._state

    @property
    def lifecycle_view(self) -> WagerState:
        """The state as of the last event folded in every field but its slips (``slips``,
        ``books``, ``placed``): what intake's betting guards read
        (:func:`sicbo.wagers.guards.betting_round`,
        :func:`sicbo.wagers.conduct.require_may_wager`), without putting the waiting slips in."""
        return self._state

    def problem(self, event: Any) -> str | None:
        """Why intake refuses the tokens ``event`` stakes (None: it takes them, or it stakes
        none)."""
        if not isinstance(event, _STAKING):
            return None
        wagers = event.wagers if isinstance(event, SlipPlaced) else event.after
        if not uses_media(wagers):
            return None  # no token staked: nothing for check_tokens to refuse
        moving = None if isinstance(event, SlipPlaced) else self.state.slips.get(event.slip_id)
        media, table = self._state.media, self._state.table  # the waiting slips stake none
        try:
            check_tokens(media, table, event.player, wagers, moving)
        except Refused as refused:
            return refused.reason
        return None

    def fold(self, aggregate: Aggregate, event: Any, data: bytes) -> None:
        """Fold one stored event of ``aggregate`` (``data``: as stored)."""
        if aggregate not in _FOLDED:
            return
        if type(event) is SlipPlaced and self._waits(event):
            return
        if isinstance(event, PartKeys):
            media = self._state.media  # the waiting slips hold none
            if not (media.colors or len(media.tokens)):
                return  # nothing held at the table: no part can change it
            event = _part.decode(data)
        self._state = wagers_evolve(self.state, event)

    def _waits(self, event: SlipPlaced) -> bool:
        """Keep a new slip of chips to put in later, where ``evolve`` would only record it: no
        colour check or token staked, none released (the id is new to the state, or a waiting
        slip's, which holds none), no exposure to shift."""
        state, slip_id, number = self._state, event.slip_id, event.round
        current = state.round
        if (
            current is None
            or current.number != number
            or current.betting is not Betting.OPEN  # no wager: ``evolve`` tells (000 §3.9)
            or uses_media(event.wagers)
            or slip_id in state.slips
            or (current is not None and current.exposure is not None and current.number == number)
        ):
            return False
        placed = state.placed + len(self._waiting)
        self._waiting.append(
            Slip(slip_id, event.player, number, number, tuple(event.wagers), order=placed)
        )
        return True


def _with_slips(state: WagerState, slips: list[Slip]) -> WagerState:
    """``state`` with new active slips of chips (ids not in it) folded as ``evolve`` folds them
    one by one, in order: each the latest copy in ``slips`` and standing in its round's book."""
    rounds: dict[int, list[tuple[str, Slip]]] = {}
    for slip in slips:
        rounds.setdefault(slip.round, []).append((slip.slip_id, slip))
    books = state.books
    for number, added in rounds.items():
        books = books.set(number, state.book(number).set_many(added))
    return replace(
        state,
        slips=state.slips.set_many((slip.slip_id, slip) for slip in slips),
        books=books,
        placed=state.placed + len(slips),
    )
