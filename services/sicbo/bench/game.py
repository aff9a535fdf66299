"""Settle-path throughput of the pure game library: one round of 100,000 mixed wagers."""

import random
import time
from dataclasses import dataclass

from sicbo.game.dice import make_roll
from sicbo.game.profiles import load_paytable
from sicbo.game.settlement import Medium, settle_round

WAGERS = 100_000


@dataclass(frozen=True)
class SettleFigure:
    wagers: int
    seconds: float

    @property
    def per_second(self) -> float:
        return self.wagers / self.seconds


def bench_settle(repeats: int = 5, seed: int = 7) -> SettleFigure:
    """Best of ``repeats`` runs of settling one round of mixed wagers on every bet of
    ``online-live`` (the widest paytable), chips, colour checks and tokens mixed."""
    rng = random.Random(seed)
    paytable = load_paytable("online-live")
    bets = [b.id for b in paytable.offered_bets()]
    media = list(Medium)
    wagers = [
        (rng.choice(bets), rng.randrange(1, 500) * 10, rng.choice(media)) for _ in range(WAGERS)
    ]
    roll = make_roll([2, 2, 5])
    settle_round(paytable, roll, wagers[:10])  # build the pay index outside the timing
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        settle_round(paytable, roll, wagers, unit=10)
        best = min(best, time.perf_counter() - start)
    return SettleFigure(WAGERS, best)
