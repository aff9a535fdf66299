"""Who plays a demo table: its simulated dealer, or a person who took it over.

A person takes the table over at the web terminal (:mod:`sicbo_contracts.demo`); the simulated
dealer finishes the round it plays, then waits until the table is handed back, or until nobody
has played it for ``HOLD_SECONDS``.
"""

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime

from sicbo.demo.client import FloorClient
from sicbo_contracts.demo import Control
from sicbo_contracts.subjects import Aggregate, aggregate_filter

#: A table taken over and left alone this long goes back to the demo dealer.
HOLD_SECONDS = 30 * 60


class TableControl:
    def __init__(
        self, client: FloorClient, table: str, notice: Callable[[str], None] | None = None
    ) -> None:
        self.client = client
        self.table = table
        self.notice = notice or (lambda text: None)
        #: The operator who took the table over from the simulated dealer (``make run``'s web
        #: terminal); the simulated dealer finishes its round, then waits until handed back.
        self.held_by: str | None = None
        self.playing: int | None = None  # the round the simulated dealer is playing
        self.stopped = False  # the simulated dealer plays no further round
        self._handed_back = asyncio.Event()

    def take_over(self, operator: str) -> Control:
        """A person takes the table: the simulated dealer stops after the round it plays."""
        self.held_by = operator
        self._handed_back.clear()
        self.notice(f"{self.table}: taken over by {operator}")
        return self.who_plays()

    def who_plays(self) -> Control:
        """Who plays the table now."""
        if self.held_by is None:
            return Control(status="demo", round=self.playing)
        if self.playing is not None:
            return Control(status="after-round", round=self.playing, by=self.held_by)
        return Control(status="yours", by=self.held_by)

    def hand_back(self) -> Control:
        if self.held_by is not None:
            self.notice(f"{self.table}: handed back to the demo dealer by {self.held_by}")
        self.held_by = None
        self._handed_back.set()
        return Control(status="released")

    def stop(self) -> None:
        """The simulated dealer plays no further round; a wait for a hand-back ends."""
        self.stopped = True
        self._handed_back.set()

    async def wait_handed_back(self) -> None:
        """Until handed back, or until nobody has played the table for HOLD_SECONDS."""
        while self.held_by is not None and not self.stopped:
            try:
                await asyncio.wait_for(self._handed_back.wait(), HOLD_SECONDS)
            except TimeoutError:
                if await self._idle_seconds() >= HOLD_SECONDS:
                    self.notice(
                        f"{self.table}: unused for {HOLD_SECONDS // 60} minutes, demo resumes"
                    )
                    self.held_by = None
            # Woken by a hand-back: a new take-over since then keeps the table held.

    async def _idle_seconds(self) -> float:
        """Since the table's latest lifecycle event (the person's last press)."""
        store = self.client.store
        latest = await store.get(
            await store.last_sequence(aggregate_filter(self.table, Aggregate.LIFECYCLE)),
            table=self.table,
        )
        if latest is None:
            return float("inf")
        return (datetime.now(UTC) - latest.time).total_seconds()
